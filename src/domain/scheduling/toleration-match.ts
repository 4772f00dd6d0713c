import type { Taint, Toleration } from '../types';
import { DEFAULT_MATCH_OPTIONS, toleratesTaint, type MatchOptions } from '../tolerations/tolerates-taint';
import { decideEviction } from '../eviction/decide-eviction';

export interface TaintMatch {
  taint: Taint;
  tolerated: boolean;
  /** The first toleration, in pod order, that tolerates the taint (B.1.6); absent when none does. */
  tolerationIndex?: number;
}

/** The `/v1/decisions/toleration-match` answer (API.md). */
export interface TolerationMatchDecision {
  matches: TaintMatch[];
  /** False when a NoSchedule or NoExecute taint is untolerated (the TaintToleration filter, B.4.1). */
  schedulable: boolean;
  /** True when a PreferNoSchedule taint is untolerated (it lowers the TaintToleration score). */
  preferAvoid: boolean;
  /** What would happen to a pod already running there, with the taints and the binding both fresh. */
  eviction: { action: 'None' | 'EvictNow' | 'EvictAfter'; afterSeconds?: number };
}

/** Any instant will do: with taints and binding both "now" the answer does not depend on it. */
const FRESH = new Date(0);

/**
 * How a set of tolerations meets a set of taints. Each taint is matched against the tolerations in
 * order and the first tolerating one is reported. The eviction part is A.3 with boundAt = timeAdded =
 * now, so `afterSeconds` is the seconds of the toleration that decides; a used toleration with
 * seconds ≤ 0 means EvictNow (B.8.12).
 * @example decideTolerationMatch([{ key: 'k', effect: 'NoExecute' }], [{ key: 'k', operator: 'Exists',
 * tolerationSeconds: 60 }])
 *   // { matches: [{ taint, tolerated: true, tolerationIndex: 0 }], schedulable: true, preferAvoid: false,
 *   //   eviction: { action: 'EvictAfter', afterSeconds: 60 } }
 */
export function decideTolerationMatch(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  options: MatchOptions = DEFAULT_MATCH_OPTIONS,
): TolerationMatchDecision {
  let schedulable = true;
  let preferAvoid = false;
  const matches = taints.map((taint): TaintMatch => {
    const tolerationIndex = tolerations.findIndex((toleration) => toleratesTaint(toleration, taint, options));
    if (tolerationIndex >= 0) return { taint, tolerated: true, tolerationIndex };
    if (taint.effect === 'PreferNoSchedule') preferAvoid = true;
    else schedulable = false;
    return { taint, tolerated: false };
  });
  const fresh = taints.map(({ timeAdded: _ignored, ...taint }) => taint);
  const decision = decideEviction({ tolerations, boundAt: FRESH }, fresh, FRESH, options);
  const eviction =
    decision.action === 'EvictAfter'
      ? { action: decision.action, afterSeconds: decision.afterSeconds }
      : { action: decision.action };
  return { matches, schedulable, preferAvoid, eviction };
}
