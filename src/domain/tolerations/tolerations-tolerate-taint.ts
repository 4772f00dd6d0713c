import type { Taint, Toleration } from '../types';
import { DEFAULT_MATCH_OPTIONS, type MatchOptions, toleratesTaint } from './tolerates-taint';

/**
 * Whether any toleration tolerates the taint: port of `TolerationsTolerateTaint`
 * (component-helpers/scheduling/corev1/helpers.go, SEMANTICS B.1.4). An empty list tolerates nothing.
 * @example tolerationsTolerateTaint([{ operator: 'Exists' }], { key: 'a', effect: 'NoExecute' }) === true
 */
export function tolerationsTolerateTaint(
  tolerations: readonly Toleration[],
  taint: Taint,
  options: MatchOptions = DEFAULT_MATCH_OPTIONS,
): boolean {
  return tolerations.some((toleration) => toleratesTaint(toleration, taint, options));
}
