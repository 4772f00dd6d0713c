import { fromEntries } from './key-value.model';
import type { NodeInput, PodInput } from './inventory.input';
import type { PodSpecInput } from './pod-spec.input';
import type { TaintInput, TolerationInput } from './taint.model';

/**
 * GraphQL inputs → the same JSON bodies REST takes, so both transports go through one parser and
 * one set of validators (ARCHITECTURE.md habits: a rule lives in one place). Absent fields stay absent.
 */
export function podSpecBody(input: PodSpecInput | null | undefined): Record<string, unknown> {
  if (!input) return {};
  const out: Record<string, unknown> = {};
  if (input.tolerations) out.tolerations = input.tolerations.map(tolerationBody);
  if (input.nodeSelector) out.nodeSelector = fromEntries(input.nodeSelector);
  if (input.affinity !== undefined) out.affinity = input.affinity === null ? null : stripUndefined(input.affinity);
  if (input.resources)
    out.resources = {
      ...(input.resources.requests ? { requests: fromEntries(input.resources.requests) } : {}),
      ...(input.resources.limits ? { limits: fromEntries(input.resources.limits) } : {}),
    };
  if (input.priority !== undefined && input.priority !== null) out.priority = input.priority;
  if (input.owner !== undefined) out.owner = input.owner;
  if (input.hostNetwork !== undefined && input.hostNetwork !== null) out.hostNetwork = input.hostNetwork;
  return out;
}

export function tolerationBody(t: TolerationInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (t.key !== undefined && t.key !== null) out.key = t.key;
  if (t.operator !== undefined && t.operator !== null) out.operator = t.operator;
  if (t.value !== undefined && t.value !== null) out.value = t.value;
  if (t.effect !== undefined && t.effect !== null) out.effect = t.effect;
  if (t.tolerationSeconds !== undefined) out.tolerationSeconds = t.tolerationSeconds;
  return out;
}

export function taintBody(t: TaintInput): Record<string, unknown> {
  return { key: t.key, value: t.value ?? '', effect: t.effect };
}

/** Class instances from GraphQL → plain JSON without undefined members. */
export function stripUndefined<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** GraphQL NodeInput → `PUT /v1/nodes/{name}`'s body. */
export function nodeBody(input: NodeInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (input.labels) out.labels = fromEntries(input.labels);
  if (input.taints) out.taints = input.taints.map(taintBody);
  if (input.unschedulable !== undefined && input.unschedulable !== null) out.unschedulable = input.unschedulable;
  if (input.conditions) out.conditions = input.conditions.map((c) => stripUndefined({ ...c }));
  if (input.allocatable !== undefined)
    out.allocatable = input.allocatable === null ? null : fromEntries(input.allocatable);
  if (input.resourceVersion !== undefined && input.resourceVersion !== null)
    out.resourceVersion = input.resourceVersion;
  return out;
}

/** GraphQL PodInput → `PUT /v1/namespaces/{ns}/pods/{name}`'s body. */
export function podBody(input: PodInput): Record<string, unknown> {
  const out = podSpecBody(input);
  if (input.labels) out.labels = fromEntries(input.labels);
  for (const field of ['nodeName', 'phase', 'uid', 'resourceVersion'] as const) {
    if (input[field] !== undefined && (input[field] !== null || field === 'nodeName')) out[field] = input[field];
  }
  return out;
}
