/**
 * The same compiled service under different node flags, alternated round after round on a kept embedded
 * inventory (open-loop-stalls.ts --data imports one), so whatever the machine does weighs on each alike.
 * Per variant and round: the open loop (distinct feasible-nodes questions at --rate for --duration s,
 * latency from the scheduled send), the closed loop (every request distinct, c=16, as the bench's
 * distinct-pod line), the service's CPU per request in each, and a forced full collection (POST /ops/heap).
 *   node -r @swc-node/register bench/experiments/node-args-ab.ts --data /tmp/tw-inv-5000 \
 *     --variants "default=;pool1=--v8-pool-size=1" [--rounds 3] [--rate 1000] [--duration 30] [--warm 10] \
 *     [--closed-first] [--hold-inventory] [--loader-child] [--closed-child]
 * A variant is `name=flags` (flags space-separated, may be empty); variants are separated by `;`. A flag `@<path>`
 * runs that compiled entry instead of this tree's dist/main.js (e.g. `before=@/tmp/before/dist/main.js;after=`);
 * a flag `%KEY=VALUE` sets the service's environment, e.g. the other storage mode on a copy of the same inventory:
 * `embedded=;postgres=%DATABASE_URL=postgres://postgres@127.0.0.1:5432/tw_reads %REDIS_URL=redis://127.0.0.1:6379/6`
 * (DATA_DIR is ignored when DATABASE_URL is set).
 * `--drain-nodes N [--drain-every S]`: before the open loop, the drain taint (scenarios.ts DRAIN_SPEC) on N `batch-b`
 * nodes, one every S s (default 2); their pods tolerate it for 30 s, so N sweeps of ~100 evictions each fall due
 * 30 s after each taint: inside the measured window when the tainting plus --warm is under 30 s and the window
 * reaches past the last one (e.g. 10 nodes every 2 s, --warm 10, --duration 40). `--copy`: every service runs on a
 * fresh copy of --data, removed afterwards, so each round starts from the same rows.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { chunkList, generateInventory } from '../generate-inventory';
import { http } from '../lib/http';
import { runLoad, type LoadRequest } from '../lib/load';
import { load as loadAverage } from '../lib/machine';
import { runOpenLoop } from '../lib/open-loop';
import { REPO_ROOT, Service, sleep } from '../lib/service';
import { collectOwnGarbage } from '../lib/own-heap';
import { DRAIN_SPEC, distinctPodBody, podMix } from '../scenarios';
import { runOpenLoopInChild } from '../lib/open-loop-process';
import { runLoadInChild } from '../lib/load-process';
import { ForeignCpuSampler, type ForeignProcessCpu } from '../lib/foreign-cpu';

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const num = (name: string, fallback: number) => Number(arg(name) ?? fallback);
const log = (msg: string) => process.stdout.write(`[node-args ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

async function main() {
  const data = arg('data');
  if (!data) throw new Error('--data <an imported embedded data directory> is required');
  const variants = (arg('variants') ?? 'default=;pool1=--v8-pool-size=1').split(';').map((v) => {
    const [name, flags = ''] = v.split(/=(.*)/s);
    return { name, flags: flags.split(' ').filter(Boolean) };
  });
  const rounds = num('rounds', 3);
  const rate = num('rate', 1000);
  const duration = num('duration', 30);
  const warm = num('warm', 10);
  const closedFirst = argv.includes('--closed-first');
  const closedChild = argv.includes('--closed-child');
  // --loader-child: the open loop in a process of its own that holds nothing else (open-loop-process.ts)
  const inChild = argv.includes('--loader-child');
  // The generated inventory is made in a function of its own, so that only the pod mix outlives it: a suspended
  // async function keeps every local alive, and this process holding 150,000 pods made its own major collections
  // (~1 s of a core) land in the middle of the loops it measures.
  const drainNodes = num('drain-nodes', 0);
  const drainEvery = num('drain-every', 2);
  const copy = argv.includes('--copy');
  const { inline, held, drainable } = podMixOf(
    num('nodes', 5000),
    num('pods', 150000),
    argv.includes('--hold-inventory'),
  );
  await collectOwnGarbage();
  const path = '/v1/decisions/feasible-nodes';

  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) {
      // a flag `@<path>` names another compiled entry (a tree built from an earlier commit); the rest are node flags
      const entry = variant.flags.find((f) => f.startsWith('@'))?.slice(1) ?? `${REPO_ROOT}/dist/main.js`;
      const env = Object.fromEntries(
        variant.flags.filter((f) => f.startsWith('%')).map((f) => f.slice(1).split(/=(.*)/s).slice(0, 2)),
      );
      const dataDir = copy ? `${data}-ab-copy` : data;
      if (copy) {
        rmSync(dataDir, { recursive: true, force: true });
        execFileSync('cp', ['-a', data, dataDir]);
      }
      const { service } = await Service.start({
        entry,
        env: { DATA_DIR: dataDir, BENCH_OPS_ROUTES: 'true', ...env },
        nodeArgs: ['--expose-gc', ...variant.flags.filter((f) => !f.startsWith('@') && !f.startsWith('%'))],
      });
      try {
        let n = 0;
        const body = () => distinctPodBody(inline[n % inline.length].body, `ab-${round}-${variant.name}-${n++}`);
        const requests: LoadRequest[] = inline.map((c) => ({
          method: 'POST',
          path,
          distinctBody: (k) => distinctPodBody(c.body, `closed-${round}-${variant.name}-${k}`),
        }));
        // --closed-child: the closed loop in a process of its own (lib/load-process.ts), as bench/run.ts runs it
        const closedLoop = () =>
          closedChild
            ? runLoadInChild(
                {
                  url: service.url,
                  requests: inline.map((c) => ({ method: 'POST', path, distinctFrom: c.body })),
                  tag: `closed-${round}-${variant.name}`,
                  connections: 16,
                  durationSec: Math.min(duration, 20),
                  warmupSec: 3,
                },
                () => service.cpuSeconds(),
              )
            : runLoad({
                url: service.url,
                requests,
                connections: 16,
                durationSec: Math.min(duration, 20),
                warmupSec: 3,
                serverCpu: () => service.cpuSeconds(),
              });
        // --closed-first: the open loop after the closed loop, as in the bench (which runs it after its read loads)
        const closedBefore = closedFirst ? await closedLoop() : undefined;
        for (const name of drainable.slice(0, drainNodes)) {
          const tainted = await http(service.url, 'POST', '/v1/taints', { nodes: [name], taints: [DRAIN_SPEC] });
          if (tainted.status !== 200)
            throw new Error(`drain taint answered ${tainted.status}: ${tainted.text.slice(0, 200)}`);
          await sleep(drainEvery * 1000);
        }
        // CPU per request over the measured window (from the moment the warm-up ends), and the machine's
        // other processes' CPU over the same window (lib/foreign-cpu.ts)
        let cpu0 = 0;
        let others: ForeignCpuSampler | undefined;
        const windowStarts = () => {
          cpu0 = service.cpuSeconds();
          others = new ForeignCpuSampler();
        };
        const open = inChild
          ? await runOpenLoopInChild(
              {
                url: service.url,
                path,
                bodies: inline.map((c) => c.body),
                tag: `ab-${round}-${variant.name}`,
                ratePerSec: rate,
                durationSec: duration,
                warmSec: warm,
              },
              windowStarts,
            )
          : await runOpenLoop({ url: service.url, path, body, ratePerSec: rate, durationSec: warm }).then(() => {
              windowStarts();
              return runOpenLoop({ url: service.url, path, body, ratePerSec: rate, durationSec: duration });
            });
        const openCpu = ((service.cpuSeconds() - cpu0) * 1000) / open.ok;
        const foreign = others!.stop();
        const aroundMax = others!.during(open.maxAt - 300, open.maxAt + open.latencyMs.max);
        const names = (top: ForeignProcessCpu[]) => top.map((p) => `${p.name} ${p.ms}`).join(', ');
        const closed = closedBefore ?? (await closedLoop());
        // the service's GC pauses inside the open loop's window, as bench/run.ts reports them
        const gcs = await http(service.url, 'GET', `/ops/gc-pauses?since=${open.windowStart}`);
        const inside: Array<{ ms: number; kind: string; reasons?: string[] }> =
          gcs.status === 200 ? gcs.body.pauses.filter((p: { at: number }) => p.at <= open.windowEnd) : [];
        const majors = inside.filter((p) => p.kind === 'major');
        const gcLine =
          `GC in the window: ${inside.length} pauses, longest ${Math.max(0, ...inside.map((p) => p.ms)).toFixed(1)} ms, ` +
          `${inside.filter((p) => p.ms > 20).length} over 20 ms, ${majors.length} major ` +
          `(${majors.map((p) => `${p.ms.toFixed(1)}${p.reasons ? ` ${p.reasons.join('+')}` : ''}`).join(', ')})`;
        const heap = await http(service.url, 'POST', '/ops/heap');
        const l = open.latencyMs;
        log(
          `round ${round} ${variant.name.padEnd(10)} open ${rate}/s: p50 ${l.p50.toFixed(1)} p99 ${l.p99.toFixed(1)} ` +
            `max ${l.max.toFixed(1)} ms, ${openCpu.toFixed(3)} ms CPU/req, send lag max ${open.sendLagMs.max.toFixed(1)}, ` +
            `peak in flight ${open.peakInFlight}; ` +
            `closed c=16: ${Math.round(closed.rps)} req/s, ${closed.serverCpuMsPerRequest?.toFixed(3)} ms CPU/req; ` +
            `forced GC ${heap.body.gcMs?.toFixed(1)} ms; ${gcLine}; max at ${new Date(open.maxAt).toISOString().slice(11, 23)}, ` +
            `other processes ${foreign.totalMs} ms in the window (${names(foreign.top)}), ` +
            `${aroundMax.ms} ms around the max (${names(aroundMax.top)}); load ${loadAverage()
              .map((x) => x.toFixed(2))
              .join(' ')}`,
        );
      } finally {
        await service.stop();
        if (copy) rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  if (held) log(`(the loader's process held ${held.inv.items.length} objects and ${held.chunks.length} import chunks)`);
}

/**
 * The inline pods of the bench's mix. `hold` (--hold-inventory): this process (the loader) keeps the generated
 * inventory and its import chunks alive, as bench/run.ts did until 2026-11-27; without it it holds only its requests.
 */
function podMixOf(nodes: number, pods: number, hold: boolean) {
  const inv = generateInventory({ nodes, pods, seed: 42 });
  const inline = podMix(inv).filter((c) => c.body.pod);
  const held = hold ? { inv, chunks: chunkList(inv.items, 10_000).map((c) => JSON.stringify(c)) } : undefined;
  return { inline, held, drainable: [...(inv.pools['batch-b'] ?? [])] };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
