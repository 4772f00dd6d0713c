#!/usr/bin/env node
// Self time and inclusive time per function of a V8 .cpuprofile (node --cpu-prof), top N.
//   node bench/experiments/top-functions.mjs bench/results/profiles/x.cpuprofile [N] [filter]
import { readFileSync } from 'node:fs';

const [file, n = '30', filter = ''] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const dt = new Map();
for (let i = 0; i < profile.samples.length; i++)
  dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const parent = new Map();
for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
const name = (node) =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules\/)?/, '')}:${node.callFrame.lineNumber + 1}`;
const self = new Map();
const total = new Map();
let all = 0;
for (const [id, us] of dt) {
  all += us;
  const node = byId.get(id);
  self.set(name(node), (self.get(name(node)) ?? 0) + us);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const key = name(byId.get(cur));
    if (seen.has(key)) continue;
    seen.add(key);
    total.set(key, (total.get(key) ?? 0) + us);
  }
}
const show = (title, map) => {
  console.log(`\n${title} (of ${(all / 1e6).toFixed(1)} s sampled)`);
  [...map]
    .filter(([k]) => k.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(n))
    .forEach(([k, us]) =>
      console.log(`${(us / 1e3).toFixed(0).padStart(8)} ms ${((100 * us) / all).toFixed(1).padStart(5)}%  ${k}`),
    );
};
show('self time', self);
show('inclusive time', total);
