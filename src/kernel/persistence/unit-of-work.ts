import { Inject, Injectable } from '@nestjs/common';
import type { Database } from './database';
import { CLOCK, DATABASE, REPLICA_ID } from '../tokens';
import type { TaintwiseEvent } from '../events/event-bus';
import { EventBus } from '../events/event-bus';
import type { ChangeNotice } from '../snapshot/snapshot.service';
import { SnapshotService } from '../snapshot/snapshot.service';
import type { Clock } from '../timers/clock';
import { TimerWrites } from '../timers/timer-writes';
import { Metrics } from '../observability/metrics';
import { ChangeSet, type Actor } from './change-set';
import { EventRepository } from './repositories/event.repository';
import { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository';
import { WebhookOutboxSignal } from '../events/webhook-outbox-signal';
import { NodeRepository } from './repositories/node.repository';
import { PodRepository } from './repositories/pod.repository';
import { BudgetRepository } from './repositories/budget.repository';
import { APP_CONFIG, type AppConfig } from '../config/config.schema';
import { AppError } from '../errors/app-error';
import { type Db } from './prisma-types';

export const CHANGE_CHANNEL = 'taintwise_changes';
/** NOTIFY payloads are limited to 8000 bytes; past this, other replicas reload everything. */
const MAX_NOTICE_BYTES = 7000;
/** Past this many events in one transaction, they are inserted with one statement and one JSON parameter. */
const EVICTION_OUTCOMES: Record<string, string> = {
  EvictionExecuted: 'Executed',
  EvictionCancelled: 'Cancelled',
  EvictionScheduled: 'Scheduled',
  EvictionRescheduled: 'Rescheduled',
};

/**
 * Runs one mutation as one transaction (ARCHITECTURE.md principle 3): the work writes state, eviction rows
 * and events; COMMIT; then — and only then — the snapshot, the timers, the live stream and the other
 * replicas hear of it. Timers are armed in the background (`TimerWrites`), in commit
 * order; the answer does not wait for Redis. If arming fails (Redis down), the Scheduled row is
 * still in PostgreSQL and the reconciler re-arms it.
 */
@Injectable()
export class UnitOfWork {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(REPLICA_ID) private readonly replicaId: string,
    private readonly snapshot: SnapshotService,
    private readonly bus: EventBus,
    private readonly metrics: Metrics,
    private readonly timerWrites: TimerWrites,
    private readonly events: EventRepository,
    private readonly outbox: WebhookDeliveryRepository,
    private readonly outboxSignal: WebhookOutboxSignal,
    private readonly nodeRows: NodeRepository,
    private readonly podRows: PodRepository,
    private readonly budgetRows: BudgetRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  now(): Date {
    return this.clock.now();
  }

  /**
   * Whether transactions can run side by side: PostgreSQL has a pool of sessions; embedded PGlite
   * has one connection, and a second transaction would only queue behind the first.
   */
  get concurrentTransactions(): boolean {
    return this.database.kind === 'postgres';
  }

  /** The client for reads outside a mutation. */
  get db(): Db {
    return this.database.prisma;
  }

  async run<T>(
    actor: Actor,
    work: (tx: Db, changes: ChangeSet) => Promise<T>,
    options: { timeoutMs?: number } = {},
  ): Promise<{ result: T; changes: ChangeSet }> {
    const changes = new ChangeSet(actor);
    let events: TaintwiseEvent[] = [];
    let outboxRows = 0;
    const result = await this.database.prisma.$transaction(
      async (tx) => {
        const value = await work(tx, changes);
        if (this.config.SYNC_KUBECONFIG && !changes.fromCluster) await this.refuseClusterWrites(tx, changes);
        events = await this.events.insert(tx, changes.actor, changes.events, this.database.kind === 'postgres');
        // The webhook outbox (issue 15): a delivery row per matching subscription, in this transaction.
        outboxRows = await this.outbox.enqueue(tx, events, this.clock.now(), this.database.kind === 'postgres');
        if (this.database.kind === 'postgres') await this.notify(tx, changes, events);
        return value;
      },
      { timeout: options.timeoutMs ?? 60_000, maxWait: 15_000 },
    );
    this.afterCommit(changes, events);
    if (outboxRows > 0) this.outboxSignal.enqueued();
    return { result, changes };
  }

  /**
   * Ownership on a mirror (SYNC_KUBECONFIG): nodes, pods and PodDisruptionBudgets mirrored from the cluster belong
   * to it; a change that writes or deletes one (through REST, GraphQL or the Kubernetes API) is refused with a 409
   * before COMMIT, so
   * nothing of it is applied. Objects created here stay writable (what-if experiments), dry runs never get here.
   */
  private async refuseClusterWrites(tx: Db, changes: ChangeSet): Promise<void> {
    await this.refuseClusterOwned(tx, changes, {
      nodes: [...changes.upsertedNodes.keys(), ...changes.deletedNodes],
      pods: [...changes.upsertedPods.values(), ...changes.deletedPods.values()],
      budgets: [...changes.upsertedBudgets.values(), ...changes.deletedBudgets.values()],
    });
  }

  /**
   * The same refusal for objects a change is about to delete (a deleted row can no longer tell its origin at
   * COMMIT): the delete paths call it first. Nothing is refused off a mirror or for the mirror's own changes.
   */
  async refuseClusterOwned(
    tx: Db,
    changes: ChangeSet,
    objects: {
      nodes?: readonly string[];
      pods?: ReadonlyArray<{ namespace: string; name: string }>;
      budgets?: ReadonlyArray<{ namespace: string; name: string }>;
    },
  ): Promise<void> {
    if (!this.config.SYNC_KUBECONFIG || changes.fromCluster) return;
    const nodeNames = objects.nodes ?? [];
    const keys = (list: ReadonlyArray<{ namespace: string; name: string }> = []) =>
      list.map((o) => ({ namespace: o.namespace, name: o.name }));
    const podKeys = keys(objects.pods);
    const budgetKeys = keys(objects.budgets);
    const nodes = nodeNames.length ? await this.nodeRows.clusterOwned(tx, nodeNames) : [];
    const pods = podKeys.length ? await this.podRows.clusterOwned(tx, podKeys) : [];
    const budgets = budgetKeys.length ? await this.budgetRows.clusterOwned(tx, budgetKeys) : [];
    if (nodes.length === 0 && pods.length === 0 && budgets.length === 0) return;
    const named = [
      ...nodes.map((n) => `nodes "${n}"`),
      ...pods.map((p) => `pods "${p}"`),
      ...budgets.map((b) => `poddisruptionbudgets "${b}"`),
    ];
    throw new AppError(
      'Conflict',
      `${named.slice(0, 5).join(', ')}${named.length > 5 ? ` (and ${named.length - 5} more)` : ''} ${named.length === 1 ? 'belongs' : 'belong'} to the mirrored cluster (SYNC_KUBECONFIG): change ${named.length === 1 ? 'it' : 'them'} in the cluster${this.config.SYNC_WRITE ? ' (taints, cordon and uncordon of nodes are written through)' : ''}, or send the request with dryRun; objects created here stay writable`,
      [],
      { kubeReason: 'Conflict', mirrored: { nodes, pods, budgets } },
    );
  }

  private async notify(tx: Db, changes: ChangeSet, events: TaintwiseEvent[]): Promise<void> {
    const notice: ChangeNotice = {
      origin: this.replicaId,
      nodes: [...changes.upsertedNodes.keys()],
      deletedNodes: [...changes.deletedNodes],
      pods: [...changes.upsertedPods.values()].map((p) => [p.namespace, p.name]),
      deletedPods: [...changes.deletedPods.values()].map((p) => [p.namespace, p.name]),
      budgets: [...changes.upsertedBudgets.values()].map((b) => [b.namespace, b.name]),
      deletedBudgets: [...changes.deletedBudgets.values()].map((b) => [b.namespace, b.name]),
      events: events.map((e) => e.id),
    };
    if (
      !notice.nodes!.length &&
      !notice.deletedNodes!.length &&
      !notice.pods!.length &&
      !notice.deletedPods!.length &&
      !notice.budgets!.length &&
      !notice.deletedBudgets!.length &&
      !notice.events!.length
    )
      return;
    // The full notice is written only when it may fit: a sweep's 5,000 pods and events would be stringified (while
    // the commit-order lock is held) only to be replaced by the reload form. Every pod or budget entry takes at least
    // 9 bytes (`["a","b"]`), every node or event id at least 3 (`"1"`), each with its comma.
    const leastBytes =
      10 * (notice.pods!.length + notice.deletedPods!.length + notice.budgets!.length + notice.deletedBudgets!.length) +
      4 * (notice.nodes!.length + notice.deletedNodes!.length + notice.events!.length);
    const reload = changes.bulk || leastBytes > MAX_NOTICE_BYTES;
    let payload = reload ? '' : JSON.stringify(notice);
    if (reload || payload.length > MAX_NOTICE_BYTES) {
      const eventRange = events.length
        ? { events: [events[0].id, events[events.length - 1].id], eventRange: true }
        : {};
      payload = JSON.stringify({ origin: this.replicaId, reload: true, ...eventRange });
    }
    await tx.$executeRawUnsafe('SELECT pg_notify($1, $2)', CHANGE_CHANNEL, payload);
  }

  private afterCommit(changes: ChangeSet, events: TaintwiseEvent[]): void {
    this.snapshot.apply(changes);
    this.timerWrites.apply([...changes.timersToSchedule.values()]);
    for (const event of events) this.bus.publish(event);
    this.countEvictions(events);
  }

  /** Eviction outcomes and lag (executedAt − evictAt of expired tolerations), counted once committed. */
  private countEvictions(events: TaintwiseEvent[]): void {
    // One increment per outcome: a NoExecute taint commits 11,000 eviction events, and each labelled `inc` costs
    // the counter a label lookup.
    const counts = new Map<string, number>();
    for (const event of events) {
      const outcome = EVICTION_OUTCOMES[event.type];
      if (!outcome) continue;
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      const forecastErrorMs = event.data.forecastErrorMs;
      if (outcome === 'Executed' && typeof forecastErrorMs === 'number') {
        this.metrics.syncForecastError.observe(Math.abs(forecastErrorMs) / 1000);
        this.metrics.syncForecastLastError.set(forecastErrorMs / 1000);
      }
      const lagMs = event.data.lagMs;
      if (outcome === 'Executed' && typeof lagMs === 'number')
        this.metrics.evictionLag.observe(Math.max(0, lagMs) / 1000);
    }
    for (const [outcome, n] of counts) this.metrics.evictions.inc({ outcome }, n);
  }
}
