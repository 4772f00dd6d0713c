import type { Taint, Toleration } from '../types';
import { toleratesTaint, type MatchOptions } from '../tolerations/tolerates-taint';
import type { FilterReason } from './filter-reason';

/** Upstream's reason since PR #134740 (SEMANTICS B.4.1); taintwise uses it only when asked to redact (A.2). */
export const REDACTED_TAINT_MESSAGE = 'node(s) had untolerated taint(s)';

/**
 * taintwise's TaintToleration reason (A.2): the pre-1.34 upstream wording naming the first untolerated
 * taint, `node(s) had untolerated taint {<key>: <value>}` (Go's `fmt.Sprintf("{%s: %s}")`, so an empty
 * value reads `{key: }`), with the taint as a structured field. `redact` gives upstream's current text.
 */
export function untoleratedTaintReason(taint: Taint, redact: boolean): FilterReason {
  if (redact) return { plugin: 'TaintToleration', message: REDACTED_TAINT_MESSAGE };
  return {
    plugin: 'TaintToleration',
    message: `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`,
    taint,
  };
}

/**
 * The tolerations that can matter to the filter: an effect of NoSchedule, NoExecute or empty.
 * (PreferNoSchedule ones cannot tolerate a NoSchedule/NoExecute taint, B.1.1 step 1.)
 */
export function filterTolerations(tolerations: readonly Toleration[]): Toleration[] {
  return tolerations.filter((t) => !t.effect || t.effect === 'NoSchedule' || t.effect === 'NoExecute');
}

/**
 * PreScore's subset (B.4.1): tolerations whose effect is PreferNoSchedule or empty. A NoSchedule
 * toleration does not soften a PreferNoSchedule taint (B.8.10).
 */
export function preferNoScheduleTolerations(tolerations: readonly Toleration[]): Toleration[] {
  return tolerations.filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
}

/**
 * The TaintToleration filter (B.4.1): the FIRST taint in node order with effect NoSchedule or NoExecute
 * that no toleration tolerates (`FindMatchingUntoleratedTaint` with `DoNotScheduleTaintsFilterFunc`),
 * or undefined when the node passes. PreferNoSchedule never filters.
 * @example firstUntoleratedFilterTaint([{ key: 'gpu', effect: 'NoSchedule' }], [], options) // { key: 'gpu', effect:
 * 'NoSchedule' }
 */
export function firstUntoleratedFilterTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  options: MatchOptions,
): Taint | undefined {
  for (const taint of taints) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!tolerates(tolerations, taint, options)) return taint;
  }
  return undefined;
}

/**
 * The TaintToleration raw score (B.4.1): how many PreferNoSchedule taints the PreScore subset of
 * tolerations (see {@link preferNoScheduleTolerations}) does not tolerate. Lower is better.
 */
export function countIntolerablePreferNoSchedule(
  taints: readonly Taint[],
  preferTolerations: readonly Toleration[],
  options: MatchOptions,
): number {
  let count = 0;
  for (const taint of taints) {
    if (taint.effect === 'PreferNoSchedule' && !tolerates(preferTolerations, taint, options)) count++;
  }
  return count;
}

function tolerates(tolerations: readonly Toleration[], taint: Taint, options: MatchOptions): boolean {
  for (const toleration of tolerations) if (toleratesTaint(toleration, taint, options)) return true;
  return false;
}
