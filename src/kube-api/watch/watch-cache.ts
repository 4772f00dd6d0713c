import {
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Subject, type Subscription } from 'rxjs';
import { EventBus, type TaintwiseEvent } from '../../kernel/events/event-bus';
import type { StoredBudget } from '../../kernel/model/stored-budget';
import type { StoredNode, StoredPod } from '../../kernel/model/stored-objects';
import { SnapshotService, type AppliedChanges } from '../../kernel/snapshot/snapshot.service';
import { KubeVersions, nodeKey, pdbKey, podKey } from './kube-versions';

export type WatchResource = 'nodes' | 'pods' | 'poddisruptionbudgets' | 'events';

/** One change as a watch delivers it (before selectors): the object now, or as it was last seen when deleted. */
export interface WatchEvent {
  version: number;
  resource: WatchResource;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  namespace?: string;
  name: string;
  /** Absent only for a deleted object the snapshot no longer held (a finished pod): name and namespace then. */
  object?: StoredNode | StoredPod | StoredBudget | TaintwiseEvent;
}

/** How many changes a watch can resume across (the API server keeps a window too, then answers 410). */
const WINDOW = 10_000;

/**
 * The Kubernetes API's watch cache (like the API server's cacher): the changes the snapshot applied and the events
 * committed, in commit order, each with the next resourceVersion (KubeVersions), the last WINDOW of them kept so a
 * watch can resume from a version; live watchers subscribe to `events`.
 * - A pod taintwise evicts is gone from the Kubernetes API (SEMANTICS A.5): its watchers see it MODIFIED to
 *   Failed/Evicted (the taint manager's DisruptionTarget condition), then DELETED.
 * - A budget's status is derived from the pods it selects (as the disruption controller writes it): a change of
 *   such a pod is a MODIFIED of the budget, with the status as it is then.
 * - A reload of the whole snapshot (another replica's bulk import, a lost change feed) cannot be told apart object
 *   by object: the window is emptied and watchers are closed with 410, so they relist.
 * No copy of the objects is kept beyond the window (150,000 pods would weigh on the collector, issue 16): a change
 * is ADDED when the object was just created (createdAt = updatedAt), MODIFIED otherwise — informers treat both as
 * "store this object" — and a watcher whose selector no longer matches a changed object is sent DELETED.
 */
@Injectable()
export class WatchCache implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly window: WatchEvent[] = [];
  private readonly subscriptions: Subscription[] = [];
  readonly events = new Subject<WatchEvent>();
  /** Emits when the window was emptied (a reload): open watches end with 410. */
  readonly expired = new Subject<void>();
  private oldest = 0;

  constructor(
    private readonly snapshots: SnapshotService,
    private readonly bus: EventBus,
    private readonly versions: KubeVersions,
  ) {}

  onApplicationBootstrap(): void {
    this.subscriptions.push(this.snapshots.applied.subscribe((changes) => this.take(changes)));
    this.subscriptions.push(this.bus.events.subscribe((event) => this.takeEvent(event)));
  }

  /** Open watches end before the server closes (it would otherwise wait for them). */
  beforeApplicationShutdown(): void {
    for (const s of this.subscriptions) s.unsubscribe();
    this.events.complete();
  }

  onApplicationShutdown(): void {
    this.expired.complete();
  }

  /** Versions after this one can be replayed; older ones are 410. */
  get oldestResumable(): number {
    return Math.max(this.oldest, this.versions.oldestThisProcess);
  }

  /** The retained changes after `since`, in order. */
  after(since: number): WatchEvent[] {
    let i = this.window.length;
    while (i > 0 && this.window[i - 1].version > since) i--;
    return this.window.slice(i);
  }

  private take(changes: AppliedChanges): void {
    if (changes.reload) {
      this.window.length = 0;
      this.oldest = this.versions.reset();
      this.expired.next();
      return;
    }
    for (const { name, last } of changes.deletedNodes) {
      this.push({
        version: this.versions.deleted(nodeKey(name)),
        resource: 'nodes',
        type: 'DELETED',
        name,
        object: last,
      });
    }
    for (const node of changes.nodes) {
      const version = this.versions.next(nodeKey(node.name), node.resourceVersion);
      this.push({ version, resource: 'nodes', type: typeOf(node), name: node.name, object: node });
    }
    for (const { namespace, name, last } of changes.deletedPods) this.podGone(namespace, name, last);
    for (const pod of changes.pods) {
      const version = this.versions.next(podKey(pod.namespace, pod.name), pod.resourceVersion);
      const base = { resource: 'pods' as const, namespace: pod.namespace, name: pod.name, object: pod, version };
      if (pod.phase !== 'Evicted') {
        this.push({ ...base, type: typeOf(pod) });
        continue;
      }
      // shown once as the taint manager leaves it, then gone
      this.push({ ...base, type: 'MODIFIED' });
      this.podGone(pod.namespace, pod.name, pod);
    }
    this.takeBudgets(changes);
  }

  /** Budgets written or deleted, then those whose derived status may have moved with the pods that changed. */
  private takeBudgets(changes: AppliedChanges): void {
    const done = new Set<string>();
    for (const { namespace, name, last } of changes.deletedBudgets) {
      done.add(pdbKey(namespace, name));
      const version = this.versions.deleted(pdbKey(namespace, name));
      this.push({ version, resource: 'poddisruptionbudgets', type: 'DELETED', namespace, name, object: last });
    }
    const written = (budget: StoredBudget, type: WatchEvent['type']) => {
      const key = pdbKey(budget.namespace, budget.name);
      if (done.has(key)) return;
      done.add(key);
      const version = this.versions.next(key, budget.resourceVersion);
      const base = { resource: 'poddisruptionbudgets' as const, namespace: budget.namespace, name: budget.name };
      this.push({ ...base, version, type, object: budget });
    };
    for (const budget of changes.budgets) written(budget, typeOf(budget));
    const index = this.snapshots.snapshot.budgets;
    if (index.size === 0) return;
    const moved = [...changes.pods, ...changes.deletedPods.flatMap((d) => (d.last ? [d.last] : []))];
    // A sweep batch moves 5,000 pods, each once tested against every budget of its namespace; pods of one
    // workload share their labels object (the rows' JSON is interned), so the budgets selecting a labels object
    // are looked up once per batch. The index does not change during this loop: the same budgets, same order.
    const selecting = new Map<string, Map<StoredPod['labels'], StoredBudget[]>>();
    for (const pod of moved) {
      let inNamespace = selecting.get(pod.namespace);
      if (!inNamespace) selecting.set(pod.namespace, (inNamespace = new Map()));
      let budgets = inNamespace.get(pod.labels);
      if (!budgets) inNamespace.set(pod.labels, (budgets = index.selecting(pod.namespace, pod.labels)));
      for (const budget of budgets) written(budget, 'MODIFIED');
    }
  }

  private takeEvent(event: TaintwiseEvent): void {
    const [namespace, name] =
      event.subjectKind === 'Pod' ? event.subjectName.split('/') : ['default', event.subjectName];
    const version = this.versions.tick(); // an event is written once: there is no later version to remember
    this.push({ version, resource: 'events', type: 'ADDED', namespace, name: `${name}.${event.id}`, object: event });
  }

  private podGone(namespace: string, name: string, last: StoredPod | undefined): void {
    const version = this.versions.deleted(podKey(namespace, name));
    this.push({ version, resource: 'pods', type: 'DELETED', namespace, name, object: last });
  }

  private push(event: WatchEvent): void {
    this.window.push(event);
    // trimmed in steps of half a window, not one event at a time (a burst of 10,000 evictions pushes 20,000)
    if (this.window.length >= WINDOW + WINDOW / 2) {
      const dropped = this.window.splice(0, this.window.length - WINDOW);
      this.oldest = dropped[dropped.length - 1].version;
    }
    this.events.next(event);
  }
}

function typeOf(object: { createdAt: Date; updatedAt: Date }): 'ADDED' | 'MODIFIED' {
  return object.createdAt.getTime() === object.updatedAt.getTime() ? 'ADDED' : 'MODIFIED';
}
