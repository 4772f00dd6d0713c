import type { Toleration } from '../types';

/**
 * Whether two tolerations are "the same toleration" for de-duplication: port of
 * `Toleration.MatchToleration` (k8s.io/api/core/v1/toleration.go, SEMANTICS B.1.2). Compares key,
 * operator, value and effect as plain strings: `tolerationSeconds` is ignored, and `""` and `"Equal"`
 * are different operators here (unlike at match time).
 */
export function matchToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '')
  );
}

/** Deep equality of two tolerations, `tolerationSeconds` included (absent and null are both "no seconds"). */
export function tolerationsEqual(a: Toleration, b: Toleration): boolean {
  return matchToleration(a, b) && (a.tolerationSeconds ?? null) === (b.tolerationSeconds ?? null);
}

/**
 * A new list with the toleration added, or replacing every toleration of the same identity in place:
 * port of `AddOrUpdateTolerationInPodSpec` (pkg/apis/core/v1/helper/helpers.go, B.1.2). Because identity
 * ignores seconds, a user's `not-ready Exists NoExecute 60s` is replaced by a forever one (B.6.2).
 * An identical toleration already present leaves the list as it is (upstream returns false, no change).
 * @example addOrUpdateToleration([{ key: 'a', operator: 'Exists', tolerationSeconds: 60 }], { key: 'a', operator:
 * 'Exists' })
 *   // -> [{ key: 'a', operator: 'Exists' }]
 */
export function addOrUpdateToleration(tolerations: readonly Toleration[], toleration: Toleration): Toleration[] {
  if (tolerations.some((existing) => matchToleration(existing, toleration) && tolerationsEqual(existing, toleration))) {
    return [...tolerations];
  }
  let updated = false;
  const result = tolerations.map((existing) => {
    if (!matchToleration(existing, toleration)) return existing;
    updated = true;
    return { ...toleration };
  });
  if (!updated) result.push({ ...toleration });
  return result;
}
