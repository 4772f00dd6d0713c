import {
  deadlineMs,
  earliestDeadline,
  noExecuteTolerance,
  type NoExecuteTolerance,
} from '../domain/eviction/decide-eviction';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { Taint, Toleration } from '../domain/types';
import type { PodColumns } from '../kernel/snapshot/pod-store';
import type { ImpactCounts, TaintImpactSummary } from './taint-impact-summary';

/** A target node of the what-if: its bound pods' slots and the taints the change would leave on it. */
export interface CountedNode {
  name: string;
  slots: Iterable<number>;
  taints: readonly Taint[];
}

/** Counts with the instants as epoch ms (no Date per pod); NaN until an eviction is counted. */
interface Tally {
  evictNow: number;
  evictAfter: number;
  tolerating: number;
  earliest: number;
  latest: number;
}

const NOW = 1;
const AFTER = 2;

/**
 * taint-impact's summary counted straight from the snapshot's pod columns: the same A.3 rule and the
 * same groups as `summarizeTaintImpact` over `partitionTaintImpact`'s rows (taint-impact-counts.spec.ts
 * compares the two on a generated inventory), without what only the lists need — a view, a decision
 * and a Date per pod, and each node's pods sorted by name. Those were ~40 ms of a summary over the
 * bench's 500-node pool (~14,000 pods); a count needs none of them.
 */
export function countTaintImpact(
  pods: PodColumns,
  nodes: readonly CountedNode[],
  at: Date,
  options: MatchOptions,
): { total: ImpactCounts } & Pick<TaintImpactSummary, 'byNode' | 'byWorkload'> {
  const atMs = at.getTime();
  const total = tally();
  const byNode: Array<{ name: string; tally: Tally }> = [];
  // namespace id → owner id (a number) or, for a pod without a controller, its name (kind `Pod`)
  const byNamespace: Array<Map<number | string, WorkloadTally>> = [];
  const workloads: WorkloadTally[] = [];
  const workloadOf = (slot: number): Tally => {
    const ns = pods.namespaceId(slot);
    const ownerId = pods.ownerId(slot);
    const owner = ownerId < 0 ? null : pods.ownerById(ownerId);
    // an owner of kind Pod names the same workload as a bare pod of that name (summarizeTaintImpact's key)
    const key = owner === null ? pods.name(slot) : owner.kind === 'Pod' ? owner.name : ownerId;
    const inNamespace = (byNamespace[ns] ??= new Map());
    let workload = inNamespace.get(key);
    if (workload === undefined) {
      const kind = owner?.kind ?? 'Pod';
      const name = owner?.name ?? pods.name(slot);
      inNamespace.set(key, (workload = { namespace: pods.namespaceName(ns), kind, name, tally: tally() }));
      workloads.push(workload);
    }
    return workload.tally;
  };
  // One toleration analysis per distinct (tolerations, taints) pair, as partitionTaintImpact memoises.
  const memo = new Map<readonly Taint[], Map<readonly Toleration[], NoExecuteTolerance>>();
  for (const node of nodes) {
    let byTolerations = memo.get(node.taints);
    if (!byTolerations) memo.set(node.taints, (byTolerations = new Map()));
    let nodeTally: Tally | undefined;
    for (const slot of node.slots) {
      nodeTally ??= tally();
      const tolerations = pods.tolerationsOf(slot);
      let tolerance = byTolerations.get(tolerations);
      if (!tolerance)
        byTolerations.set(tolerations, (tolerance = noExecuteTolerance(tolerations, node.taints, options)));
      let action = NOW;
      let evictAtMs = atMs;
      if (tolerance.untolerated === undefined) {
        const boundAtMs = pods.boundAtMs(slot);
        const index = earliestDeadline(tolerance, boundAtMs);
        if (index < 0) {
          total.tolerating++;
          nodeTally.tolerating++;
          workloadOf(slot).tolerating++;
          continue;
        }
        const deadline = deadlineMs(tolerance.finite[index], boundAtMs);
        if (deadline - atMs > 0) action = AFTER;
        evictAtMs = dateMs(deadline);
      }
      count(total, action, evictAtMs);
      count(nodeTally, action, evictAtMs);
      count(workloadOf(slot), action, evictAtMs);
    }
    if (nodeTally) byNode.push({ name: node.name, tally: nodeTally });
  }
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    total: countsOf(total),
    byNode: byNode
      .sort((a, b) => byText(a.name, b.name))
      .map(({ name, tally }) => ({ node: name, ...countsOf(tally) })),
    byWorkload: workloads
      .sort((a, b) => byText(a.namespace, b.namespace) || byText(a.kind, b.kind) || byText(a.name, b.name))
      .map(({ namespace, kind, name, tally }) => ({ namespace, kind, name, ...countsOf(tally) })),
  };
}

interface WorkloadTally {
  namespace: string;
  kind: string;
  name: string;
  tally: Tally;
}

const tally = (): Tally => ({ evictNow: 0, evictAfter: 0, tolerating: 0, earliest: NaN, latest: NaN });

function count(t: Tally, action: number, evictAtMs: number): void {
  if (action === NOW) t.evictNow++;
  else t.evictAfter++;
  // NaN compares false: the first eviction sets both
  if (!(evictAtMs >= t.earliest)) t.earliest = evictAtMs;
  if (!(evictAtMs <= t.latest)) t.latest = evictAtMs;
}

/** The instant a Date built from `ms` holds, as the lists' evictAt (whole ms): no Date built for the usual whole ms. */
export function dateMs(ms: number): number {
  return Number.isInteger(ms) && Math.abs(ms) <= 8.64e15 ? ms : new Date(ms).getTime();
}

function countsOf(t: Tally): ImpactCounts {
  return {
    evictNow: t.evictNow,
    evictAfter: t.evictAfter,
    tolerating: t.tolerating,
    earliestEvictAt: Number.isNaN(t.earliest) ? null : new Date(t.earliest),
    latestEvictAt: Number.isNaN(t.latest) ? null : new Date(t.latest),
  };
}
