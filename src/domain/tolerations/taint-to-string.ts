/**
 * A taint as upstream prints it: port of `Taint.ToString` (k8s.io/api/core/v1/taint.go, SEMANTICS B.1.3).
 * `key=value:effect`, `key:effect` (no value), `key=value:` (no effect), `key` (neither).
 * Used in kubectl messages (`taint "foo:NoSchedule" not found`, B.3.3), so the shape must not drift.
 * @example taintToString({ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }) === 'dedicated=gpu:NoSchedule'
 */
export function taintToString(taint: { key: string; value?: string; effect?: string }): string {
  const value = taint.value ?? '';
  const effect = taint.effect ?? '';
  if (value === '' && effect === '') return taint.key;
  if (value === '') return `${taint.key}:${effect}`;
  return `${taint.key}=${value}:${effect}`;
}

/**
 * The identity of a taint on a node: (key, effect), as `Taint.MatchTaint` compares (B.1.3). Two taints
 * with the same identity cannot coexist on a node (B.2.2), so this is the key of every taint map.
 * Rendered `key:effect`; effects never contain `:`, so the last `:` separates the two.
 * @example taintIdentity('dedicated', 'NoSchedule') === 'dedicated:NoSchedule'
 */
export function taintIdentity(key: string, effect: string | undefined): string {
  return `${key}:${effect ?? ''}`;
}

/** Whether two taints have the same identity (key, effect): port of `Taint.MatchTaint` (B.1.3). */
export function matchTaint(a: { key: string; effect?: string }, b: { key: string; effect?: string }): boolean {
  return a.key === b.key && (a.effect ?? '') === (b.effect ?? '');
}

/**
 * What scheduling reads of a taint list — key, value and effect of each, in order (`timeAdded` only moves
 * eviction clocks): equal for two lists the filter and score treat alike, so they can share one copy.
 * @example schedulingSignature([{ key: 'a', value: '1', effect: 'NoSchedule' }]) === 'a\u00001\u0000NoSchedule'
 */
export function schedulingSignature(taints: readonly { key: string; value?: string; effect?: string }[]): string {
  return taints.map((t) => `${t.key}\u0000${t.value ?? ''}\u0000${t.effect ?? ''}`).join('\u0001');
}
