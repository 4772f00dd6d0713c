import type { FieldError } from '../domain/types';
import { formatInvalidObject } from '../domain/validation/field-errors';
import { AppError } from '../kernel/errors/app-error';

/**
 * A core/v1 Node body (create, update, a patched object) as the body of taintwise's node write, and
 * taintwise's field paths back as Kubernetes' (`taints[0].effect` → `spec.taints[0].effect`), so errors
 * name the field the client sent. Fields taintwise does not model (annotations, spec.podCIDR,
 * status.nodeInfo...) are accepted and not kept, as the README's "Use kubectl" section says.
 */
const PATHS: Array<[string, string]> = [
  ['labels', 'metadata.labels'],
  ['name', 'metadata.name'],
  ['resourceVersion', 'metadata.resourceVersion'],
  ['taints', 'spec.taints'],
  ['unschedulable', 'spec.unschedulable'],
  ['conditions', 'status.conditions'],
  ['allocatable', 'status.allocatable'],
];

export function nodeWriteBody(object: unknown, name: string): Record<string, unknown> {
  if (object === null || typeof object !== 'object' || Array.isArray(object)) {
    throw new AppError('BadRequest', 'the body must be a Node object');
  }
  const o = object as Record<string, any>;
  if (o.kind !== undefined && o.kind !== 'Node') {
    throw new AppError('BadRequest', 'the body\'s kind must be "Node"');
  }
  const metadata = section(o, 'metadata');
  const spec = section(o, 'spec');
  const status = section(o, 'status');
  const body: Record<string, unknown> = {};
  if (metadata.name !== undefined && metadata.name !== name) body.name = metadata.name;
  if (metadata.labels !== undefined && metadata.labels !== null) body.labels = metadata.labels;
  if (metadata.resourceVersion !== undefined && metadata.resourceVersion !== '') {
    body.resourceVersion = metadata.resourceVersion;
  }
  if (spec.taints !== undefined && spec.taints !== null) body.taints = spec.taints;
  if (spec.unschedulable !== undefined && spec.unschedulable !== null) body.unschedulable = spec.unschedulable;
  if (status.conditions !== undefined && status.conditions !== null) {
    body.conditions = Array.isArray(status.conditions)
      ? status.conditions.map((c: unknown) => pick(c, ['type', 'status', 'reason', 'message', 'lastTransitionTime']))
      : status.conditions;
  }
  if (status.allocatable !== undefined) body.allocatable = status.allocatable;
  return body;
}

function section(o: Record<string, any>, key: string): Record<string, any> {
  const value = o[key];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new AppError('BadRequest', `${key}: expected an object`, [
      { field: key, type: 'Invalid value', message: 'Invalid value: expected an object' },
    ]);
  }
  return value;
}

function pick(value: unknown, keys: string[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => keys.includes(k)));
}

export function kubeFieldPath(path: string): string {
  for (const [from, to] of PATHS) {
    if (path === from || path.startsWith(`${from}.`) || path.startsWith(`${from}[`))
      return to + path.slice(from.length);
  }
  return path;
}

/** An error of the node write with Kubernetes' field paths, message and Status details. */
export function asKubeNodeError(error: unknown, name: string): unknown {
  if (!(error instanceof AppError)) return error;
  if (error.kind !== 'Invalid' && error.kind !== 'BadRequest') return error;
  const fields: FieldError[] = error.fieldErrors.map((e) => ({ ...e, field: kubeFieldPath(e.field) }));
  if (error.kind === 'Invalid') {
    return new AppError('Invalid', formatInvalidObject('Node', name, fields), fields, {
      kube: { name, group: '', kind: 'Node' },
    });
  }
  const message = fields.length
    ? `Node "${name}" is malformed: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`
    : error.message;
  return new AppError('BadRequest', message, fields);
}
