import {
  deadlineMs,
  earliestDeadline,
  noExecuteTolerance,
  type NoExecuteTolerance,
} from '../domain/eviction/decide-eviction';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { Taint, Toleration } from '../domain/types';
import type { PackedBoundPods } from '../kernel/snapshot/packed-bound-pods';
import type { PodColumns } from '../kernel/snapshot/pod-store';
import type { ImpactCounts } from './taint-impact-summary';

/** A target node of the what-if: its bound pods (packed: what the count reads) and its proposed taints. */
export interface CountedNode {
  name: string;
  pods: PackedBoundPods;
  taints: readonly Taint[];
}

/** Counts with the instants as epoch ms (no Date per pod); NaN until an eviction is counted. */
export interface Tally {
  evictNow: number;
  evictAfter: number;
  tolerating: number;
  earliest: number;
  latest: number;
}

/** The summary's counts before they are presented: per node and per workload, both sorted, and their total. */
export interface CountedImpact {
  total: Tally;
  byNode: Array<{ name: string; tally: Tally }>;
  byWorkload: WorkloadTally[];
}

export interface WorkloadTally {
  namespace: string;
  kind: string;
  name: string;
  tally: Tally;
}

const NOW = 1;
const AFTER = 2;

/**
 * taint-impact's summary counted straight from the snapshot's pod columns: the same A.3 rule and the
 * same groups as `summarizeTaintImpact` over `partitionTaintImpact`'s rows (taint-impact-counts.spec.ts
 * compares the two on a generated inventory), without what only the lists need — a view, a decision
 * and a Date per pod, and each node's pods sorted by name. Those were ~40 ms of a summary over the
 * bench's 500-node pool (~14,000 pods); a count needs none of them. Per pod: its node's tally and its
 * workload's, the workload found by owner id (an array index) rather than by key.
 */
export function countTaintImpact(
  pods: PodColumns,
  nodes: readonly CountedNode[],
  at: Date,
  options: MatchOptions,
): CountedImpact {
  const atMs = at.getTime();
  const total = tally();
  const byNode: Array<{ name: string; tally: Tally }> = [];
  const workloads = new Workloads(pods);
  // One toleration analysis per distinct (tolerations, taints) pair, as partitionTaintImpact memoises.
  const memo = new Map<readonly Taint[], Map<readonly Toleration[], NoExecuteTolerance>>();
  for (const node of nodes) {
    let byTolerations = memo.get(node.taints);
    if (!byTolerations) memo.set(node.taints, (byTolerations = new Map()));
    const packed = node.pods;
    if (packed.count === 0) continue;
    const nodeTally = tally();
    for (let i = 0; i < packed.count; i++) {
      const tolerations = packed.tolerations[i];
      let tolerance = byTolerations.get(tolerations);
      if (!tolerance)
        byTolerations.set(tolerations, (tolerance = noExecuteTolerance(tolerations, node.taints, options)));
      const workload = workloads.of(packed.namespaceIds[i], packed.ownerIds[i], packed.slots[i]);
      let action = NOW;
      let evictAtMs = atMs;
      if (tolerance.untolerated === undefined) {
        const boundAtMs = packed.boundAtMs[i];
        const index = earliestDeadline(tolerance, boundAtMs);
        if (index < 0) {
          total.tolerating++;
          nodeTally.tolerating++;
          workload.tolerating++;
          continue;
        }
        const deadline = deadlineMs(tolerance.finite[index], boundAtMs);
        if (deadline - atMs > 0) action = AFTER;
        evictAtMs = dateMs(deadline);
      }
      count(total, action, evictAtMs);
      count(nodeTally, action, evictAtMs);
      count(workload, action, evictAtMs);
    }
    byNode.push({ name: node.name, tally: nodeTally });
  }
  const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    total,
    byNode: byNode.sort((a, b) => byText(a.name, b.name)),
    byWorkload: workloads.all.sort(
      (a, b) => byText(a.namespace, b.namespace) || byText(a.kind, b.kind) || byText(a.name, b.name),
    ),
  };
}

/**
 * Workloads by (namespace, owner): an owner id's workload in the namespace it was first met in is an
 * array index away; the same owner (kind and name) in another namespace, a pod without an owner and
 * an owner of kind Pod (the same workload as a bare pod of that name: summarizeTaintImpact's key) go
 * through maps.
 */
class Workloads {
  readonly all: WorkloadTally[] = [];
  private readonly byOwner: Array<WorkloadTally | undefined> = [];
  private readonly byOwnerNamespace: Array<number | undefined> = [];
  /** namespace id → owner id (a number) or, for kind `Pod`, the pod's or owner's name. */
  private readonly others: Array<Map<number | string, WorkloadTally>> = [];

  constructor(private readonly pods: PodColumns) {}

  /** The tally of the pod at `slot`, of namespace `ns` and owner `ownerId` (read from the packed node). */
  of(ns: number, ownerId: number, slot: number): Tally {
    const pods = this.pods;
    if (ownerId >= 0 && this.byOwnerNamespace[ownerId] === ns) return this.byOwner[ownerId]!.tally;
    const owner = ownerId < 0 ? null : pods.ownerById(ownerId);
    const key = owner === null ? pods.name(slot) : owner.kind === 'Pod' ? owner.name : ownerId;
    const inNamespace = (this.others[ns] ??= new Map());
    let workload = inNamespace.get(key);
    if (workload === undefined) {
      const kind = owner?.kind ?? 'Pod';
      const name = owner?.name ?? pods.name(slot);
      inNamespace.set(key, (workload = { namespace: pods.namespaceName(ns), kind, name, tally: tally() }));
      this.all.push(workload);
    }
    if (typeof key === 'number' && this.byOwnerNamespace[key] === undefined) {
      this.byOwner[key] = workload;
      this.byOwnerNamespace[key] = ns;
    }
    return workload.tally;
  }
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

/** A tally as the summary's counts, with Dates (GraphQL's answer; REST writes the JSON from the tally). */
export function countsOf(t: Tally): ImpactCounts {
  return {
    evictNow: t.evictNow,
    evictAfter: t.evictAfter,
    tolerating: t.tolerating,
    earliestEvictAt: Number.isNaN(t.earliest) ? null : new Date(t.earliest),
    latestEvictAt: Number.isNaN(t.latest) ? null : new Date(t.latest),
  };
}
