import type { NodeCondition, Taint } from '../domain/types';
import type { StoredNode } from '../kernel/model/stored-objects';
import { derivedUid, kubeTime } from './object-meta';

/** A core/v1 Node as JSON, the fields taintwise models (others are neither stored nor echoed). */
export interface KubeNode {
  kind: 'Node';
  apiVersion: 'v1';
  metadata: {
    name: string;
    uid: string;
    resourceVersion: string;
    creationTimestamp?: string;
    labels?: Record<string, string>;
  };
  spec: { taints?: KubeTaint[]; unschedulable?: boolean };
  status: { conditions?: KubeNodeCondition[]; allocatable?: Record<string, string>; capacity?: Record<string, string> };
}

export interface KubeTaint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export interface KubeNodeCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastHeartbeatTime?: string;
}

export function toKubeNode(node: StoredNode): KubeNode {
  const labels = Object.keys(node.labels).length ? { labels: { ...node.labels } } : {};
  const spec: KubeNode['spec'] = {};
  if (node.taints.length) spec.taints = node.taints.map(toKubeTaint);
  if (node.unschedulable) spec.unschedulable = true;
  const status: KubeNode['status'] = {};
  if (node.conditions.length) status.conditions = node.conditions.map(toKubeCondition);
  if (node.allocatable) {
    status.allocatable = { ...node.allocatable };
    // taintwise stores allocatable only; capacity is shown equal so `describe` has both sections.
    status.capacity = { ...node.allocatable };
  }
  return {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: {
      name: node.name,
      uid: derivedUid('Node', node.name, node.createdAt.toISOString()),
      resourceVersion: node.resourceVersion,
      creationTimestamp: kubeTime(node.createdAt),
      ...labels,
    },
    spec,
    status,
  };
}

function toKubeTaint(t: Taint): KubeTaint {
  const added = kubeTime(t.timeAdded);
  return {
    key: t.key,
    ...(t.value ? { value: t.value } : {}),
    effect: t.effect,
    ...(added ? { timeAdded: added } : {}),
  };
}

function toKubeCondition(c: NodeCondition): KubeNodeCondition {
  const out: KubeNodeCondition = { type: c.type, status: c.status };
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  const at = kubeTime(c.lastTransitionTime);
  if (at) out.lastTransitionTime = at;
  return out;
}
