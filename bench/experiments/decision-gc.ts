/**
 * What a stream of distinct feasible-nodes questions costs the collector, in-process (no HTTP, no
 * load generator: figures that do not depend on how busy the machine is): the service over a
 * bench-sized snapshot, `--requests` distinct bodies (the bench's inline pods, one more toleration
 * each) through FeasibleNodesService.feasibleNodesJson, then the GC pauses by kind (perf_hooks), CPU per
 * request, and the
 * live heap after a forced full collection with its duration.
 *   node --expose-gc --max-old-space-size=1024 --max-semi-space-size=64 -r @swc-node/register \
 *     bench/experiments/decision-gc.ts --nodes 5000 --pods 150000 --requests 20000
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { applyAdmissionDefaults } from '../../src/domain/admission/apply-admission-defaults';
import type { Principal } from '../../src/kernel/auth/roles';
import type { AppConfig } from '../../src/kernel/config/config.schema';
import { Metrics } from '../../src/kernel/observability/metrics';
import type { SnapshotService } from '../../src/kernel/snapshot/snapshot.service';
import type { PodService } from '../../src/inventory/pod.service';
import { FeasibleNodesService } from '../../src/decisions/feasible-nodes.service';
import { buildSnapshot } from '../ceiling';
import { generateInventory } from '../generate-inventory';
import { distinctPodBody, podMix } from '../scenarios';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const inv = generateInventory({ nodes: arg('nodes', 1000), pods: arg('pods', 30000), seed: 42, drainSeconds: 30 });
const { snapshot } = buildSnapshot(inv);
const cases = podMix(inv).filter((c) => c.body.pod);
const pods = {
  admit: (spec: any) => applyAdmissionDefaults(spec),
  get: () => Promise.reject(new Error('not in the snapshot')),
} as unknown as PodService;
const config = { COMPARISON_OPERATORS: true, REDACT_TAINTS: false, REDACT_TAINTS_BELOW_ROLE: 'viewer' } as AppConfig;
const service = new FeasibleNodesService({ snapshot } as SnapshotService, pods, config, new Metrics());
const who: Principal = { name: 'bench', role: 'admin', anonymous: false };
(inv as any).items = undefined;
// --no-cache: what the caches cost (an experiment: the answers are never remembered).
if (process.argv.includes('--no-cache'))
  for (const c of ['decisionCache', 'questions']) (service as any)[c].set = () => undefined;

const kinds: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};
const pauses: Array<{ kind: string; ms: number }> = [];
let recording = false;
new PerformanceObserver((list) => {
  if (recording)
    for (const e of list.getEntries()) pauses.push({ kind: kinds[(e as any).detail?.kind] ?? 'other', ms: e.duration });
}).observe({ entryTypes: ['gc'] });

async function main() {
  const requests = arg('requests', 10000);
  // Warm-up: JIT, caches sized.
  for (let n = 0; n < 500; n++)
    await service.feasibleNodesJson(JSON.parse(distinctPodBody(cases[n % cases.length].body, `warm-${n}`)), who);
  gc!();
  const heapBefore = getHeapStatistics().used_heap_size;
  recording = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let n = 0; n < requests; n++) {
    // As Fastify hands it over: a freshly parsed body.
    await service.feasibleNodesJson(JSON.parse(distinctPodBody(cases[n % cases.length].body, n)), who);
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await new Promise((r) => setTimeout(r, 50));
  recording = false;
  const g0 = performance.now();
  gc!();
  const fullGcMs = performance.now() - g0;
  const byKind: Record<string, { count: number; totalMs: number; maxMs: number }> = {};
  for (const p of pauses) {
    const k = (byKind[p.kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
    k.count++;
    k.totalMs = Math.round((k.totalMs + p.ms) * 10) / 10;
    k.maxMs = Math.round(Math.max(k.maxMs, p.ms) * 10) / 10;
  }
  const mib = (b: number) => Math.round(b / 2 ** 20);
  console.log(
    JSON.stringify({
      nodes: snapshot.nodeCount,
      pods: snapshot.podCount,
      requests,
      cpuMsPerRequest: Math.round(((cpu.user + cpu.system) / 1000 / requests) * 1000) / 1000,
      wallMsPerRequest: Math.round((wallMs / requests) * 1000) / 1000,
      gc: byKind,
      over20ms: pauses.filter((p) => p.ms > 20).length,
      heapBeforeMiB: mib(heapBefore),
      heapAfterFullGcMiB: mib(getHeapStatistics().used_heap_size),
      fullGcMs: Math.round(fullGcMs),
    }),
  );
}
void main();
