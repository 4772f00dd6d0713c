import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Database } from '../persistence/database';
import { DATABASE } from '../tokens';
import type { ChangeSet } from '../persistence/change-set';
import { NodeRepository } from '../persistence/repositories/node.repository';
import { PodRepository } from '../persistence/repositories/pod.repository';
import { BudgetRepository } from '../persistence/repositories/budget.repository';
import { InventorySnapshot } from './inventory-snapshot';
import { loadInventory } from './snapshot-source';

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
  }

  /** Another replica's commit: re-read the named objects (the database is the truth). */
  async applyNotice(notice: ChangeNotice): Promise<void> {
    if (notice.reload) return this.reload();
    const db = this.database.prisma;
    for (const name of notice.deletedNodes ?? []) this.snapshot.removeNode(name);
    for (const [namespace, name] of notice.deletedPods ?? []) this.snapshot.removePod(namespace, name);
    if (notice.nodes?.length) {
      const found = await this.nodes.findByNames(db, notice.nodes);
      const present = new Set(found.map((n) => n.name));
      for (const n of found) this.snapshot.upsertNode(n);
      for (const name of notice.nodes) if (!present.has(name)) this.snapshot.removeNode(name);
    }
    for (const [namespace, name] of notice.pods ?? []) {
      const pod = await this.pods.findByKey(db, namespace, name);
      if (pod) this.snapshot.upsertPod(pod);
      else this.snapshot.removePod(namespace, name);
    }
    for (const [namespace, name] of notice.deletedBudgets ?? []) this.snapshot.removeBudget(namespace, name);
    for (const [namespace, name] of notice.budgets ?? []) {
      const budget = await this.budgets.findByKey(db, namespace, name);
      if (budget) this.snapshot.upsertBudget(budget);
      else this.snapshot.removeBudget(namespace, name);
    }
  }
}
