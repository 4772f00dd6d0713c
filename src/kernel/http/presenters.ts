import type { Toleration } from '../../domain/types';
import type { StoredNode, StoredPod } from '../model/stored-objects';
import { taintToJson } from '../model/taint-json';

/** API.md "Node" and "Pod" JSON: Kubernetes field names, RFC 3339 times, server fields included. */
export const presentTaint = taintToJson;

export function presentNode(n: StoredNode): Record<string, unknown> {
  return {
    name: n.name,
    labels: n.labels,
    taints: n.taints.map(presentTaint),
    unschedulable: n.unschedulable,
    conditions: n.conditions.map((c) => ({
      ...c,
      ...(c.lastTransitionTime ? { lastTransitionTime: new Date(c.lastTransitionTime).toISOString() } : {}),
    })),
    allocatable: n.allocatable,
    resourceVersion: n.resourceVersion,
    createdAt: n.createdAt.toISOString(),
    updatedAt: n.updatedAt.toISOString(),
  };
}

export function presentToleration(t: Toleration): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (t.key !== undefined) out.key = t.key;
  if (t.operator !== undefined) out.operator = t.operator;
  if (t.value !== undefined) out.value = t.value;
  if (t.effect !== undefined) out.effect = t.effect;
  if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) out.tolerationSeconds = t.tolerationSeconds;
  return out;
}

export function presentPod(p: StoredPod): Record<string, unknown> {
  return {
    namespace: p.namespace,
    name: p.name,
    uid: p.uid,
    labels: p.labels,
    nodeName: p.nodeName,
    phase: p.phase,
    boundAt: p.boundAt ? p.boundAt.toISOString() : null,
    tolerations: p.tolerations.map(presentToleration),
    nodeSelector: p.nodeSelector,
    affinity: p.affinity,
    priority: p.priority,
    owner: p.owner,
    resources: p.resources,
    hostNetwork: p.hostNetwork,
    resourceVersion: p.resourceVersion,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
