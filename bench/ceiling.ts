/**
 * The ceiling: the same feasible-nodes computation in-process, without HTTP, Nest or JSON parsing of
 * the request. The generated inventory goes through the importer's mapping (mapManifests) into an
 * InventorySnapshot, then decideFeasibleNodes runs over its 5,000 scheduling nodes.
 */
import { decideFeasibleNodes, FeasibleNodesScratch } from '../src/domain/scheduling/feasible-nodes';
import type { PodSpec } from '../src/domain/types';
import { mapManifests } from '../src/inventory/import';
import type { StoredNode, StoredPod } from '../src/kernel/model/stored-objects';
import type { StoredBudget } from '../src/kernel/model/stored-budget';
import { requestsVector } from '../src/kernel/model/pod-requests-vector';
import { InventorySnapshot } from '../src/kernel/snapshot/inventory-snapshot';
import type { GeneratedInventory } from './generate-inventory';
import { FEASIBLE_LIMIT, type PodCase } from './scenarios';

export interface CeilingResult {
  mapMs: number;
  loadMs: number;
  nodes: number;
  activePods: number;
  durationSec: number;
  ops: number;
  opsPerSec: number;
  /** Including JSON.stringify of the answer (what the service must also do). */
  opsPerSecWithJson: number;
  /** Decisions per CPU-second of this thread: independent of how loaded the machine is. */
  opsPerCpuSec: number;
  cpuMsPerOp: number;
  perCaseMicros: Array<{ name: string; micros: number; feasible: number; total: number }>;
  heapUsedMiB: number;
}

/** The generated List through the importer's mapping, as the repositories would return it. */
export function buildStoredInventory(
  inv: GeneratedInventory,
  now = new Date(),
): { nodes: StoredNode[]; pods: StoredPod[]; budgets: StoredBudget[] } {
  const mapped = mapManifests([{ apiVersion: 'v1', kind: 'List', items: inv.items }], now);
  if (mapped.errors.length)
    throw new Error(
      `the importer refused ${mapped.errors.length} generated objects, first: ${JSON.stringify(mapped.errors[0])}`,
    );
  const nodes: StoredNode[] = mapped.nodes.map((n) => ({ ...n, resourceVersion: '1', createdAt: now, updatedAt: now }));
  const pods: StoredPod[] = mapped.pods.map((p) => ({
    ...p,
    uid: p.uid ?? '',
    requests: requestsVector(p.resources),
    resourceVersion: '1',
    createdAt: now,
    updatedAt: now,
  }));
  const budgets: StoredBudget[] = mapped.budgets.map((b) => ({
    ...b,
    uid: b.uid ?? '',
    generation: 1,
    resourceVersion: '1',
    createdAt: now,
    updatedAt: now,
  }));
  return { nodes, pods, budgets };
}

export function buildSnapshot(inv: GeneratedInventory): { snapshot: InventorySnapshot; mapMs: number; loadMs: number } {
  let t = performance.now();
  const { nodes, pods } = buildStoredInventory(inv);
  const mapMs = performance.now() - t;
  t = performance.now();
  const snapshot = new InventorySnapshot();
  snapshot.load(nodes, pods);
  snapshot.schedulingNodes();
  return { snapshot, mapMs, loadMs: performance.now() - t };
}

function specOf(snapshot: InventorySnapshot, c: PodCase): { spec: PodSpec; requests?: Record<string, number> } {
  if (c.body.pod) return { spec: c.body.pod as PodSpec };
  const stored = snapshot.pod(c.body.podRef.namespace, c.body.podRef.name);
  if (!stored) throw new Error(`podRef ${c.body.podRef.namespace}/${c.body.podRef.name} is not in the snapshot`);
  return {
    spec: {
      tolerations: stored.tolerations,
      nodeSelector: stored.nodeSelector,
      affinity: stored.affinity,
      priority: stored.priority,
      owner: stored.owner,
    },
    requests: stored.requests,
  };
}

export function measureCeiling(inv: GeneratedInventory, cases: PodCase[], durationSec: number): CeilingResult {
  const { snapshot, mapMs, loadMs } = buildSnapshot(inv);
  const nodes = snapshot.schedulingNodes();
  const pods = cases.map((c) => specOf(snapshot, c));
  // Warm-up (JIT), then per-case cost, then the mix round-robin as autocannon sends it.
  const scratch = new FeasibleNodesScratch();
  for (let i = 0; i < 200; i++) decideFeasibleNodes(pods[i % pods.length], nodes, { limit: FEASIBLE_LIMIT, scratch });
  const perCaseMicros = cases.map((c, i) => {
    const n = 50;
    const t = performance.now();
    let d;
    for (let k = 0; k < n; k++) d = decideFeasibleNodes(pods[i], nodes, { limit: FEASIBLE_LIMIT, scratch });
    return {
      name: c.name,
      micros: Math.round(((performance.now() - t) / n) * 1000),
      feasible: d!.feasibleCount,
      total: d!.totalNodes,
    };
  });
  const run = (withJson: boolean) => {
    const end = performance.now() + (durationSec * 1000) / 2;
    let ops = 0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    while (performance.now() < end) {
      for (let k = 0; k < pods.length; k++) {
        const d = decideFeasibleNodes(pods[k], nodes, { limit: FEASIBLE_LIMIT, scratch });
        if (withJson) JSON.stringify(d);
      }
      ops += pods.length;
    }
    const used = process.cpuUsage(cpu);
    return { ops, sec: (performance.now() - started) / 1000, cpuSec: (used.user + used.system) / 1e6 };
  };
  const plain = run(false);
  const json = run(true);
  return {
    mapMs: Math.round(mapMs),
    loadMs: Math.round(loadMs),
    nodes: nodes.length,
    activePods: snapshot.podCount,
    durationSec,
    ops: plain.ops,
    opsPerSec: plain.ops / plain.sec,
    opsPerCpuSec: plain.ops / plain.cpuSec,
    cpuMsPerOp: (plain.cpuSec * 1000) / plain.ops,
    opsPerSecWithJson: json.ops / json.sec,
    perCaseMicros,
    heapUsedMiB: Math.round(process.memoryUsage().heapUsed / 1048576),
  };
}
