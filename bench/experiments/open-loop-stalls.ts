/**
 * What stops the event loop during the open loop (issue 16, target 1), in the service AND in the loader.
 * The compiled service on an embedded inventory kept between runs (--data; imported the first time),
 * both processes under bench/experiments/stall-probe.cjs (every loop stall over 20 ms with its start on
 * the monotonic clock), the service under --cpu-prof; then the open loop (bench/lib/open-loop.ts) and,
 * per stall of the service, the functions the profile sampled while the loop was stopped.
 *   node -r @swc-node/register bench/experiments/open-loop-stalls.ts --nodes 5000 --pods 150000 \
 *     --data /tmp/tw-inv-5000 --rate 1000 --warm 20 --duration 60 [--entry dist/main.js] [--hold-inventory] [--child]
 * --hold-inventory keeps the generated inventory (objects and import chunks) alive in the loader during the run, as
 * bench/run.ts did until 2026-11-27; without it the loader holds nothing but its own requests. --child: the
 * profiled loop's loader runs in a process of its own (bench/lib/open-loop-process.ts), as bench/run.ts runs it.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOpenLoop } from '../lib/open-loop';
import { runOpenLoopInChild } from '../lib/open-loop-process';
import { http } from '../lib/http';
import { REPO_ROOT, Service, compileService } from '../lib/service';
import { collectOwnGarbage } from '../lib/own-heap';
import { chunkList, generateInventory } from '../generate-inventory';
import { distinctPodBody, podMix } from '../scenarios';

const argv = process.argv.slice(2);
const arg = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const num = (name: string, fallback: number) => Number(arg(name) ?? fallback);
const log = (msg: string) => process.stdout.write(`[stalls ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

interface Stall {
  pid: number;
  start: number;
  ms: number;
  at: number;
}

async function main() {
  const nodes = num('nodes', 1000);
  const pods = num('pods', 30000);
  const data = arg('data') ?? `/tmp/tw-inv-${nodes}-${pods}`;
  const rate = num('rate', 1000);
  const duration = num('duration', 30);
  const warm = num('warm', 10);
  const out = arg('out') ?? `/tmp/tw-stalls-${Date.now()}`;
  mkdirSync(out, { recursive: true });
  const entry = arg('entry') ?? compileService(REPO_ROOT).entry;
  log(`service entry ${entry}; output in ${out}`);

  const env = { DATA_DIR: data, BENCH_OPS_ROUTES: 'true' };
  const { cases, held } = await prepareInventory(nodes, pods, data, entry, env, argv.includes('--hold-inventory'));
  await collectOwnGarbage();

  const probe = join(REPO_ROOT, 'bench', 'experiments', 'stall-probe.cjs');
  const serviceStalls = join(out, 'service-stalls.jsonl');
  const loaderStalls = join(out, 'loader-stalls.jsonl');
  process.env.STALL_PROBE_FILE = loaderStalls;
  await import(probe);
  const { service, readyMs } = await Service.start({
    entry,
    env: { ...env, STALL_PROBE_FILE: serviceStalls },
    logLevel: 'warn',
    nodeArgs: ['--expose-gc', '--require', probe, '--cpu-prof', '--cpu-prof-dir', out],
  });
  log(`service ready in ${Math.round(readyMs)} ms (pid ${service.pid})`);

  const inline = cases.filter((c) => c.body.pod);
  let n = 0;
  const body = () => distinctPodBody(inline[n % inline.length].body, `stall-${process.pid}-${n++}`);
  const url = service.url;
  const path = '/v1/decisions/feasible-nodes';
  if (warm > 0) await runOpenLoop({ url, path, body, ratePerSec: rate, durationSec: warm });
  // --rounds k: the loader in this process (holding the inventory) and in a process of its own,
  // alternated k times on the same service, so the machine's load weighs on both alike.
  const rounds = num('rounds', 0);
  for (let round = 0; round < rounds; round++)
    for (const where of round % 2 === 0 ? ['inline', 'child'] : ['child', 'inline']) {
      const c0 = service.cpuSeconds();
      const x =
        where === 'inline'
          ? await runOpenLoop({ url, path, body, ratePerSec: rate, durationSec: duration })
          : await runOpenLoopInChild({
              url,
              path,
              bodies: inline.map((c) => c.body),
              tag: `stall-${round}`,
              ratePerSec: rate,
              durationSec: duration,
            });
      const g = await http(url, 'GET', `/ops/gc-pauses?since=${x.windowStart}`);
      const ps: Array<{ ms: number; at: number }> = g.status === 200 ? g.body.pauses : [];
      const lx = x.latencyMs;
      log(
        `round ${round} loader ${where.padEnd(6)}: p50 ${lx.p50.toFixed(1)} p99 ${lx.p99.toFixed(1)} p99.9 ${lx.p999.toFixed(1)} max ${lx.max.toFixed(1)} ms; send lag p99 ${x.sendLagMs.p99.toFixed(1)} max ${x.sendLagMs.max.toFixed(1)}; peak in flight ${x.peakInFlight}; loader GC ${x.loaderGc.count} pauses, longest ${x.loaderGc.longestMs.toFixed(1)} ms, major ${x.loaderGc.majorCount} (longest ${x.loaderGc.majorLongestMs.toFixed(1)} ms); ok ${x.ok} err ${x.errors}; service GC longest ${Math.max(0, ...ps.filter((p) => p.at <= x.windowEnd).map((p) => p.ms)).toFixed(1)} ms; CPU ${(((service.cpuSeconds() - c0) * 1000) / x.ok).toFixed(3)} ms/req; load ${loadAvg()}`,
      );
    }
  const cpu0 = service.cpuSeconds();
  // --child: the profiled loop from a loader in its own process, as bench/run.ts runs it.
  const r = argv.includes('--child')
    ? await runOpenLoopInChild({
        url,
        path,
        bodies: inline.map((c) => c.body),
        tag: 'stall-profiled',
        ratePerSec: rate,
        durationSec: duration,
      })
    : await runOpenLoop({ url, path, body, ratePerSec: rate, durationSec: duration });
  const cpuMs = ((service.cpuSeconds() - cpu0) * 1000) / r.ok;
  const gc = await http(service.url, 'GET', `/ops/gc-pauses?since=${r.windowStart}`);
  await service.stop();
  if (held) log(`(the loader held ${held.inv.items.length} objects and ${held.chunks.length} chunks)`);

  const l = r.latencyMs;
  log(
    `open loop ${rate}/s × ${duration} s: p50 ${l.p50.toFixed(1)} p99 ${l.p99.toFixed(1)} p99.9 ${l.p999.toFixed(1)} max ${l.max.toFixed(1)} ms; ok ${r.ok}, errors ${r.errors}; send lag p99 ${r.sendLagMs.p99.toFixed(1)} max ${r.sendLagMs.max.toFixed(1)} ms; peak in flight ${r.peakInFlight}; service CPU ${cpuMs.toFixed(3)} ms/request; load ${loadAvg()}`,
  );
  const pauses: Array<{ at: number; ms: number; kind: string }> = gc.status === 200 ? gc.body.pauses : [];
  const inside = pauses.filter((p) => p.at <= r.windowEnd);
  log(
    `service GC in the window: ${inside.length} pauses, longest ${Math.max(0, ...inside.map((p) => p.ms)).toFixed(1)} ms, over 20 ms: ${inside.filter((p) => p.ms > 20).length}`,
  );
  const read = (f: string): Stall[] =>
    existsSync(f)
      ? readFileSync(f, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((x) => JSON.parse(x))
      : [];
  const within = (s: Stall) => s.at >= r.windowStart && s.at <= r.windowEnd;
  const loader = read(loaderStalls).filter(within);
  const svc = read(serviceStalls).filter(within);
  log(
    `loader stalls > 20 ms in the window: ${loader.length}, ${loader
      .map((s) => s.ms.toFixed(0))
      .slice(0, 30)
      .join(' ')}`,
  );
  log(`service stalls > 20 ms in the window: ${svc.length}`);
  const slowest = svc.filter((s) => s.at <= r.maxAt + l.max && s.at + s.ms >= r.maxAt);
  log(
    `the slowest request was scheduled at ${new Date(r.maxAt).toISOString().slice(11, 23)}; service stalls while it waited: ${slowest.map((s) => `${new Date(s.at).toISOString().slice(11, 23)} ${s.ms.toFixed(0)} ms`).join(', ') || 'none'}`,
  );
  const profileFile = readdirSync(out).find((f) => f.endsWith('.cpuprofile'));
  const profile = profileFile ? JSON.parse(readFileSync(join(out, profileFile), 'utf8')) : undefined;
  for (const s of [...svc].sort((a, b) => b.ms - a.ms).slice(0, 12)) {
    const gcIn = inside.filter((p) => p.at + p.ms >= s.at && p.at <= s.at + s.ms);
    log(
      `  ${new Date(s.at).toISOString().slice(11, 23)} stalled ${s.ms.toFixed(0)} ms; GC inside ${gcIn.map((p) => `${p.kind} ${p.ms.toFixed(0)}`).join(', ') || 'none'}`,
    );
    if (profile) for (const line of topInWindow(profile, s.start, s.start + s.ms * 1000)) log(`      ${line}`);
  }
}

/**
 * Imports the inventory into `data` the first time; returns its pod mix and, with `hold`, the objects and their
 * import chunks. Without `hold` nothing keeps them once this returns: an idle process holding ~340 MB of objects
 * ran major collections on 1.5 cores for ~0.4 s a second after a busy phase, and the service had one core left.
 */
async function prepareInventory(
  nodes: number,
  pods: number,
  data: string,
  entry: string,
  env: Record<string, string>,
  hold: boolean,
) {
  const inv = generateInventory({ nodes, pods, seed: 42 });
  let chunks: string[] | undefined;
  if (!existsSync(join(data, '.imported'))) {
    rmSync(data, { recursive: true, force: true });
    mkdirSync(data, { recursive: true });
    chunks = chunkList(inv.items, 10_000).map((c) => JSON.stringify(c));
    const { service } = await Service.start({ entry, env, logLevel: 'warn' });
    for (const chunk of chunks) {
      const r = await http(service.url, 'POST', '/v1/import', chunk);
      if (r.status >= 300) throw new Error(`import answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
    await service.stop();
    writeFileSync(join(data, '.imported'), '');
    log(`imported ${inv.nodeCount} nodes, ${inv.podCount} pods into ${data}`);
  }
  const held = hold ? { inv, chunks: chunks ?? chunkList(inv.items, 10_000).map((c) => JSON.stringify(c)) } : undefined;
  return { cases: podMix(inv), held };
}

/** The functions sampled between two instants (µs, monotonic): self time, and the src/ frame under each. */
function topInWindow(profile: any, fromUs: number, toUs: number): string[] {
  const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const counts = new Map<string, number>();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < fromUs || t > toUs) continue;
    total++;
    const leaf = byId.get(profile.samples[i]);
    let own: any = undefined;
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id).callFrame;
      if (f.url.includes('/dist/') && !f.url.includes('node_modules')) {
        own = f;
        break;
      }
    }
    const name = `${leaf.callFrame.functionName || '(anon)'} ${short(leaf.callFrame.url)}  ← ${own ? `${own.functionName || '(anon)'} ${short(own.url)}:${own.lineNumber + 1}` : '-'}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([k, v]) => `${((100 * v) / Math.max(1, total)).toFixed(0)}% ${k}`);
}

const short = (url: string) => url.replace(/^.*\/(node_modules\/|dist\/)/, '$1');
const loadAvg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join('/');

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
