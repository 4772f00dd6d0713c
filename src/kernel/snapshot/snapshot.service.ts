import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Subject } from 'rxjs';
import type { StoredNode, StoredPod } from '../model/stored-objects';
import type { Database } from '../persistence/database';
import { DATABASE } from '../tokens';
import type { ChangeSet } from '../persistence/change-set';
import { NodeRepository } from '../persistence/repositories/node.repository';
import { PodRepository } from '../persistence/repositories/pod.repository';
import { BudgetRepository } from '../persistence/repositories/budget.repository';
import { InventorySnapshot } from './inventory-snapshot';
import { loadInventory } from './snapshot-source';

/**
 * What the snapshot just took in, in commit order: this replica's commits with the objects as written, other
 * replicas' as re-read (a pod there may be gone: `deletedPods`), or `reload` when everything was read again.
 * The Kubernetes API's watch cache follows this.
 */
export interface AppliedChanges {
  nodes: StoredNode[];
  deletedNodes: string[];
  pods: StoredPod[];
  deletedPods: Array<{ namespace: string; name: string }>;
  reload?: boolean;
}

/** What one replica tells the others after a commit (PostgreSQL NOTIFY payload). */
export interface ChangeNotice {
  origin: string;
  nodes?: string[];
  deletedNodes?: string[];
  pods?: Array<[string, string]>;
  deletedPods?: Array<[string, string]>;
  budgets?: Array<[string, string]>;
  deletedBudgets?: Array<[string, string]>;
  events?: string[];
  reload?: boolean;
}

/**
 * Owns this replica's InventorySnapshot: loads it at start, applies this replica's commits, and
 * re-reads from the database what other replicas changed (ChangeNotice), so decisions never query
 * per node and are fresh within a notification's round trip.
 */
@Injectable()
export class SnapshotService implements OnApplicationBootstrap {
  readonly snapshot = new InventorySnapshot();
  /** Every change the snapshot applied, once applied (see AppliedChanges). */
  readonly applied = new Subject<AppliedChanges>();
  private readonly logger = new Logger('snapshot');
  private loaded = false;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly nodes: NodeRepository,
    private readonly pods: PodRepository,
    private readonly budgets: BudgetRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.reload();
  }

  async reload(): Promise<void> {
    const started = performance.now();
    const { nodes, pods, budgets, evictedOwned } = await loadInventory(this.database);
    this.snapshot.load(nodes, pods, budgets, evictedOwned);
    this.loaded = true;
    this.applied.next({ nodes: [], deletedNodes: [], pods: [], deletedPods: [], reload: true });
    this.logger.log({
      msg: 'snapshot loaded',
      nodes: nodes.length,
      pods: this.snapshot.podCount,
      ms: Math.round(performance.now() - started),
    });
  }

  get isLoaded(): boolean {
    return this.loaded;
  }

  /** This replica's own commit. */
  apply(changes: ChangeSet): void {
    for (const name of changes.deletedNodes) this.snapshot.removeNode(name);
    for (const node of changes.upsertedNodes.values()) this.snapshot.upsertNode(node);
    for (const { namespace, name } of changes.deletedPods.values()) this.snapshot.removePod(namespace, name);
    for (const pod of changes.upsertedPods.values()) this.snapshot.upsertPod(pod);
    for (const { namespace, name } of changes.deletedBudgets.values()) this.snapshot.removeBudget(namespace, name);
    for (const budget of changes.upsertedBudgets.values()) this.snapshot.upsertBudget(budget);
    if (this.applied.observed)
      this.applied.next({
        nodes: [...changes.upsertedNodes.values()],
        deletedNodes: [...changes.deletedNodes],
        pods: [...changes.upsertedPods.values()],
        deletedPods: [...changes.deletedPods.values()],
      });
  }

  /** Another replica's commit: re-read the named objects (the database is the truth). */
  async applyNotice(notice: ChangeNotice): Promise<void> {
    if (notice.reload) return this.reload();
    const db = this.database.prisma;
    const applied: AppliedChanges = {
      nodes: [],
      deletedNodes: [...(notice.deletedNodes ?? [])],
      pods: [],
      deletedPods: [],
    };
    for (const [namespace, name] of notice.deletedPods ?? []) applied.deletedPods.push({ namespace, name });
    for (const name of notice.deletedNodes ?? []) this.snapshot.removeNode(name);
    for (const [namespace, name] of notice.deletedPods ?? []) this.snapshot.removePod(namespace, name);
    if (notice.nodes?.length) {
      const found = await this.nodes.findByNames(db, notice.nodes);
      const present = new Set(found.map((n) => n.name));
      for (const n of found) this.snapshot.upsertNode(n);
      applied.nodes.push(...found);
      for (const name of notice.nodes) if (!present.has(name)) this.snapshot.removeNode(name);
      for (const name of notice.nodes) if (!present.has(name)) applied.deletedNodes.push(name);
    }
    for (const [namespace, name] of notice.pods ?? []) {
      const pod = await this.pods.findByKey(db, namespace, name);
      if (pod) this.snapshot.upsertPod(pod);
      else this.snapshot.removePod(namespace, name);
      if (pod) applied.pods.push(pod);
      else applied.deletedPods.push({ namespace, name });
    }
    for (const [namespace, name] of notice.deletedBudgets ?? []) this.snapshot.removeBudget(namespace, name);
    for (const [namespace, name] of notice.budgets ?? []) {
      const budget = await this.budgets.findByKey(db, namespace, name);
      if (budget) this.snapshot.upsertBudget(budget);
      else this.snapshot.removeBudget(namespace, name);
    }
    if (this.applied.observed) this.applied.next(applied);
  }
}
