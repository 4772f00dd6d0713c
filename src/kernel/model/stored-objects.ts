import type {
  Affinity,
  NodeCondition,
  OwnerRef,
  PodResources,
  ResourceList,
  ResourceVector,
  Taint,
  Toleration,
} from '../../domain/types';

/** A node as taintwise stores it (API.md "Node"): the repositories return these, never Prisma rows. */
export interface StoredNode {
  name: string;
  labels: Record<string, string>;
  taints: Taint[];
  unschedulable: boolean;
  conditions: NodeCondition[];
  allocatable: ResourceList | null;
  resourceVersion: string;
  createdAt: Date;
  updatedAt: Date;
}

/** Node conditions from their JSON form (as stored): `lastTransitionTime` back to a Date. */
export function reviveConditions(raw: unknown): NodeCondition[] {
  return ((raw ?? []) as Array<NodeCondition & { lastTransitionTime?: string }>).map((c) => ({
    ...c,
    ...(c.lastTransitionTime ? { lastTransitionTime: new Date(c.lastTransitionTime) } : {}),
  }));
}

export const POD_PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Evicted'] as const;
export type PodPhase = (typeof POD_PHASES)[number] | string;

/** A pod as taintwise stores it (API.md "Pod"). `requests` is the canonical vector NodeResourcesFit reads. */
export interface StoredPod {
  namespace: string;
  name: string;
  uid: string;
  /** metadata.labels: what disruption budgets select pods by. */
  labels: Record<string, string>;
  nodeName: string | null;
  phase: PodPhase;
  boundAt: Date | null;
  tolerations: Toleration[];
  nodeSelector: Record<string, string>;
  affinity: Affinity | null;
  priority: number;
  owner: OwnerRef | null;
  resources: PodResources;
  requests: ResourceVector;
  hostNetwork: boolean;
  resourceVersion: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * What the eviction planner decides a bound pod's eviction from (SEMANTICS A.3): its identity, binding and
 * tolerations. Every StoredPod is one. A NoExecute taint over 100 full nodes reads only these fields for its
 * 11,000 pods (`PodRepository.findToPlanOnNodes`), and the whole pod only for the ones it evicts at once.
 */
export type PodToPlan = Pick<
  StoredPod,
  'namespace' | 'name' | 'uid' | 'nodeName' | 'phase' | 'boundAt' | 'createdAt' | 'tolerations'
>;

/** Pods that occupy their node (count toward its resources, are subject to NoExecute). */
export function isActivePhase(phase: PodPhase): boolean {
  return phase === 'Pending' || phase === 'Running';
}

export function podKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}
