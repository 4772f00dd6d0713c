import { effectivePodRequests } from '../domain/resources/pod-requests';
import { fromResourceVector } from '../domain/resources/quantity';
import type { FieldError } from '../domain/types';
import { formatInvalidObject } from '../domain/validation/field-errors';
import { AppError } from '../kernel/errors/app-error';
import { decodePodResources } from './pod-decode';

/**
 * A core/v1 Pod body as taintwise's pod write: what scheduling reads (tolerations, nodeSelector, node
 * affinity, priority, hostNetwork, the owner, nodeName) and the pod's requests summed from its
 * containers as the scheduler charges them (effectivePodRequests). Other fields are accepted and
 * not kept. Field paths of errors are turned back into the Pod's (`tolerations[0]` → `spec.tolerations[0]`).
 */
export function podWriteBody(object: unknown, namespace: string, name: string): Record<string, unknown> {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) {
    throw new AppError('BadRequest', 'the body must be a Pod object');
  }
  const o = object as Record<string, any>;
  if (o.kind !== undefined && o.kind !== 'Pod') throw new AppError('BadRequest', 'the body\'s kind must be "Pod"');
  const metadata = objectAt(o, 'metadata');
  const spec = objectAt(o, 'spec');
  if (metadata.namespace !== undefined && metadata.namespace !== namespace) {
    throw new AppError(
      'BadRequest',
      `the namespace of the provided object does not match the namespace sent on the request`,
    );
  }
  const { containers, initContainers, overhead } = decodePodResources(spec);
  const requests = effectivePodRequests({ containers, initContainers, overhead });
  if (requests.errors.length) {
    const fields: FieldError[] = requests.errors.map((e) => ({
      field: `spec.${e.field}`,
      type: 'Invalid value',
      message: `Invalid value: ${JSON.stringify(e.value)}: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    }));
    throw new AppError('Invalid', formatInvalidObject('Pod', name, fields), fields, { kube: { name, kind: 'Pod' } });
  }
  const body: Record<string, unknown> = {};
  if (metadata.labels != null) body.labels = metadata.labels;
  if (spec.tolerations != null) body.tolerations = spec.tolerations;
  if (spec.nodeSelector != null) body.nodeSelector = spec.nodeSelector;
  if (spec.affinity?.nodeAffinity != null) body.affinity = { nodeAffinity: spec.affinity.nodeAffinity };
  // One container: its resources as written (quantities keep their spelling); several: the scheduler's sum.
  const single = containers.length === 1 && initContainers.length === 0 && overhead == null;
  if (single && containers[0]?.resources) body.resources = pick(containers[0].resources, ['requests', 'limits']);
  else if (Object.keys(requests.vector).length) body.resources = { requests: fromResourceVector(requests.vector) };
  if (typeof spec.priority === 'number') body.priority = spec.priority;
  if (spec.hostNetwork != null) body.hostNetwork = spec.hostNetwork;
  if (spec.nodeName != null && spec.nodeName !== '') body.nodeName = spec.nodeName;
  const owner = Array.isArray(metadata.ownerReferences)
    ? (metadata.ownerReferences.find((r: any) => r?.controller === true) ?? metadata.ownerReferences[0])
    : undefined;
  if (owner && typeof owner.kind === 'string' && typeof owner.name === 'string') {
    body.owner = { kind: owner.kind, name: owner.name };
  }
  return body;
}

function objectAt(o: Record<string, any>, key: string): Record<string, any> {
  const value = o[key];
  if (value == null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new AppError('BadRequest', `${key}: expected an object`);
  return value;
}

const PATHS: Array<[string, string]> = [
  ['tolerations', 'spec.tolerations'],
  ['nodeSelector', 'spec.nodeSelector'],
  ['affinity', 'spec.affinity'],
  ['priority', 'spec.priority'],
  ['hostNetwork', 'spec.hostNetwork'],
  ['nodeName', 'spec.nodeName'],
  ['resources', 'spec.containers[0].resources'],
  ['owner', 'metadata.ownerReferences[0]'],
  ['labels', 'metadata.labels'],
  ['name', 'metadata.name'],
  ['namespace', 'metadata.namespace'],
];

function kubePodPath(path: string): string {
  for (const [from, to] of PATHS) {
    if (path === from || path.startsWith(`${from}.`) || path.startsWith(`${from}[`))
      return to + path.slice(from.length);
  }
  return path;
}

export function asKubePodError(error: unknown, name: string): unknown {
  if (!(error instanceof AppError) || (error.kind !== 'Invalid' && error.kind !== 'BadRequest')) return error;
  if (error.extra.kube) return error;
  const fields = error.fieldErrors.map((e) => ({ ...e, field: kubePodPath(e.field) }));
  if (error.kind === 'Invalid') {
    return new AppError('Invalid', formatInvalidObject('Pod', name, fields), fields, { kube: { name, kind: 'Pod' } });
  }
  return new AppError(
    'BadRequest',
    fields.length
      ? `Pod "${name}" is malformed: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`
      : error.message,
    fields,
  );
}

function pick(value: unknown, keys: string[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => keys.includes(k)));
}
