import type { DelayedJob } from '../timers/delayed-jobs';
import type { StoredNode, StoredPod } from '../model/stored-objects';
import type { StoredBudget } from '../model/stored-budget';

/** Who is making a change: recorded on every event (audit, issue 7). */
export interface Actor {
  name: string;
  requestId?: string;
}

export interface PendingEvent {
  type: string;
  subjectKind: 'Node' | 'Pod' | 'Eviction' | 'Import' | 'Taints' | 'PodDisruptionBudget' | 'Webhook';
  subjectName: string;
  data: Record<string, unknown>;
}

/**
 * Everything a transaction changed that must be told to the rest of the process once it commits:
 * the snapshot, the timers, the event stream, other replicas. Collected during the transaction,
 * applied only after COMMIT, so a rolled-back change leaves no trace anywhere.
 */
export class ChangeSet {
  readonly upsertedNodes = new Map<string, StoredNode>();
  readonly deletedNodes = new Set<string>();
  readonly upsertedPods = new Map<string, StoredPod>();
  readonly deletedPods = new Map<string, { namespace: string; name: string }>();
  readonly upsertedBudgets = new Map<string, StoredBudget>();
  readonly deletedBudgets = new Map<string, { namespace: string; name: string }>();
  readonly timersToSchedule = new Map<string, DelayedJob>();
  readonly events: PendingEvent[] = [];
  evictions = { immediate: 0, scheduled: 0, cancelled: 0, retimed: 0, held: 0 };
  /** Set by bulk operations: other replicas reload everything instead of object by object. */
  bulk = false;
  /**
   * Set by the mirror (src/mirror) only: the change comes from the cluster, so it may write cluster-owned nodes
   * and pods. Any other change touching one is refused (UnitOfWork, a 409).
   */
  fromCluster = false;

  constructor(readonly actor: Actor) {}

  node(node: StoredNode): void {
    this.deletedNodes.delete(node.name);
    this.upsertedNodes.set(node.name, node);
  }

  nodeDeleted(name: string): void {
    this.upsertedNodes.delete(name);
    this.deletedNodes.add(name);
  }

  pod(pod: StoredPod): void {
    const key = `${pod.namespace}/${pod.name}`;
    this.deletedPods.delete(key);
    this.upsertedPods.set(key, pod);
  }

  podDeleted(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    this.upsertedPods.delete(key);
    this.deletedPods.set(key, { namespace, name });
  }

  budget(budget: StoredBudget): void {
    const key = `${budget.namespace}/${budget.name}`;
    this.deletedBudgets.delete(key);
    this.upsertedBudgets.set(key, budget);
  }

  budgetDeleted(namespace: string, name: string): void {
    const key = `${namespace}/${name}`;
    this.upsertedBudgets.delete(key);
    this.deletedBudgets.set(key, { namespace, name });
  }

  /** Arms a timer after COMMIT; the same id twice in one change is one timer. */
  schedule(job: DelayedJob): void {
    this.timersToSchedule.set(job.id, job);
  }

  event(event: PendingEvent): void {
    this.events.push(event);
  }
}
