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
  NodeCondition,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  OwnerRef,
  PodResources,
  PreferredSchedulingTerm,
  Taint,
  TaintEffect,
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
import type { ImportError, NodeInput, PodInput } from './inventory-input';
import { effectivePodLimits, effectivePodRequestsList } from './pod-resources';

export interface SkippedKind {
  kind: string;
  count: number;
}

export interface ImportSummary {
  documents: number;
  /** Objects found in the documents (list items and single objects). */
  items: number;
  nodes: number;
  pods: number;
  podsByPhase: Record<string, number>;
  /** Pods whose phase is neither Pending nor Running: imported, but they hold no resources on a node. */
  inactivePods: number;
  unboundPods: number;
  /** Pods that had podAffinity/podAntiAffinity, which taintwise does not model and dropped. */
  podAffinityDropped: number;
  /** Bound pods without any time to date their binding from; `boundAt` was set to `now`. */
  boundAtDefaultedToNow: number;
  skipped: number;
  errors: number;
}

export interface MapResult {
  nodes: NodeInput[];
  pods: PodInput[];
  /** Items of other kinds (Event, Service, ReplicaSet...), counted by kind, in order of first appearance. */
  skipped: SkippedKind[];
  errors: ImportError[];
  summary: ImportSummary;
  /** Human-readable remarks for the import answer. */
  notes: string[];
}

/** A list item or single object with where it came from. */
interface FlatItem {
  index: number;
  document: number;
  /** `items[3]` or `` for a single object. */
  path: string;
  value: unknown;
  /** The kind the enclosing list implies (`PodList` → `Pod`), if any. */
  listItemKind?: string;
}

const MAX_LIST_NESTING = 4;

/** Flattens Lists (also nested ones) and single objects into items. */
function flatten(documents: readonly unknown[], errors: ImportError[]): FlatItem[] {
  const items: FlatItem[] = [];
  const visit = (value: unknown, document: number, path: string, listItemKind: string | undefined, depth: number) => {
    if (Array.isArray(value)) {
      if (depth >= MAX_LIST_NESTING) {
        errors.push({
          index: items.length,
          document,
          kind: 'List',
          field: path || undefined,
          message: `lists nested more than ${MAX_LIST_NESTING} deep`,
        });
        return;
      }
      value.forEach((item, i) => visit(item, document, `${path}[${i}]`, listItemKind, depth + 1));
      return;
    }
    if (isObject(value) && isList(value)) {
      const kind = typeof value.kind === 'string' ? value.kind : 'List';
      if (value.items !== undefined && value.items !== null && !Array.isArray(value.items)) {
        errors.push({
          index: items.length,
          document,
          kind,
          field: join(path, 'items'),
          message: `items must be an array, not ${describeValue(value.items)}`,
        });
        return;
      }
      const itemKind = kind !== 'List' && kind.endsWith('List') ? kind.slice(0, -'List'.length) : undefined;
      if (depth >= MAX_LIST_NESTING) {
        errors.push({
          index: items.length,
          document,
          kind,
          field: path || undefined,
          message: `lists nested more than ${MAX_LIST_NESTING} deep`,
        });
        return;
      }
      ((value.items as unknown[] | null | undefined) ?? []).forEach((item, i) =>
        visit(item, document, join(path, `items[${i}]`), itemKind, depth + 1),
      );
      return;
    }
    items.push({ index: items.length, document, path, value, listItemKind });
  };
  documents.forEach((doc, document) => {
    if (isObject(doc) || Array.isArray(doc)) visit(doc, document, '', undefined, 0);
    else
      errors.push({
        index: items.length,
        document,
        kind: 'Document',
        message: `document ${document + 1} is ${describeValue(doc)}; expected a Kubernetes object`,
      });
  });
  return items;
}

function join(path: string, field: string): string {
  return path ? `${path}.${field}` : field;
}

function isList(obj: Obj): boolean {
  if (typeof obj.kind === 'string') return obj.kind.endsWith('List');
  // No kind: a list when it has items and is not itself an object with a spec (a kind-less Node or Pod).
  return 'items' in obj && !isObject(obj.spec);
}

/** The kind of an item: its own `kind`, else the one its list implies, else guessed from its shape. */
export function itemKind(value: Obj, listItemKind?: string): string | undefined {
  if (typeof value.kind === 'string' && value.kind !== '') return value.kind;
  if (listItemKind) return listItemKind;
  const spec = isObject(value.spec) ? value.spec : {};
  const status = isObject(value.status) ? value.status : {};
  if (Array.isArray(spec.containers)) return 'Pod';
  if (
    'taints' in spec ||
    'podCIDR' in spec ||
    'providerID' in spec ||
    'unschedulable' in spec ||
    isObject(status.nodeInfo) ||
    isObject(status.allocatable)
  )
    return 'Node';
  return undefined;
}

/**
 * Documents → nodes, pods, skipped kinds and per-item errors.
 * @param now stands in for the binding time of a bound pod that carries no time at all.
 */
export function mapManifests(documents: readonly unknown[], now: Date): MapResult {
  const errors: ImportError[] = [];
  const nodes: NodeInput[] = [];
  const pods: PodInput[] = [];
  const skipped = new Map<string, number>();
  const summary: ImportSummary = {
    documents: documents.length,
    items: 0,
    nodes: 0,
    pods: 0,
    podsByPhase: {},
    inactivePods: 0,
    unboundPods: 0,
    podAffinityDropped: 0,
    boundAtDefaultedToNow: 0,
    skipped: 0,
    errors: 0,
  };
  const nodeNames = new Map<string, number>();
  const podKeys = new Map<string, number>();

  const items = flatten(documents, errors);
  summary.items = items.length;

  for (const item of items) {
    const base = { index: item.index, document: item.document };
    const at = (field: string) => join(item.path, field) || undefined;
    if (!isObject(item.value)) {
      errors.push({
        ...base,
        kind: item.listItemKind ?? 'Unknown',
        field: item.path || undefined,
        message: `expected an object, got ${describeValue(item.value)}`,
      });
      continue;
    }
    const kind = itemKind(item.value, item.listItemKind);
    if (kind === undefined) {
      errors.push({
        ...base,
        kind: 'Unknown',
        field: item.path || undefined,
        message:
          "cannot tell what this object is: it has no kind, is not in a NodeList or PodList, and has neither a Node's nor a Pod's fields",
      });
      continue;
    }
    if (kind !== 'Node' && kind !== 'Pod') {
      skipped.set(kind, (skipped.get(kind) ?? 0) + 1);
      continue;
    }
    const p = new Problems();
    if (kind === 'Node') {
      const node = mapNode(item.value, p);
      const name = node?.name ?? nameOf(item.value);
      if (node && p.empty) {
        const first = nodeNames.get(node.name);
        if (first !== undefined) {
          errors.push({
            ...base,
            kind,
            name,
            field: at('metadata.name'),
            message: `duplicate Node "${node.name}" (first seen as item ${first}); this one was left out`,
          });
          continue;
        }
        nodeNames.set(node.name, item.index);
        nodes.push(node);
      } else {
        for (const problem of p.list)
          errors.push({
            ...base,
            kind,
            ...(name ? { name } : {}),
            field: at(problem.field),
            message: `${problem.field}: ${problem.message}`,
          });
      }
    } else {
      const result = mapPod(item.value, now, p);
      const name = result ? `${result.pod.namespace}/${result.pod.name}` : podNameOf(item.value);
      if (result && p.empty) {
        const first = podKeys.get(name!);
        if (first !== undefined) {
          errors.push({
            ...base,
            kind,
            name,
            field: at('metadata.name'),
            message: `duplicate Pod "${name}" (first seen as item ${first}); this one was left out`,
          });
          continue;
        }
        podKeys.set(name!, item.index);
        pods.push(result.pod);
        const { pod } = result;
        summary.podsByPhase[pod.phase] = (summary.podsByPhase[pod.phase] ?? 0) + 1;
        if (pod.phase !== 'Pending' && pod.phase !== 'Running') summary.inactivePods++;
        if (pod.nodeName === null) summary.unboundPods++;
        if (result.droppedPodAffinity) summary.podAffinityDropped++;
        if (result.boundAtIsNow) summary.boundAtDefaultedToNow++;
      } else {
        for (const problem of p.list)
          errors.push({
            ...base,
            kind,
            ...(name ? { name } : {}),
            field: at(problem.field),
            message: `${problem.field}: ${problem.message}`,
          });
      }
    }
  }

  summary.nodes = nodes.length;
  summary.pods = pods.length;
  const skippedList = [...skipped].map(([kind, count]) => ({ kind, count }));
  summary.skipped = skippedList.reduce((n, s) => n + s.count, 0);
  summary.errors = errors.length;
  return { nodes, pods, skipped: skippedList, errors, summary, notes: notesFor(summary, skippedList) };
}

function notesFor(summary: ImportSummary, skipped: SkippedKind[]): string[] {
  const notes: string[] = [];
  if (summary.inactivePods > 0) {
    const phases = Object.entries(summary.podsByPhase)
      .filter(([phase]) => phase !== 'Pending' && phase !== 'Running')
      .map(([phase, n]) => `${n} ${phase}`)
      .join(', ');
    notes.push(
      `${summary.inactivePods} pod(s) are neither Pending nor Running (${phases}): imported as they are, but they hold no resources on their node`,
    );
  }
  if (summary.podAffinityDropped > 0) {
    notes.push(
      `${summary.podAffinityDropped} pod(s) had podAffinity/podAntiAffinity, which taintwise does not model: only nodeAffinity was kept`,
    );
  }
  if (summary.boundAtDefaultedToNow > 0) {
    notes.push(
      `${summary.boundAtDefaultedToNow} bound pod(s) carried no PodScheduled time, startTime or creationTimestamp: boundAt is the import time`,
    );
  }
  if (skipped.length > 0) {
    notes.push(
      `skipped ${summary.skipped} object(s) of other kinds: ${skipped.map((s) => `${s.count} ${s.kind}`).join(', ')}`,
    );
  }
  return notes;
}

function nameOf(value: Obj): string | undefined {
  const metadata = isObject(value.metadata) ? value.metadata : undefined;
  return typeof metadata?.name === 'string' && metadata.name !== '' ? metadata.name : undefined;
}

function podNameOf(value: Obj): string | undefined {
  const name = nameOf(value);
  if (!name) return undefined;
  const metadata = value.metadata as Obj;
  const namespace =
    typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : 'default';
  return `${namespace}/${name}`;
}

// ---------------------------------------------------------------------------------------------
// Node

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

interface MappedPod {
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
