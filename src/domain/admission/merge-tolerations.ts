import type { Toleration } from '../types';
import { tolerationsEqual } from '../tolerations/match-toleration';

/**
 * Whether `superset` tolerates everything `toleration` tolerates: port of `isSuperset`
 * (pkg/util/tolerations/tolerations.go). Deliberately conservative, as upstream: an Equal superset
 * only covers a toleration written with the explicit `Equal` operator, and a NoExecute superset with
 * seconds only covers tolerations with at most as many seconds.
 */
export function isSupersetToleration(superset: Toleration, toleration: Toleration): boolean {
  if (tolerationsEqual(superset, toleration)) return true;
  const ssKey = superset.key ?? '';
  const ssOperator = superset.operator ?? '';
  if ((toleration.key ?? '') !== ssKey && (ssKey !== '' || ssOperator !== 'Exists')) return false;
  const ssEffect = superset.effect ?? '';
  if ((toleration.effect ?? '') !== ssEffect && ssEffect !== '') return false;
  if (ssEffect === 'NoExecute' && superset.tolerationSeconds != null) {
    if (toleration.tolerationSeconds == null || toleration.tolerationSeconds > superset.tolerationSeconds) return false;
  }
  switch (ssOperator) {
    case '':
    case 'Equal':
      return toleration.operator === 'Equal' && (toleration.value ?? '') === (superset.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/**
 * Port of `MergeTolerations` (pkg/util/tolerations/tolerations.go), used by PodTolerationRestriction
 * (SEMANTICS B.6.3): the two lists concatenated, dropping every toleration another one already covers
 * (of two equal ones, the first is kept). Note that this also drops redundant tolerations from the
 * pod's own list — upstream does the same, and it can change which toleration is "first" (A.3).
 * @example mergeTolerations([{ operator: 'Exists' }], [{ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists',
 * effect: 'NoSchedule' }])
 *   // -> [{ operator: 'Exists' }]
 */
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((toleration, i) => {
    if (merged.some((kept) => isSupersetToleration(kept, toleration))) return;
    const coveredLater = all
      .slice(i + 1)
      .some((later) => !tolerationsEqual(toleration, later) && isSupersetToleration(later, toleration));
    if (!coveredLater) merged.push(toleration);
  });
  return merged;
}
