/**
 * The counts form of taint-impact (`summary: true`): what a caller deciding whether to drain needs,
 * without the pod lists (a 500-node pool lists ~14,000 evictions, 2.4 MB of JSON). Counted from the
 * snapshot's columns by taint-impact-counts.ts; testing/taint-impact-summary-reference.ts counts the
 * lists' own rows, and the two must agree.
 */
export interface ImpactCounts {
  evictNow: number;
  evictAfter: number;
  tolerating: number;
  /** Earliest and latest evictAt of the evictions counted here (null when there are none). */
  earliestEvictAt: Date | null;
  latestEvictAt: Date | null;
}

export interface TaintImpactSummary {
  at: Date;
  counts: ImpactCounts & { unschedulablePending: number; schedulablePending: number };
  /** Every target node with a bound pod, by name. */
  byNode: Array<ImpactCounts & { node: string }>;
  /** By the pod's controller (`owner`); a pod without one is its own workload (kind `Pod`). By namespace, kind, name */
  byWorkload: Array<ImpactCounts & { namespace: string; kind: string; name: string }>;
  warnings: string[];
}
