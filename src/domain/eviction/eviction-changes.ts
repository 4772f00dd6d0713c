import type { Taint, Toleration } from '../types';
import { DEFAULT_MATCH_OPTIONS, type MatchOptions } from '../tolerations/tolerates-taint';
import {
  decideEviction,
  decideFromTolerance,
  noExecuteTolerance,
  type BoundPodTolerations,
  type EvictionDecision,
  type NoExecuteTolerance,
} from './decide-eviction';

/**
 * How a pod's eviction changes when its node's taints change (SEMANTICS A.3/A.4):
 * - `EvictNow`: it now has to go at once (an untolerated NoExecute taint, or a deadline already past);
 * - `Scheduled`: it had no eviction and now has a future one;
 * - `Rescheduled`: it had a pending one, now at another instant (A.3: a changed rule re-times it);
 * - `Cancelled`: it had one (pending or immediate) and now stays indefinitely.
 */
export type EvictionChangeKind = 'EvictNow' | 'Scheduled' | 'Rescheduled' | 'Cancelled';

export interface EvictionChange<P> {
  pod: P;
  kind: EvictionChangeKind;
  before: EvictionDecision;
  after: EvictionDecision;
}

/**
 * The pods whose eviction decision differs between the node's taints before and after a change,
 * in the order given; pods whose decision is unchanged are left out.
 * @example diffEvictionDecisions([pod], [], [{ key: 'k', effect: 'NoExecute' }], now)
 *   // [{ pod, kind: 'EvictNow', before: { action: 'None' }, after: { action: 'EvictNow', ... } }]
 */
export function diffEvictionDecisions<P extends BoundPodTolerations>(
  pods: readonly P[],
  taintsBefore: readonly Taint[],
  taintsAfter: readonly Taint[],
  now: Date,
  options: MatchOptions = DEFAULT_MATCH_OPTIONS,
): Array<EvictionChange<P>> {
  const changes: Array<EvictionChange<P>> = [];
  for (const pod of pods) {
    const before = decideEviction(pod, taintsBefore, now, options);
    const after = decideEviction(pod, taintsAfter, now, options);
    const kind = classifyEvictionChange(before, after);
    if (kind) changes.push({ pod, kind, before, after });
  }
  return changes;
}

/** The kind of change from one decision to another, or undefined when nothing changes for the pod. */
export function classifyEvictionChange(
  before: EvictionDecision,
  after: EvictionDecision,
): EvictionChangeKind | undefined {
  switch (after.action) {
    case 'None':
      return before.action === 'None' ? undefined : 'Cancelled';
    case 'EvictNow':
      return before.action === 'EvictNow' ? undefined : 'EvictNow';
    case 'EvictAfter':
      if (before.action !== 'EvictAfter') return 'Scheduled';
      return before.evictAt.getTime() === after.evictAt.getTime() ? undefined : 'Rescheduled';
  }
}

/** A bound pod and the taints of its node (current, or as a proposed change would leave them). */
export interface PodOnTaintedNode<P> {
  pod: P;
  node: string;
  taints: readonly Taint[];
}

export interface TaintImpactEviction<P> {
  pod: P;
  node: string;
  action: 'EvictNow' | 'EvictAfter';
  /** Seconds left until `evictAt`; 0 for EvictNow. */
  afterSeconds: number;
  /** When the pod goes; `now` for an untolerated taint, the (possibly past) deadline for an expired one. */
  evictAt: Date;
  decision: Exclude<EvictionDecision, { action: 'None' }>;
}

export interface TaintImpactPartition<P> {
  evictions: Array<TaintImpactEviction<P>>;
  /** Bound pods that would stay indefinitely. */
  tolerating: Array<{ pod: P; node: string }>;
}

/**
 * Splits bound pods into those the NoExecute rule would evict (now or later) and those that would
 * stay: the bound-pod half of `POST /v1/decisions/taint-impact` (API.md). Pending pods that gain or
 * lose a feasible node are the scheduling filter's business, not this function's.
 */
export function partitionTaintImpact<P extends BoundPodTolerations>(
  entries: ReadonlyArray<PodOnTaintedNode<P>>,
  now: Date,
  options: MatchOptions = DEFAULT_MATCH_OPTIONS,
): TaintImpactPartition<P> {
  const partition: TaintImpactPartition<P> = { evictions: [], tolerating: [] };
  // One toleration analysis per distinct (tolerations, taints) pair: the snapshot shares both arrays
  // between the pods of a workload and the nodes of a pool, so 15,000 pods need a few dozen.
  const memo = new Map<readonly Toleration[], Map<readonly Taint[], NoExecuteTolerance>>();
  for (const { pod, node, taints } of entries) {
    let byTaints = memo.get(pod.tolerations);
    if (!byTaints) memo.set(pod.tolerations, (byTaints = new Map()));
    let tolerance = byTaints.get(taints);
    if (!tolerance) byTaints.set(taints, (tolerance = noExecuteTolerance(pod.tolerations, taints, options)));
    const decision = decideFromTolerance(tolerance, pod.boundAt, now);
    if (decision.action === 'None') {
      partition.tolerating.push({ pod, node });
    } else if (decision.action === 'EvictAfter') {
      partition.evictions.push({
        pod,
        node,
        action: 'EvictAfter',
        afterSeconds: decision.afterSeconds,
        evictAt: decision.evictAt,
        decision,
      });
    } else {
      const evictAt = decision.reason === 'expired' ? decision.evictAt : now;
      partition.evictions.push({ pod, node, action: 'EvictNow', afterSeconds: 0, evictAt, decision });
    }
  }
  return partition;
}
