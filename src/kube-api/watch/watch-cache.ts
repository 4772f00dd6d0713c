import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Subject, type Subscription } from 'rxjs';
import type { StoredNode, StoredPod } from '../../kernel/model/stored-objects';
import { SnapshotService, type AppliedChanges } from '../../kernel/snapshot/snapshot.service';
import { KubeVersions, nodeKey, podKey } from './kube-versions';

export type WatchResource = 'nodes' | 'pods';

/** One change as a watch delivers it (before selectors): the object now, and as it was, when known. */
export interface WatchEvent {
  version: number;
  resource: WatchResource;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  namespace?: string;
  name: string;
  /** Pods: the stored pod (an evicted one is shown once, terminal, then DELETED). Nodes: the stored node. */
  object?: StoredNode | StoredPod;
}

/** How many changes a watch can resume across (the API server keeps a window too, then answers 410). */
const WINDOW = 10_000;

/**
 * The Kubernetes API's watch cache (like the API server's cacher): the changes the snapshot applied, in commit
 * order, each with the next resourceVersion (KubeVersions), the last WINDOW of them kept so a watch can resume
 * from a version; live watchers subscribe to `events`. A pod taintwise evicts is gone from the Kubernetes API
 * (SEMANTICS A.5): its watchers see it MODIFIED to Failed/Evicted (the taint manager's DisruptionTarget
 * condition), then DELETED. A reload of the whole snapshot (another replica's bulk import, a lost change feed)
 * cannot be told apart object by object: the window is emptied and watchers are closed with 410, so they relist.
 * No copy of the objects is kept beyond the window (150,000 pods would weigh on the collector, issue 16): a change
 * is ADDED when the object was just created (createdAt = updatedAt), MODIFIED otherwise — informers treat both as
 * "store this object" — and a watcher whose selector no longer matches a changed object is sent DELETED.
 */
@Injectable()
export class WatchCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly window: WatchEvent[] = [];
  private subscription?: Subscription;
  readonly events = new Subject<WatchEvent>();
  /** Emits when the window was emptied (a reload): open watches end with 410. */
  readonly expired = new Subject<void>();
  private oldest = 0;

  constructor(
    private readonly snapshots: SnapshotService,
    private readonly versions: KubeVersions,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.snapshots.applied.subscribe((changes) => this.take(changes));
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
    this.events.complete();
  }

  /** Versions after `since` can be replayed; older ones are 410 (the lowest version still answerable). */
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
    for (const name of changes.deletedNodes) {
      this.push({ version: this.versions.deleted(nodeKey(name)), resource: 'nodes', type: 'DELETED', name });
    }
    for (const node of changes.nodes) {
      this.push({
        version: this.versions.next(nodeKey(node.name), node.resourceVersion),
        resource: 'nodes',
        type: typeOf(node),
        name: node.name,
        object: node,
      });
    }
    for (const { namespace, name } of changes.deletedPods) this.podGone(namespace, name, undefined);
    for (const pod of changes.pods) {
      const key = podKey(pod.namespace, pod.name);
      const version = this.versions.next(key, pod.resourceVersion);
      const base = { resource: 'pods' as const, namespace: pod.namespace, name: pod.name, object: pod, version };
      if (pod.phase !== 'Evicted') {
        this.push({ ...base, type: typeOf(pod) });
        continue;
      }
      // shown once as the taint manager leaves it, then gone
      this.push({ ...base, type: 'MODIFIED' });
      this.podGone(pod.namespace, pod.name, pod);
    }
  }

  private podGone(namespace: string, name: string, last: StoredPod | undefined): void {
    const version = this.versions.deleted(podKey(namespace, name));
    this.push({ version, resource: 'pods', type: 'DELETED', namespace, name, object: last });
  }

  private push(event: WatchEvent): void {
    this.window.push(event);
    if (this.window.length > WINDOW) {
      const dropped = this.window.splice(0, this.window.length - WINDOW);
      this.oldest = dropped[dropped.length - 1].version;
    }
    this.events.next(event);
  }
}

function typeOf(object: { createdAt: Date; updatedAt: Date }): 'ADDED' | 'MODIFIED' {
  return object.createdAt.getTime() === object.updatedAt.getTime() ? 'ADDED' : 'MODIFIED';
}
