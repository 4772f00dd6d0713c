#!/usr/bin/env node
// What one V8 heap snapshot holds that another does not (issue 16 (2): a full collection marks every live object),
// counted by object kind and by the path that keeps the objects alive (each object's first strong retainer,
// `--depth` levels up). Take the snapshots from the compiled service with `node --heapsnapshot-signal=SIGUSR2
// dist/main.js`, after `POST /ops/heap` (BENCH_OPS_ROUTES=true, --expose-gc), on a full data dir and an empty one:
//   node --max-old-space-size=12000 bench/experiments/heap-census.mjs full.heapsnapshot empty.heapsnapshot \
//     [--depth 5] [--top 40]
// Prints the object counts of both, then the kinds and retainer paths with the largest difference.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(args.splice(i, 2)[1]);
};
const depth = option('depth', 5);
const top = option('top', 40);
const [fileA, fileB] = args;
if (!fileA || !fileB) throw new Error('usage: heap-census.mjs <a.heapsnapshot> <b.heapsnapshot> [--depth N] [--top N]');

function census(file) {
  const s = JSON.parse(readFileSync(file, 'utf8'));
  const meta = s.snapshot.meta;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const types = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const [ti, ni, ei] = ['type', 'name', 'edge_count'].map((f) => meta.node_fields.indexOf(f));
  const count = s.nodes.length / nf;
  const firstEdge = new Int32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += s.nodes[i * nf + ei] * ef;
  }
  firstEdge[count] = s.edges.length;
  // each object's first strong retainer and the edge's name
  const retainer = new Int32Array(count).fill(-1);
  const via = new Array(count);
  for (let i = 0; i < count; i++)
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += ef) {
      const type = edgeTypes[s.edges[e]];
      if (type === 'weak' || type === 'shortcut') continue;
      const to = s.edges[e + 2] / nf;
      if (retainer[to] !== -1) continue;
      retainer[to] = i;
      via[to] =
        type === 'element' || type === 'hidden'
          ? '[]'
          : type === 'internal'
            ? 'int'
            : String(s.strings[s.edges[e + 1]]).slice(0, 30);
    }
  const label = (i) => {
    const type = types[s.nodes[i * nf + ti]];
    const name = String(s.strings[s.nodes[i * nf + ni]]);
    if (type.includes('string')) return type === 'string' ? 'string' : type;
    if (type === 'object') return name.slice(0, 30);
    if (type === 'closure') return 'closure';
    return `${type}:${name.slice(0, 24)}`;
  };
  const kinds = new Map();
  const paths = new Map();
  for (let i = 0; i < count; i++) {
    const kind = label(i);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    let path = kind;
    for (let d = 0, at = i; d < depth && retainer[at] >= 0; d++, at = retainer[at])
      path += ` <${via[at]}- ${label(retainer[at])}`;
    paths.set(path, (paths.get(path) ?? 0) + 1);
  }
  return { count, kinds, paths };
}

function difference(a, b) {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].map((k) => [k, (a.get(k) ?? 0) - (b.get(k) ?? 0)]).sort((x, y) => y[1] - x[1]);
}

const a = census(fileA);
const b = census(fileB);
console.log(`objects: ${a.count} in ${fileA}, ${b.count} in ${fileB}, difference ${a.count - b.count}`);
console.log('\nby kind:');
for (const [k, n] of difference(a.kinds, b.kinds).slice(0, top)) console.log(String(n).padStart(8), k);
console.log(`\nby retainer path (${depth} levels):`);
for (const [k, n] of difference(a.paths, b.paths).slice(0, top)) console.log(String(n).padStart(8), k.slice(0, 240));
