import type { Taint, Toleration } from '../types';
import { DEFAULT_MATCH_OPTIONS, type MatchOptions } from './tolerates-taint';
import { tolerationsTolerateTaint } from './tolerations-tolerate-taint';

/** Which taints a caller cares about; the scheduler filter keeps NoSchedule and NoExecute (B.4.1). */
export type TaintInclusionFilter = (taint: Taint) => boolean;

/**
 * The first taint, in node order, that passes the filter and that no toleration tolerates; undefined
 * when every included taint is tolerated. Port of `FindMatchingUntoleratedTaint`
 * (component-helpers/scheduling/corev1/helpers.go, SEMANTICS B.1.5): an absent filter keeps every taint,
 * and a node without taints is always tolerated.
 * @example findMatchingUntoleratedTaint([{ key: 'a', effect: 'NoSchedule' }], []) // -> { key: 'a', ... }
 */
export function findMatchingUntoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  inclusionFilter?: TaintInclusionFilter | null,
  options: MatchOptions = DEFAULT_MATCH_OPTIONS,
): Taint | undefined {
  return taints.find(
    (taint) => (!inclusionFilter || inclusionFilter(taint)) && !tolerationsTolerateTaint(tolerations, taint, options),
  );
}

/**
 * Every included taint no toleration tolerates, in node order. Upstream stops at the first
 * (B.1.5); taintwise explanations may list them all (A.2), so this is the same rule without the stop.
 */
export function findUntoleratedTaints(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  inclusionFilter?: TaintInclusionFilter | null,
  options: MatchOptions = DEFAULT_MATCH_OPTIONS,
): Taint[] {
  return taints.filter(
    (taint) => (!inclusionFilter || inclusionFilter(taint)) && !tolerationsTolerateTaint(tolerations, taint, options),
  );
}

/**
 * The scheduler's Filter predicate: only NoSchedule and NoExecute taints filter (B.4.1
 * `DoNotScheduleTaintsFilterFunc`).
 */
export const doNotScheduleTaintsFilter: TaintInclusionFilter = (taint) =>
  taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
