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
 * replicas hear of it. Timers are armed and cancelled in the background (`TimerWrites`), in commit
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
        events = await this.events.insert(tx, changes.actor, changes.events);
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
    let payload = JSON.stringify(notice);
    if (changes.bulk || payload.length > MAX_NOTICE_BYTES) {
      const eventRange = events.length
        ? { events: [events[0].id, events[events.length - 1].id], eventRange: true }
        : {};
      payload = JSON.stringify({ origin: this.replicaId, reload: true, ...eventRange });
    }
    await tx.$executeRawUnsafe('SELECT pg_notify($1, $2)', CHANGE_CHANNEL, payload);
  }

  private afterCommit(changes: ChangeSet, events: TaintwiseEvent[]): void {
    this.snapshot.apply(changes);
    this.timerWrites.apply([...changes.timersToCancel], [...changes.timersToSchedule.values()]);
    for (const event of events) this.bus.publish(event);
    this.countEvictions(events);
  }

  /** Eviction outcomes and lag (executedAt − evictAt of expired tolerations), counted once committed. */
  private countEvictions(events: TaintwiseEvent[]): void {
    for (const event of events) {
      const outcome = EVICTION_OUTCOMES[event.type];
      if (!outcome) continue;
      this.metrics.evictions.inc({ outcome });
      const lagMs = event.data.lagMs;
      if (outcome === 'Executed' && typeof lagMs === 'number')
        this.metrics.evictionLag.observe(Math.max(0, lagMs) / 1000);
    }
  }
}
