import type { Taint, Toleration } from '../types';
import { parseCanonicalInt64 } from './numeric-value';

/** Rule switches that change matching; SEMANTICS A.1 (the TaintTolerationComparisonOperators gate). */
export interface MatchOptions {
  comparisonOperators: boolean;
}

export const DEFAULT_MATCH_OPTIONS: MatchOptions = { comparisonOperators: true };

/**
 * Whether one toleration tolerates one taint: port of `Toleration.ToleratesTaint`
 * (k8s.io/api/core/v1/toleration.go, SEMANTICS B.1.1). Order matters: effect, then key, then operator.
 * @example toleratesTaint({ operator: 'Exists' }, { key: 'a', effect: 'NoSchedule' }) === true
 */
export function toleratesTaint(
  toleration: Toleration,
  taint: Taint,
  options: MatchOptions = DEFAULT_MATCH_OPTIONS,
): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    case 'Gt':
    case 'Lt':
      return options.comparisonOperators && compareNumericValues(toleration, taint);
    default:
      return false;
  }
}

/** Gt/Lt with the taint value as the left operand; equal values never match (B.1.1, B.8.1). */
function compareNumericValues(toleration: Toleration, taint: Taint): boolean {
  const tolerationValue = parseCanonicalInt64(toleration.value ?? '');
  const taintValue = parseCanonicalInt64(taint.value ?? '');
  if (tolerationValue === undefined || taintValue === undefined) return false;
  return toleration.operator === 'Gt' ? taintValue > tolerationValue : taintValue < tolerationValue;
}
