import type { Taint } from '../../domain/types';

/**
 * A taint as JSON, the one shape every writer uses: REST answers, event data and the taints recorded on
 * eviction rows. Kubernetes field names; `value` always present; `timeAdded` as RFC 3339 when known.
 * @example taintToJson({ key: 'k', effect: 'NoExecute' }) => { key: 'k', value: '', effect: 'NoExecute' }
 */
export function taintToJson(t: Taint): Record<string, unknown> {
  const json: Record<string, unknown> = { key: t.key, value: t.value ?? '', effect: t.effect };
  if (t.timeAdded) json.timeAdded = t.timeAdded.toISOString();
  if (t.respectBudgets) json.respectDisruptionBudgets = true;
  return json;
}
