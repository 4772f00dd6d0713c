import type { TaintwiseEvent } from '../kernel/events/event-bus';
import { kubeTime } from './object-meta';

/**
 * A taintwise event as a core/v1 Event, so `kubectl describe` and `kubectl get events` tell the story.
 * Reasons and messages follow the component that does the same in a cluster: the taint manager
 * (kubernetes pkg/controller/tainteviction/taint_eviction.go: reason `TaintManagerEviction`,
 * "Marking for deletion Pod %s" when it deletes, "Cancelling deletion of Pod %s"), the kubelet for
 * cordon (`NodeNotSchedulable` / `NodeSchedulable`). Events of taintwise's own steps keep their type
 * as the reason. Node events live in the `default` namespace, as the API server records them.
 */
export interface KubeEvent {
  kind: 'Event';
  apiVersion: 'v1';
  metadata: { name: string; namespace: string; uid: string; resourceVersion: string; creationTimestamp?: string };
  involvedObject: { kind: string; name: string; namespace?: string; apiVersion: 'v1' };
  reason: string;
  message: string;
  source: { component: string };
  firstTimestamp?: string;
  lastTimestamp?: string;
  count: number;
  type: 'Normal' | 'Warning';
  reportingComponent: string;
}

export function toKubeEvent(e: TaintwiseEvent): KubeEvent {
  const isPod = e.subjectKind === 'Pod';
  const [podNamespace, podName] = isPod ? splitKey(e.subjectName) : ['default', e.subjectName];
  const { reason, message, component } = describe(e);
  const at = kubeTime(new Date(e.createdAt));
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: {
      name: `${isPod ? podName : e.subjectName}.${e.id}`,
      namespace: podNamespace,
      uid: `event-${e.id}`,
      resourceVersion: e.id,
      creationTimestamp: at,
    },
    involvedObject: {
      kind: e.subjectKind,
      name: isPod ? podName : e.subjectName,
      ...(isPod ? { namespace: podNamespace } : {}),
      apiVersion: 'v1',
    },
    reason,
    message,
    source: { component },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    type: 'Normal',
    reportingComponent: component,
  };
}

function splitKey(key: string): [string, string] {
  const slash = key.indexOf('/');
  return slash < 0 ? ['default', key] : [key.slice(0, slash), key.slice(slash + 1)];
}

function describe(e: TaintwiseEvent): { reason: string; message: string; component: string } {
  const d = e.data ?? {};
  switch (e.type) {
    case 'EvictionExecuted':
      return {
        reason: 'TaintManagerEviction',
        message: `Marking for deletion Pod ${e.subjectName}`,
        component: 'taint-eviction-controller',
      };
    case 'EvictionCancelled':
      return {
        reason: 'TaintManagerEviction',
        message: `Cancelling deletion of Pod ${e.subjectName}`,
        component: 'taint-eviction-controller',
      };
    case 'EvictionScheduled':
      return {
        reason: 'EvictionScheduled',
        message: `Pod ${e.subjectName} will be evicted from node ${String(d.node)} at ${String(d.evictAt)}${d.reason ? `: ${String(d.reason)}` : ''}`,
        component: 'taint-eviction-controller',
      };
    case 'NodeCordoned':
      return {
        reason: 'NodeNotSchedulable',
        message: `Node ${e.subjectName} status is now: NodeNotSchedulable`,
        component: 'taintwise',
      };
    case 'NodeUncordoned':
      return {
        reason: 'NodeSchedulable',
        message: `Node ${e.subjectName} status is now: NodeSchedulable`,
        component: 'taintwise',
      };
    case 'TaintsApplied':
    case 'NodeReplaced':
      return {
        reason: e.type,
        message: `taints: ${taintList(d.taints)} (were ${taintList(d.previousTaints)})`,
        component: 'taintwise',
      };
    default:
      return { reason: e.type, message: `${e.type} by ${e.actor}`, component: 'taintwise' };
  }
}

function taintList(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) return '<none>';
  return value
    .map((t: any) => `${String(t?.key)}${t?.value ? `=${String(t.value)}` : ''}:${String(t?.effect)}`)
    .join(', ');
}
