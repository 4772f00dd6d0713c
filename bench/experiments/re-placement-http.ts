/**
 * Issue 13's re-placement line over HTTP, as the bench times it, with each answer's latency set beside the
 * service's GC pauses: which answers were slow, and whether a collection (which kind, how long) fell inside them.
 * The compiled service on an embedded inventory kept between runs (--data; imported the first time), one or more
 * trees alternated per batch (--trees a=dir,b=dir: each tree's dist/main.js; default this tree, compiled), the
 * bench's body (taintImpactBody + replacement: true) at concurrency 1 from a lean client in this process that holds
 * no inventory and drops each body as it arrives.
 *   node -r @swc-node/register bench/experiments/re-placement-http.ts --nodes 5000 --pods 150000 \
 *     --data /tmp/tw-inv-5000 [--trees before=/tmp/before,after=.] [--batches 4] [--requests 60] \
 *     [--clients lean,autocannon] [--hold-inventory] [--form replacement|full|summary] [--open-loop-first <s>]
 * `--open-loop-first <s>`: before each client's batch, the bench's open loop (1,000 distinct feasible-nodes
 * questions/s) for that many seconds, then the bench's settle: whether the answers are slower after a load, as
 * bench/run.ts measures taint-impact right after its open loop.
 * `--clients lean,autocannon` alternates, per tree and batch, the lean client with the bench's own (autocannon
 * through bench/lib/load.ts, 20 s at concurrency 1 after 5 s of warm-up: what bench/run.ts measures);
 * `--hold-inventory` keeps the generated inventory alive in this process, as bench/run.ts did until 2026-11-27, so
 * the client pays the collections of a large heap as the bench's did.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import { chunkList, generateInventory } from '../generate-inventory';
import { http } from '../lib/http';
import { REPO_ROOT, Service, compileService, settle } from '../lib/service';
import { runLoad } from '../lib/load';
import { summarize } from '../lib/stats';
import { runOpenLoop } from '../lib/open-loop';
import { distinctPodBody, podMix, taintImpactBody } from '../scenarios';

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const num = (name: string, fallback: number) => Number(arg(name) ?? fallback);
const log = (msg: string) => process.stdout.write(`[re-place ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const loadAvg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Pause {
  at: number;
  ms: number;
  kind: string;
}

/** One POST, the body read and dropped; ms from the send to the last byte, and the bytes. */
function post(url: string, path: string, body: string): Promise<{ ms: number; bytes: number; status: number }> {
  return new Promise((resolvePost, reject) => {
    const started = performance.now();
    const u = new URL(path, url);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        agent: keepAlive,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolvePost({ ms: performance.now() - started, bytes, status: res.statusCode ?? 0 }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const keepAlive = new (require('node:http').Agent)({ keepAlive: true, maxSockets: 1 });

async function main() {
  const nodes = num('nodes', 1000);
  const pods = num('pods', 30000);
  const data = resolve(arg('data') ?? `/tmp/tw-inv-${nodes}-${pods}`);
  const batches = num('batches', 2);
  const requests = num('requests', 60);
  const trees = (arg('trees') ?? 'this=.').split(',').map((t) => {
    const [label, dir] = t.split('=');
    return { label, entry: compileService(resolve(dir)).entry };
  });
  const env = { DATA_DIR: data, BENCH_OPS_ROUTES: 'true' };
  const clients = (arg('clients') ?? 'lean').split(',');
  const openLoopFirst = num('open-loop-first', 0);
  const held = argv.includes('--hold-inventory') ? generateInventory({ nodes, pods, seed: 42 }) : undefined;
  if (!existsSync(join(data, '.imported'))) {
    const inv = held ?? generateInventory({ nodes, pods, seed: 42 });
    rmSync(data, { recursive: true, force: true });
    mkdirSync(data, { recursive: true });
    const { service } = await Service.start({ entry: trees[0].entry, env, logLevel: 'warn' });
    for (const chunk of chunkList(inv.items, 10_000)) {
      const r = await http(service.url, 'POST', '/v1/import', JSON.stringify(chunk));
      if (r.status >= 300) throw new Error(`import answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
    await service.stop();
    writeFileSync(join(data, '.imported'), '');
    log(`imported ${nodes} nodes, ${pods} pods into ${data}`);
  }
  // --form: the answer asked for (issue 16 (5)'s full list and summary share the route and the question)
  const form = arg('form') ?? 'replacement';
  const extra = { replacement: { replacement: true }, full: {}, summary: { summary: true } }[form];
  if (!extra) throw new Error(`--form replacement|full|summary, not ${form}`);
  const body = JSON.stringify({ ...taintImpactBody(), ...extra });
  const all = new Map<string, number[]>();
  for (let b = 0; b < batches; b++) {
    for (const tree of b % 2 === 0 ? trees : [...trees].reverse()) {
      const { service, readyMs } = await Service.start({ entry: tree.entry, env, nodeArgs: ['--expose-gc'] });
      for (let w = 0; w < 5; w++) await post(service.url, '/v1/decisions/taint-impact', body);
      for (const client of b % 2 === 0 ? clients : [...clients].reverse()) {
        const label = `${tree.label}/${client}`;
        if (openLoopFirst > 0) {
          // the mix's pods name the inventory's zones: the same seed's small inventory has the same ones
          const inline = podMix(held ?? generateInventory({ nodes, pods: 20000, seed: 42 })).filter((c) => c.body.pod);
          const o = await runOpenLoop({
            url: service.url,
            path: '/v1/decisions/feasible-nodes',
            body: (n) => distinctPodBody(inline[n % inline.length].body, `first-${b}-${n}`),
            ratePerSec: 1000,
            durationSec: openLoopFirst,
          });
          log(`${label}: open loop first, ${openLoopFirst} s: p99 ${o.latencyMs.p99.toFixed(1)} ms, ${o.ok} ok`);
          await settle(service.url);
          if (argv.includes('--gc-after-open-loop')) {
            const h = await http(service.url, 'POST', '/ops/heap');
            log(`${label}: forced full collection after it: ${JSON.stringify(h.body).slice(0, 300)}`);
          }
        }
        const windowStart = Date.now();
        const cpu0 = service.cpuSeconds();
        const own: number[] = [];
        const observer = new PerformanceObserver((list) => {
          for (const e of list.getEntries()) own.push(e.duration);
        });
        observer.observe({ entryTypes: ['gc'] });
        const rows: Array<{ start: number; ms: number; bytes: number }> = [];
        if (client === 'autocannon') {
          const r = await runLoad({
            url: service.url,
            requests: [{ method: 'POST', path: '/v1/decisions/taint-impact', body }],
            connections: 1,
            durationSec: 20,
            warmupSec: 5,
            keepSamples: true,
          });
          // autocannon reports no send instants: every answer is set against the whole window's pauses
          rows.push(...r.samples!.map((ms) => ({ start: NaN, ms, bytes: r.bytesPerResponse })));
        } else
          for (let i = 0; i < requests; i++) {
            const start = Date.now();
            const r = await post(service.url, '/v1/decisions/taint-impact', body);
            if (r.status !== 200) throw new Error(`answered ${r.status}`);
            rows.push({ start, ms: r.ms, bytes: r.bytes });
          }
        const cpuMs = ((service.cpuSeconds() - cpu0) * 1000) / rows.length;
        observer.disconnect();
        const g = await http(service.url, 'GET', `/ops/gc-pauses?since=${windowStart}`);
        const pauses: Pause[] = g.status === 200 ? g.body.pauses : [];
        const lat = summarize(rows.map((r) => r.ms));
        all.set(label, [...(all.get(label) ?? []), ...rows.map((r) => r.ms)]);
        // a pause belongs to the answer whose [start, start + ms] holds its start (`at`)
        const slow = [...rows].sort((x, y) => y.ms - x.ms).slice(0, 5);
        const within = (r: (typeof rows)[number]) =>
          pauses
            .filter((p) => p.at >= r.start - 1 && p.at <= r.start + r.ms)
            .map((p) => `${p.kind} ${p.ms.toFixed(1)}`);
        const kinds = new Map<string, { n: number; total: number; max: number }>();
        for (const p of pauses) {
          const k = kinds.get(p.kind) ?? { n: 0, total: 0, max: 0 };
          k.n++;
          k.total += p.ms;
          k.max = Math.max(k.max, p.ms);
          kinds.set(p.kind, k);
        }
        log(
          `${label} batch ${b}: n ${rows.length}; ready ${Math.round(readyMs)} ms; p50 ${lat.p50.toFixed(1)} p90 ${lat.p90.toFixed(1)} p99 ${lat.p99.toFixed(1)} max ${lat.max.toFixed(1)} ms; CPU ${cpuMs.toFixed(1)} ms/answer; ${rows[0].bytes} bytes; load ${loadAvg()}`,
        );
        log(
          `  this client's GC: ${own.length} pauses, ${own.reduce((x, y) => x + y, 0).toFixed(0)} ms, longest ${Math.max(0, ...own).toFixed(1)} ms, over 50 ms: ${own.filter((x) => x > 50).length}; service GC: ${[...kinds].map(([k, v]) => `${k} ${v.n}× total ${v.total.toFixed(0)} max ${v.max.toFixed(1)} ms`).join('; ')}`,
        );
        for (const r of slow) log(`  slow ${r.ms.toFixed(1)} ms: ${within(r).join(', ') || 'no pause'}`);
      }
      await service.stop();
    }
  }
  if (held) log(`(this process held ${held.items.length} generated objects)`);
  for (const [label, ms] of all) {
    const s = summarize(ms);
    log(
      `${label} all: n ${ms.length} p50 ${s.p50.toFixed(1)} p90 ${s.p90.toFixed(1)} p99 ${s.p99.toFixed(1)} max ${s.max.toFixed(1)} ms`,
    );
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
void REPO_ROOT;
