import type { Taint, Toleration } from '../types';
import { DEFAULT_MATCH_OPTIONS, toleratesTaint, type MatchOptions } from '../tolerations/tolerates-taint';

/** What the NoExecute rule says about a bound pod at a given instant (SEMANTICS A.3). */
export type EvictionDecision =
  | { action: 'None' }
  /** A NoExecute taint no toleration tolerates: the pod goes at once. */
  | { action: 'EvictNow'; reason: 'untolerated'; taint: Taint }
  /** Every NoExecute taint is tolerated, but the earliest deadline has already passed. */
  | { action: 'EvictNow'; reason: 'expired'; evictAt: Date; taint: Taint; tolerationIndex: number }
  | { action: 'EvictAfter'; evictAt: Date; afterSeconds: number; taint: Taint; tolerationIndex: number };

/** What of a bound pod the eviction rule reads. */
export interface BoundPodTolerations {
  tolerations: readonly Toleration[];
  /** When the pod was bound to its node; a clock never starts before it (A.3). */
  boundAt: Date;
}

/**
 * taintwise's durable eviction rule, SEMANTICS A.3 (deliberately not upstream's observation-time
 * timer, B.5): only NoExecute taints count; an untolerated one evicts now. Otherwise each NoExecute
 * taint T is tolerated by the FIRST toleration in pod order that tolerates it (as
 * `GetMatchingTolerations`, B.1.6), whose deadline is
 * `max(T.timeAdded, boundAt) + max(0, tolerationSeconds)`, or never without seconds. The pod goes at
 * the earliest deadline (ties: the first taint in node order); a deadline at or before `now` evicts now.
 * A taint without `timeAdded` counts from `boundAt`.
 *
 * Because it reads only stored state, a restart never resets a clock and a changed
 * `tolerationSeconds` re-times it; with fresh taints (timeAdded = boundAt = now) it equals upstream's
 * `minTolerationTime` answer — in particular any used toleration with seconds ≤ 0 means now (B.8.12).
 * @example decideEviction({ tolerations: [], boundAt }, [{ key: 'k', effect: 'NoExecute' }], now)
 *   // { action: 'EvictNow', reason: 'untolerated', taint: { key: 'k', effect: 'NoExecute' } }
 */
export function decideEviction(
  pod: BoundPodTolerations,
  taints: readonly Taint[],
  now: Date,
  options: MatchOptions = DEFAULT_MATCH_OPTIONS,
): EvictionDecision {
  return decideFromTolerance(noExecuteTolerance(pod.tolerations, taints, options), pod.boundAt, now);
}

/**
 * The part of the A.3 rule that depends only on the toleration list and the taint list, not on the
 * pod's binding time: which NoExecute taint is untolerated, or which toleration (and seconds) each
 * one uses. Pods of one workload share their toleration list, so callers deciding for thousands of
 * pods (taint-impact) compute this once per distinct (tolerations, taints) pair.
 */
export interface NoExecuteTolerance {
  untolerated?: Taint;
  /** Tolerated NoExecute taints with finite seconds, in node order. */
  finite: Array<{ taint: Taint; tolerationIndex: number; seconds: number; timeAddedMs: number }>;
}

export function noExecuteTolerance(
  tolerations: readonly Toleration[],
  taints: readonly Taint[],
  options: MatchOptions = DEFAULT_MATCH_OPTIONS,
): NoExecuteTolerance {
  const finite: NoExecuteTolerance['finite'] = [];
  for (const taint of taints) {
    if (taint.effect !== 'NoExecute') continue;
    const tolerationIndex = tolerations.findIndex((toleration) => toleratesTaint(toleration, taint, options));
    if (tolerationIndex < 0) return { untolerated: taint, finite: [] };
    const seconds = tolerations[tolerationIndex].tolerationSeconds;
    if (seconds === undefined || seconds === null) continue;
    finite.push({
      taint,
      tolerationIndex,
      seconds: Math.max(0, seconds),
      timeAddedMs: taint.timeAdded?.getTime() ?? -Infinity,
    });
  }
  return { finite };
}

/** The rest of A.3, per pod: the earliest `max(timeAdded, boundAt) + seconds`, compared with `now`. */
export function decideFromTolerance(tolerance: NoExecuteTolerance, boundAt: Date, now: Date): EvictionDecision {
  if (tolerance.untolerated) return { action: 'EvictNow', reason: 'untolerated', taint: tolerance.untolerated };
  const boundAtMs = boundAt.getTime();
  const index = earliestDeadline(tolerance, boundAtMs);
  if (index < 0) return { action: 'None' };
  const earliest = tolerance.finite[index];
  const earliestAt = deadlineMs(earliest, boundAtMs);
  const evictAt = new Date(earliestAt);
  const { taint, tolerationIndex } = earliest;
  const remainingMs = earliestAt - now.getTime();
  if (remainingMs <= 0) return { action: 'EvictNow', reason: 'expired', evictAt, taint, tolerationIndex };
  return { action: 'EvictAfter', evictAt, afterSeconds: Math.ceil(remainingMs / 1000), taint, tolerationIndex };
}

/**
 * Which entry of `tolerance.finite` the pod goes by: the earliest deadline, ties to the first taint in
 * node order; -1 when none (tolerated indefinitely). Numbers only, so a caller counting thousands of
 * pods (taint-impact's summary) builds no Date or decision object per pod.
 */
export function earliestDeadline(tolerance: NoExecuteTolerance, boundAtMs: number): number {
  let earliest = -1;
  let earliestAt = Infinity;
  for (let i = 0; i < tolerance.finite.length; i++) {
    const at = deadlineMs(tolerance.finite[i], boundAtMs);
    if (at < earliestAt) {
      earliestAt = at;
      earliest = i;
    }
  }
  return earliest;
}

/** A.3's deadline for one tolerated taint, epoch ms: `max(timeAdded, boundAt) + seconds`. */
export function deadlineMs(entry: NoExecuteTolerance['finite'][number], boundAtMs: number): number {
  return Math.max(entry.timeAddedMs, boundAtMs) + entry.seconds * 1000;
}

/**
 * Upstream's `getMinTolerationTime` (pkg/controller/tainteviction/taint_eviction.go, SEMANTICS B.5),
 * in seconds, over the tolerations `GetMatchingTolerations` used: an empty list → 0 (evict now); any
 * toleration with seconds ≤ 0 → 0; otherwise the smallest positive seconds; none with seconds → -1
 * (tolerate forever). Kept for documentation and comparison: taintwise decides with
 * {@link decideEviction}, which equals this when taints and binding are fresh.
 * @example minTolerationTime([{ tolerationSeconds: 60 }, {}]) === 60; minTolerationTime([{}]) === -1
 */
export function minTolerationTime(usedTolerations: readonly Toleration[]): number {
  if (usedTolerations.length === 0) return 0;
  let min = Infinity;
  for (const { tolerationSeconds } of usedTolerations) {
    if (tolerationSeconds === undefined || tolerationSeconds === null) continue;
    if (tolerationSeconds <= 0) return 0;
    min = Math.min(min, tolerationSeconds);
  }
  return min === Infinity ? -1 : min;
}
