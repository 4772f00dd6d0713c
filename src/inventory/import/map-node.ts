/**
 * Decoded documents → taintwise nodes and pods, field by field from the Kubernetes objects
 * (k8s.io/api/core/v1 Node and Pod). Pure: `now` is a parameter.
 *
 * Only structure is checked here (types, required names); whether a taint's effect or a toleration's
 * operator is valid is the service's validators' call (SEMANTICS B.2). An item with a structural
 * problem is left out and reported; the others are imported.
 */
import type { NodeCondition, Taint, TaintEffect } from '../../domain/types';
import {
  isObject,
  type Obj,
  optArray,
  optBoolean,
  optObject,
  optString,
  optTime,
  Problems,
  quantityMap,
  requiredString,
  stringMap,
  describeValue,
} from './fields';
import type { NodeInput } from './inventory-input';

export function nameOf(value: Obj): string | undefined {
  const metadata = isObject(value.metadata) ? value.metadata : undefined;
  return typeof metadata?.name === 'string' && metadata.name !== '' ? metadata.name : undefined;
}

/** A Kubernetes Node object → NodeInput; undefined when it has no usable name. */
export function mapNode(value: Obj, p: Problems): NodeInput | undefined {
  const metadata = optObject(value.metadata, 'metadata', p) ?? {};
  const spec = optObject(value.spec, 'spec', p) ?? {};
  const status = optObject(value.status, 'status', p) ?? {};
  const name = requiredString(metadata.name, 'metadata.name', p);
  const labels = stringMap(metadata.labels, 'metadata.labels', p);

  const taints: Taint[] = [];
  (optArray(spec.taints, 'spec.taints', p) ?? []).forEach((raw, i) => {
    const taint = mapTaint(raw, `spec.taints[${i}]`, p);
    if (taint) taints.push(taint);
  });

  const conditions: NodeCondition[] = [];
  (optArray(status.conditions, 'status.conditions', p) ?? []).forEach((raw, i) => {
    const condition = mapCondition(raw, `status.conditions[${i}]`, p);
    if (condition) conditions.push(condition);
  });

  const unschedulable = optBoolean(spec.unschedulable, 'spec.unschedulable', p) ?? false;
  const allocatable = quantityMap(status.allocatable, 'status.allocatable', p) ?? null;
  if (name === undefined) return undefined;
  return { name, labels, taints, unschedulable, conditions, allocatable };
}

function mapTaint(raw: unknown, field: string, p: Problems): Taint | undefined {
  if (!isObject(raw)) {
    p.add(field, `expected a taint object, got ${describeValue(raw)}`);
    return undefined;
  }
  // A missing key or effect is reported here (the object is unusable); an empty or unknown one is
  // passed through for the validators to word as Kubernetes does.
  if (raw.key === undefined || raw.key === null) p.add(`${field}.key`, 'Required value');
  const key = optString(raw.key, `${field}.key`, p);
  const value = optString(raw.value, `${field}.value`, p) ?? '';
  if (raw.effect === undefined || raw.effect === null) p.add(`${field}.effect`, 'Required value');
  const effect = optString(raw.effect, `${field}.effect`, p);
  const timeAdded = optTime(raw.timeAdded, `${field}.timeAdded`, p);
  if (key === undefined || effect === undefined) return undefined;
  const taint: Taint = { key, value, effect: effect as TaintEffect };
  if (timeAdded) taint.timeAdded = timeAdded;
  return taint;
}

function mapCondition(raw: unknown, field: string, p: Problems): NodeCondition | undefined {
  if (!isObject(raw)) {
    p.add(field, `expected a condition object, got ${describeValue(raw)}`);
    return undefined;
  }
  const type = requiredString(raw.type, `${field}.type`, p);
  const status = requiredString(raw.status, `${field}.status`, p);
  const reason = optString(raw.reason, `${field}.reason`, p);
  const message = optString(raw.message, `${field}.message`, p);
  const lastTransitionTime = optTime(raw.lastTransitionTime, `${field}.lastTransitionTime`, p);
  if (type === undefined || status === undefined) return undefined;
  const condition: NodeCondition = { type, status };
  if (reason !== undefined) condition.reason = reason;
  if (message !== undefined) condition.message = message;
  if (lastTransitionTime !== undefined) condition.lastTransitionTime = lastTransitionTime;
  return condition;
}

// ---------------------------------------------------------------------------------------------
// Pod
