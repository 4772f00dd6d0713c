/**
 * A decoded policy/v1 PodDisruptionBudget → a budget to import. Structure only (types, the name); Kubernetes'
 * rules (SEMANTICS B.9.1) are the import service's validators' call.
 */
import type { DisruptionBudgetSpec, IntOrPercent, LabelSelectorSpec } from '../../domain/disruption/budget-types';
import {
  describeValue,
  isObject,
  type Obj,
  optArray,
  optObject,
  optString,
  Problems,
  requiredString,
  stringMap,
} from './fields';

export interface BudgetInput {
  namespace: string;
  name: string;
  uid?: string;
  labels: Record<string, string>;
  spec: DisruptionBudgetSpec;
}

export function mapBudget(value: Obj, p: Problems): BudgetInput | undefined {
  const metadata = optObject(value.metadata, 'metadata', p) ?? {};
  const spec = optObject(value.spec, 'spec', p) ?? {};
  const name = requiredString(metadata.name, 'metadata.name', p);
  const namespace = optString(metadata.namespace, 'metadata.namespace', p) || 'default';
  const uid = optString(metadata.uid, 'metadata.uid', p) || undefined;
  const labels = stringMap(metadata.labels, 'metadata.labels', p);
  const out: DisruptionBudgetSpec = { selector: mapSelector(spec.selector, 'spec.selector', p) };
  const min = intOrString(spec.minAvailable, 'spec.minAvailable', p);
  if (min !== undefined) out.minAvailable = min;
  const max = intOrString(spec.maxUnavailable, 'spec.maxUnavailable', p);
  if (max !== undefined) out.maxUnavailable = max;
  const policy = optString(spec.unhealthyPodEvictionPolicy, 'spec.unhealthyPodEvictionPolicy', p);
  if (policy) out.unhealthyPodEvictionPolicy = policy;
  if (name === undefined) return undefined;
  return { namespace, name, ...(uid ? { uid } : {}), labels, spec: out };
}

export function budgetNameOf(value: Obj): string | undefined {
  const metadata = isObject(value.metadata) ? value.metadata : {};
  if (typeof metadata.name !== 'string') return undefined;
  return `${typeof metadata.namespace === 'string' && metadata.namespace ? metadata.namespace : 'default'}/${metadata.name}`;
}

function intOrString(value: unknown, field: string, p: Problems): IntOrPercent | undefined {
  if (value === undefined || value === null) return undefined;
  if ((typeof value === 'number' && Number.isInteger(value)) || typeof value === 'string') return value;
  p.add(field, `expected an integer or a percentage string, got ${describeValue(value)}`);
  return undefined;
}

function mapSelector(value: unknown, field: string, p: Problems): LabelSelectorSpec | null {
  if (value === undefined || value === null) return null;
  const selector = optObject(value, field, p);
  if (!selector) return null;
  const out: LabelSelectorSpec = {};
  if (selector.matchLabels != null) out.matchLabels = stringMap(selector.matchLabels, `${field}.matchLabels`, p);
  const expressions = optArray(selector.matchExpressions, `${field}.matchExpressions`, p);
  if (expressions) {
    out.matchExpressions = [];
    expressions.forEach((raw, i) => {
      const at = `${field}.matchExpressions[${i}]`;
      const e = optObject(raw, at, p);
      if (!e) return;
      const values = (optArray(e.values, `${at}.values`, p) ?? []).map((v, j) =>
        typeof v === 'string' ? v : (p.add(`${at}.values[${j}]`, `expected a string, got ${describeValue(v)}`), ''),
      );
      out.matchExpressions!.push({
        key: requiredString(e.key, `${at}.key`, p) ?? '',
        operator: requiredString(e.operator, `${at}.operator`, p) ?? '',
        ...(values.length ? { values } : {}),
      });
    });
  }
  return out;
}
