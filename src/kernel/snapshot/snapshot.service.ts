import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Subject } from 'rxjs';
import type { StoredNode, StoredPod } from '../model/stored-objects';
import type { StoredBudget } from '../model/stored-budget';
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
 * replicas' as re-read, or `reload` when everything was read again. A deletion carries the object as the snapshot
 * last held it (`last`: absent for a pod that was already finished). The Kubernetes API's watch cache follows this.
 */
export interface AppliedChanges {
  nodes: StoredNode[];
  deletedNodes: Array<{ name: string; last?: StoredNode }>;
  pods: StoredPod[];
  deletedPods: Array<{ namespace: string; name: string; last?: StoredPod }>;
  budgets: StoredBudget[];
  deletedBudgets: Array<{ namespace: string; name: string; last?: StoredBudget }>;
  reload?: boolean;
}

const nothingApplied = (): AppliedChanges => ({
  nodes: [],
  deletedNodes: [],
  pods: [],
  deletedPods: [],
  budgets: [],
  deletedBudgets: [],
});

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
    this.applied.next({ ...nothingApplied(), reload: true });
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
    const applied = nothingApplied();
    for (const name of changes.deletedNodes) applied.deletedNodes.push(this.removeNode(name));
    for (const node of changes.upsertedNodes.values()) this.snapshot.upsertNode(node);
    for (const { namespace, name } of changes.deletedPods.values()) {
      applied.deletedPods.push(this.removePod(namespace, name));
    }
    for (const pod of changes.upsertedPods.values()) this.snapshot.upsertPod(pod);
    for (const { namespace, name } of changes.deletedBudgets.values()) {
      applied.deletedBudgets.push(this.removeBudget(namespace, name));
    }
    for (const budget of changes.upsertedBudgets.values()) this.snapshot.upsertBudget(budget);
    if (!this.applied.observed) return;
    applied.nodes.push(...changes.upsertedNodes.values());
    applied.pods.push(...changes.upsertedPods.values());
    applied.budgets.push(...changes.upsertedBudgets.values());
    this.applied.next(applied);
  }

  /** Another replica's commit: re-read the named objects (the database is the truth). */
  async applyNotice(notice: ChangeNotice): Promise<void> {
    if (notice.reload) return this.reload();
    const db = this.database.prisma;
    const applied = nothingApplied();
    for (const name of notice.deletedNodes ?? []) applied.deletedNodes.push(this.removeNode(name));
    for (const [namespace, name] of notice.deletedPods ?? []) applied.deletedPods.push(this.removePod(namespace, name));
    if (notice.nodes?.length) {
      const found = await this.nodes.findByNames(db, notice.nodes);
      const present = new Set(found.map((n) => n.name));
      for (const n of found) this.snapshot.upsertNode(n);
      applied.nodes.push(...found);
      for (const name of notice.nodes) if (!present.has(name)) applied.deletedNodes.push(this.removeNode(name));
    }
    for (const [namespace, name] of notice.pods ?? []) {
      const pod = await this.pods.findByKey(db, namespace, name);
      if (pod) {
        this.snapshot.upsertPod(pod);
        applied.pods.push(pod);
      } else applied.deletedPods.push(this.removePod(namespace, name));
    }
    for (const [namespace, name] of notice.deletedBudgets ?? []) {
      applied.deletedBudgets.push(this.removeBudget(namespace, name));
    }
    for (const [namespace, name] of notice.budgets ?? []) {
      const budget = await this.budgets.findByKey(db, namespace, name);
      if (budget) {
        this.snapshot.upsertBudget(budget);
        applied.budgets.push(budget);
      } else applied.deletedBudgets.push(this.removeBudget(namespace, name));
    }
    if (this.applied.observed) this.applied.next(applied);
  }

  /** Removals answer the object as the snapshot last held it (what a watch shows as DELETED). */
  private removeNode(name: string): { name: string; last?: StoredNode } {
    const last = this.snapshot.node(name);
    this.snapshot.removeNode(name);
    return { name, last };
  }

  private removePod(namespace: string, name: string): { namespace: string; name: string; last?: StoredPod } {
    const last = this.snapshot.pod(namespace, name);
    this.snapshot.removePod(namespace, name);
    return { namespace, name, last };
  }

  private removeBudget(namespace: string, name: string): { namespace: string; name: string; last?: StoredBudget } {
    const last = this.snapshot.budgets.get(namespace, name);
    this.snapshot.removeBudget(namespace, name);
    return { namespace, name, last };
  }
}
