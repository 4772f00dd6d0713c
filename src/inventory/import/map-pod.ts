/**
 * Decoded documents → taintwise nodes and pods, field by field from the Kubernetes objects
 * (k8s.io/api/core/v1 Node and Pod). Pure: `now` is a parameter.
 *
 * Only structure is checked here (types, required names); whether a taint's effect or a toleration's
 * operator is valid is the service's validators' call (SEMANTICS B.2). An item with a structural
 * problem is left out and reported; the others are imported.
 */
import type {
  Affinity,
  NodeAffinity,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  OwnerRef,
  PodResources,
  PreferredSchedulingTerm,
  Toleration,
} from '../../domain/types';
import {
  isObject,
  type Obj,
  optArray,
  optBoolean,
  optInteger,
  optObject,
  optString,
  optTime,
  Problems,
  quantityMap,
  requiredString,
  stringMap,
  describeValue,
} from './fields';
import type { PodInput } from './inventory-input';
import { effectivePodLimits, effectivePodRequestsList } from './pod-resources';
import { nameOf } from './map-node';

export function podNameOf(value: Obj): string | undefined {
  const name = nameOf(value);
  if (!name) return undefined;
  const metadata = value.metadata as Obj;
  const namespace =
    typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : 'default';
  return `${namespace}/${name}`;
}

// ---------------------------------------------------------------------------------------------
// Node

export interface MappedPod {
  pod: PodInput;
  droppedPodAffinity: boolean;
  boundAtIsNow: boolean;
}

/** A Kubernetes Pod object → PodInput; undefined when it has no usable name. */
export function mapPod(value: Obj, now: Date, p: Problems): MappedPod | undefined {
  const metadata = optObject(value.metadata, 'metadata', p) ?? {};
  const spec = optObject(value.spec, 'spec', p) ?? {};
  const status = optObject(value.status, 'status', p) ?? {};
  const name = requiredString(metadata.name, 'metadata.name', p);
  const namespace = optString(metadata.namespace, 'metadata.namespace', p) || 'default';
  const uid = optString(metadata.uid, 'metadata.uid', p) || undefined;
  const nodeName = optString(spec.nodeName, 'spec.nodeName', p) || null;
  const phase = optString(status.phase, 'status.phase', p) || 'Pending';

  const tolerations: Toleration[] = [];
  (optArray(spec.tolerations, 'spec.tolerations', p) ?? []).forEach((raw, i) => {
    const toleration = mapToleration(raw, `spec.tolerations[${i}]`, p);
    if (toleration) tolerations.push(toleration);
  });
  const nodeSelector = stringMap(spec.nodeSelector, 'spec.nodeSelector', p);
  const labels = stringMap(metadata.labels, 'metadata.labels', p);

  const rawAffinity = optObject(spec.affinity, 'spec.affinity', p);
  const droppedPodAffinity =
    rawAffinity !== undefined && (isObject(rawAffinity.podAffinity) || isObject(rawAffinity.podAntiAffinity));
  const nodeAffinity = rawAffinity
    ? mapNodeAffinity(rawAffinity.nodeAffinity, 'spec.affinity.nodeAffinity', p)
    : undefined;
  const affinity: Affinity | null = nodeAffinity ? { nodeAffinity } : null;

  const priority = optInteger(spec.priority, 'spec.priority', p) ?? 0;
  const owner = mapOwner(metadata.ownerReferences, 'metadata.ownerReferences', p);
  const resources = mapResources(spec, p);
  const hostNetwork = optBoolean(spec.hostNetwork, 'spec.hostNetwork', p) ?? false;

  let boundAt: Date | null = null;
  let boundAtIsNow = false;
  const conditions = optArray(status.conditions, 'status.conditions', p) ?? [];
  if (nodeName !== null) {
    const scheduledIndex = conditions.findIndex((c) => isObject(c) && c.type === 'PodScheduled' && c.status === 'True');
    const scheduledAt =
      scheduledIndex === -1
        ? undefined
        : optTime(
            (conditions[scheduledIndex] as Obj).lastTransitionTime,
            `status.conditions[${scheduledIndex}].lastTransitionTime`,
            p,
          );
    const bound =
      scheduledAt ??
      optTime(status.startTime, 'status.startTime', p) ??
      optTime(metadata.creationTimestamp, 'metadata.creationTimestamp', p);
    boundAt = bound ?? now;
    boundAtIsNow = bound === undefined;
  }

  if (name === undefined) return undefined;
  const pod: PodInput = {
    namespace,
    name,
    ...(uid ? { uid } : {}),
    labels,
    nodeName,
    phase,
    boundAt,
    tolerations,
    nodeSelector,
    affinity,
    priority,
    owner,
    resources,
    hostNetwork,
  };
  return { pod, droppedPodAffinity, boundAtIsNow };
}

/** A toleration with only the fields it had (null fields read as absent), in Kubernetes' field order. */
function mapToleration(raw: unknown, field: string, p: Problems): Toleration | undefined {
  if (!isObject(raw)) {
    p.add(field, `expected a toleration object, got ${describeValue(raw)}`);
    return undefined;
  }
  const toleration: Toleration = {};
  const key = optString(raw.key, `${field}.key`, p);
  const operator = optString(raw.operator, `${field}.operator`, p);
  const value = optString(raw.value, `${field}.value`, p);
  const effect = optString(raw.effect, `${field}.effect`, p);
  const tolerationSeconds = optInteger(raw.tolerationSeconds, `${field}.tolerationSeconds`, p);
  if (key !== undefined) toleration.key = key;
  if (operator !== undefined) toleration.operator = operator;
  if (value !== undefined) toleration.value = value;
  if (effect !== undefined) toleration.effect = effect;
  if (tolerationSeconds !== undefined) toleration.tolerationSeconds = tolerationSeconds;
  return toleration;
}

function mapNodeAffinity(raw: unknown, field: string, p: Problems): NodeAffinity | undefined {
  const obj = optObject(raw, field, p);
  if (!obj) return undefined;
  const out: NodeAffinity = {};
  const requiredField = `${field}.requiredDuringSchedulingIgnoredDuringExecution`;
  const required = optObject(obj.requiredDuringSchedulingIgnoredDuringExecution, requiredField, p);
  if (required) {
    const terms = (optArray(required.nodeSelectorTerms, `${requiredField}.nodeSelectorTerms`, p) ?? []).map((term, i) =>
      mapSelectorTerm(term, `${requiredField}.nodeSelectorTerms[${i}]`, p),
    );
    out.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: terms };
  }
  const preferredField = `${field}.preferredDuringSchedulingIgnoredDuringExecution`;
  const preferred = optArray(obj.preferredDuringSchedulingIgnoredDuringExecution, preferredField, p);
  if (preferred) {
    out.preferredDuringSchedulingIgnoredDuringExecution = preferred.map((raw, i): PreferredSchedulingTerm => {
      const termField = `${preferredField}[${i}]`;
      const term = isObject(raw) ? raw : (p.add(termField, `expected an object, got ${describeValue(raw)}`), {} as Obj);
      return {
        weight: optInteger(term.weight, `${termField}.weight`, p) ?? 0,
        preference: mapSelectorTerm(term.preference, `${termField}.preference`, p),
      };
    });
  }
  return out.requiredDuringSchedulingIgnoredDuringExecution || out.preferredDuringSchedulingIgnoredDuringExecution
    ? out
    : undefined;
}

function mapSelectorTerm(raw: unknown, field: string, p: Problems): NodeSelectorTerm {
  const obj = optObject(raw, field, p) ?? {};
  const term: NodeSelectorTerm = {};
  for (const list of ['matchExpressions', 'matchFields'] as const) {
    const requirements = optArray(obj[list], `${field}.${list}`, p);
    if (requirements) term[list] = requirements.map((r, i) => mapRequirement(r, `${field}.${list}[${i}]`, p));
  }
  return term;
}

function mapRequirement(raw: unknown, field: string, p: Problems): NodeSelectorRequirement {
  const obj = optObject(raw, field, p) ?? {};
  const requirement: NodeSelectorRequirement = {
    key: optString(obj.key, `${field}.key`, p) ?? '',
    operator: optString(obj.operator, `${field}.operator`, p) ?? '',
  };
  const values = optArray(obj.values, `${field}.values`, p);
  if (values) {
    requirement.values = values.map((v, i) => optString(v, `${field}.values[${i}]`, p) ?? '');
  }
  return requirement;
}

/** The controlling owner reference (`controller: true`), else the first one; `{ kind, name }`. */
function mapOwner(raw: unknown, field: string, p: Problems): OwnerRef | null {
  const refs = optArray(raw, field, p) ?? [];
  if (refs.length === 0) return null;
  let index = refs.findIndex((ref) => isObject(ref) && ref.controller === true);
  if (index === -1) index = 0;
  const ref = optObject(refs[index], `${field}[${index}]`, p);
  if (!ref) return null;
  const kind = requiredString(ref.kind, `${field}[${index}].kind`, p);
  const name = requiredString(ref.name, `${field}[${index}].name`, p);
  return kind !== undefined && name !== undefined ? { kind, name } : null;
}

/** The pod's effective requests and limits (see pod-resources.ts); empty lists are left out. */
function mapResources(spec: Obj, p: Problems): PodResources {
  const readContainers = (listField: 'containers' | 'initContainers') =>
    (optArray(spec[listField], `spec.${listField}`, p) ?? []).map((raw, i) => {
      const field = `spec.${listField}[${i}]`;
      const container = optObject(raw, field, p) ?? {};
      const resources = optObject(container.resources, `${field}.resources`, p) ?? {};
      return {
        resources: {
          requests: quantityMap(resources.requests, `${field}.resources.requests`, p),
          limits: quantityMap(resources.limits, `${field}.resources.limits`, p),
        },
        restartPolicy: optString(container.restartPolicy, `${field}.restartPolicy`, p),
      };
    });
  const podLevel = optObject(spec.resources, 'spec.resources', p) ?? {};
  const input = {
    containers: readContainers('containers'),
    initContainers: readContainers('initContainers'),
    overhead: quantityMap(spec.overhead, 'spec.overhead', p),
    podLevel: {
      requests: quantityMap(podLevel.requests, 'spec.resources.requests', p),
      limits: quantityMap(podLevel.limits, 'spec.resources.limits', p),
    },
  };
  const requests = effectivePodRequestsList(input);
  const limits = effectivePodLimits(input);
  for (const error of [...requests.errors, ...limits.errors]) {
    const field = `spec.${error.field}`;
    if (!p.list.some((existing) => existing.field === field)) {
      p.add(
        field,
        `Invalid value: ${JSON.stringify(error.value)}: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' and be non-negative`,
      );
    }
  }
  const out: PodResources = {};
  if (Object.keys(requests.list).length > 0) out.requests = requests.list;
  if (Object.keys(limits.list).length > 0) out.limits = limits.list;
  return out;
}
