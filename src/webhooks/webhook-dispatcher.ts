import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { WebhookOutboxSignal } from '../kernel/events/webhook-outbox-signal';
import type { DueWebhookDelivery, StoredWebhook, WebhookAttempt } from '../kernel/model/stored-webhook';
import { Metrics } from '../kernel/observability/metrics';
import { WebhookDeliveryRepository } from '../kernel/persistence/repositories/webhook-delivery.repository';
import { WebhookSubscriptionRepository } from '../kernel/persistence/repositories/webhook-subscription.repository';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import type { DelayedJob, DelayedJobs } from '../kernel/timers/delayed-jobs';
import { TimerRouter } from '../kernel/timers/timer-router';
import { DELAYED_JOBS, REPLICA_ID } from '../kernel/tokens';
import { nextRetryAt, signingSecrets, webhookBody, webhookHeaders, webhookMessageId } from './webhook-message';
import { WebhookSender, type AttemptResult } from './webhook-sender';

/** Who a subscription disabled after failing for a day is recorded as (audit). */
export const WEBHOOK_WORKER_ACTOR = 'webhook-worker';
/** Pending rows read per query, in order. */
const BATCH = 500;
/** A subscription's settings (secret, URL, enabled) are read again at least this often while delivering. */
const REFRESH_MS = 100;
/**
 * Acknowledged rows wait at most this long to be marked Delivered, so a burst costs one UPDATE per
 * this many ms (a statement per row would halve the embedded delivery rate: PGlite runs one statement at a
 * time), and a SIGKILL re-sends at most the messages acknowledged in the last this-many ms.
 */
const MARK_EVERY_MS = 25;
/**
 * The delivery lease of a subscription: kept alive by a heartbeat every third of it while its rows are
 * being sent; a replica that dies (SIGKILL) loses its leases this long after its last heartbeat.
 */
const LEASE_MS = 10_000;
const HEARTBEAT_MS = LEASE_MS / 3;
/** Delivery log retention is applied this often. */
const PRUNE_EVERY_MS = 3600_000;

export const WEBHOOK_TIMER_PREFIX = 'webhook-';

/**
 * The webhook delivery worker (issue 15), built like the eviction engine (ARCHITECTURE.md principle 5):
 * the outbox rows are the truth, everything that wakes the worker is only a wake-up.
 *
 * - Woken by this replica's commits that wrote outbox rows, by a timer (the DelayedJobs port: BullMQ or
 *   in-process) at a retry's due time, and by a poll every WEBHOOK_POLL_SECONDS (other replicas' rows,
 *   rows left by a process that died, a lost Redis).
 * - Per subscription, one replica at a time: it takes the subscription's delivery lease (claimed with
 *   `FOR UPDATE SKIP LOCKED`, kept by a heartbeat), then sends the subscription's pending rows one after
 *   the other in id order, which is commit order (WebhookDeliveryRepository). A failed row stays at the
 *   head until its retry succeeds or it is Failed for good: later rows wait behind it (the order rule).
 * - At-least-once: a row is marked Delivered only after its 2xx, and only while Pending, so it is
 *   acknowledged once; a process that dies between the 2xx and the mark sends it again (same webhook-id).
 */
@Injectable()
export class WebhookDispatcher implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('webhook-worker');
  private readonly sender: WebhookSender;
  private readonly active = new Map<string, Promise<void>>();
  private claiming?: Promise<void>;
  private again = false;
  private stopped = false;
  private poll?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private lastPrune = 0;
  private unsubscribe?: () => void;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly signal: WebhookOutboxSignal,
    private readonly router: TimerRouter,
    private readonly metrics: Metrics,
    @Inject(DELAYED_JOBS) private readonly jobs: DelayedJobs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REPLICA_ID) private readonly replicaId: string,
  ) {
    this.sender = new WebhookSender({
      timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    });
  }

  onModuleInit(): void {
    this.router.register(WEBHOOK_TIMER_PREFIX, (job) => this.onTimer(job));
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = this.signal.onEnqueued(() => this.wake());
    this.poll = setInterval(() => this.onPoll(), this.config.WEBHOOK_POLL_SECONDS * 1000);
    this.poll.unref();
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.onPoll();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.poll) clearInterval(this.poll);
    await this.claiming?.catch(() => undefined);
    await Promise.allSettled([...this.active.values()]);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.sender.close();
    await this.subscriptions
      .releaseAll(this.uow.db, this.replicaId)
      .catch((e: unknown) => this.logger.debug({ msg: 'releasing webhook leases failed', err: String(e) }));
  }

  /** Claims what is due for as many subscriptions as there is room for; calls while claiming coalesce. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claimAndStart()
      .catch((e: unknown) => this.logger.warn({ msg: 'claiming webhook deliveries failed', err: String(e) }))
      .finally(() => {
        this.claiming = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves when nothing is being delivered here (tests, bench). */
  async idle(): Promise<void> {
    while (this.claiming || this.active.size) {
      await this.claiming?.catch(() => undefined);
      await Promise.allSettled([...this.active.values()]);
    }
  }

  private async claimAndStart(): Promise<void> {
    const room = this.config.WEBHOOK_CONCURRENCY - this.active.size;
    if (room <= 0) return;
    const now = this.uow.now();
    const claimed = await this.subscriptions.claim(
      this.uow.db,
      this.replicaId,
      now,
      new Date(now.getTime() + LEASE_MS),
      room,
    );
    for (const subscription of claimed) {
      const run = this.deliverAll(subscription)
        .then(
          () => this.wake(),
          (e: unknown) =>
            this.logger.warn({ msg: 'webhook delivery failed', webhook: subscription.id, err: String(e) }),
        )
        .finally(() => this.active.delete(subscription.id));
      this.active.set(subscription.id, run);
    }
  }

  private onTimer(job: DelayedJob): Promise<void> {
    const dueAt = Date.parse(String(job.data.dueAt));
    // Fired early by this clock (another replica's clock promoted it): arm it again for its time.
    if (Number.isFinite(dueAt) && dueAt > this.uow.now().getTime()) return this.jobs.schedule(job);
    this.wake();
    return Promise.resolve();
  }

  private onPoll(): void {
    this.wake();
    void this.refreshStats();
  }

  private beat(): void {
    const ids = [...this.active.keys()];
    if (ids.length === 0) return;
    this.subscriptions
      .renewMany(this.uow.db, ids, this.replicaId, new Date(this.uow.now().getTime() + LEASE_MS))
      .catch((e: unknown) => this.logger.warn({ msg: 'renewing webhook leases failed', err: String(e) }));
  }

  private async refreshStats(): Promise<void> {
    try {
      const now = this.uow.now();
      const { depth, oldest } = await this.deliveries.pendingStats(this.uow.db);
      this.metrics.webhookQueueDepth.set(depth);
      this.metrics.webhookOldestPendingAge.set(oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0);
      if (now.getTime() - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = now.getTime();
        const before = new Date(now.getTime() - this.config.WEBHOOK_DELIVERY_RETENTION_DAYS * 86_400_000);
        const pruned = await this.deliveries.prune(this.uow.db, before);
        if (pruned)
          this.logger.log({ msg: 'webhook delivery log pruned', deleted: pruned, before: before.toISOString() });
      }
    } catch (e) {
      this.logger.debug({ msg: 'webhook queue statistics failed', err: String(e) });
    }
  }

  /**
   * Sends a claimed subscription's due rows in order until none is due (or one waits for a retry), then
   * gives the lease back — unless a row became due meanwhile, then goes on.
   */
  private async deliverAll(claimed: StoredWebhook): Promise<void> {
    let subscription: StoredWebhook | undefined = claimed;
    let refreshedAt = performance.now();
    let failing = claimed.failingSince !== null;
    // Acknowledged rows are marked Delivered by one UPDATE at a time running beside the next requests,
    // every MARK_EVERY_MS, each taking every row acknowledged meanwhile: a row is marked at most about
    // MARK_EVERY_MS plus a round trip after its 2xx (what a SIGKILL can make a receiver see twice).
    const acknowledged: Array<{ id: string; attempt: WebhookAttempt }> = [];
    let marking: Promise<void> | undefined;
    let markError: unknown;
    let markTimer: NodeJS.Timeout | undefined;
    const markSoon = (): void => {
      if (markTimer || marking) return;
      markTimer = setTimeout(() => {
        markTimer = undefined;
        mark();
      }, MARK_EVERY_MS);
    };
    const mark = (): void => {
      if (markTimer) {
        clearTimeout(markTimer);
        markTimer = undefined;
      }
      if (marking || acknowledged.length === 0) return;
      const batch = acknowledged.splice(0);
      marking = this.deliveries
        .markDelivered(this.uow.db, batch)
        .then(async () => {
          this.metrics.webhookDeliveries.inc({ outcome: 'delivered' }, batch.length);
          if (failing) {
            failing = false;
            await this.subscriptions.recordAttempt(this.uow.db, claimed.id, true, this.uow.now());
          }
        })
        .catch((e: unknown) => {
          markError = e;
        })
        .finally(() => {
          marking = undefined;
          if (markError === undefined && acknowledged.length) markSoon();
        });
    };
    /** Waits until every acknowledged row is marked; throws if a mark failed. */
    const flush = async (): Promise<void> => {
      mark();
      while (marking) {
        await marking;
        mark();
      }
      if (markError !== undefined) throw markError;
    };
    const refresh = async (): Promise<void> => {
      if (performance.now() - refreshedAt < REFRESH_MS) return;
      refreshedAt = performance.now();
      // A change to the subscription (secret rotated, URL changed, disabled, deleted) applies from here.
      subscription = await this.subscriptions.find(this.uow.db, claimed.id);
    };

    try {
      for (;;) {
        if (this.stopped) return;
        if (!subscription?.enabled) {
          await this.subscriptions.release(this.uow.db, claimed.id, this.replicaId, this.uow.now());
          return;
        }
        const rows = await this.deliveries.pendingInOrder(this.uow.db, claimed.id, BATCH);
        let blocked = false;
        for (const row of rows) {
          if (this.stopped || !subscription?.enabled) break;
          const now = this.uow.now();
          if (row.nextAttemptAt.getTime() > now.getTime()) {
            blocked = true;
            await this.armRetryTimer(claimed.id, row.nextAttemptAt);
            break;
          }
          const result = row.event
            ? await this.attempt(subscription, row, now)
            : { ok: false, latencyMs: 0, error: 'the event is no longer stored' };
          const attempt: WebhookAttempt = {
            at: now.toISOString(),
            latencyMs: result.latencyMs,
            ...(result.statusCode !== undefined ? { statusCode: result.statusCode } : {}),
            ...(result.error ? { error: result.error } : {}),
          };
          this.metrics.webhookAttemptDuration.observe(
            { result: result.ok ? 'success' : 'failure' },
            result.latencyMs / 1000,
          );
          if (result.ok) {
            acknowledged.push({ id: row.id, attempt });
            markSoon();
            if (markError !== undefined) throw markError;
            await refresh();
            continue;
          }
          // Shutting down mid-request: not the receiver's failure; the row stays as it was.
          if (this.stopped) break;
          await flush();
          await refresh();
          // The schedule counts from the failure (the answer or the timeout), not from the send: a receiver that
          // took most of a second to fail still gets the whole delay before the next attempt.
          const failedAt = this.uow.now();
          const retryAt = row.event
            ? nextRetryAt(this.config.WEBHOOK_RETRY_SCHEDULE, row.attempts + 1, failedAt)
            : null;
          await this.deliveries.markAttemptFailed(this.uow.db, row.id, attempt, retryAt);
          this.metrics.webhookDeliveries.inc({ outcome: retryAt ? 'retry' : 'failed' });
          this.logger.debug({ msg: 'webhook attempt failed', webhook: claimed.id, delivery: row.id, ...attempt });
          failing = true;
          if (await this.disableIfFailingTooLong(claimed.id, now)) return;
          if (retryAt) {
            blocked = true;
            await this.armRetryTimer(claimed.id, retryAt);
            break;
          }
        }
        await flush();
        if (this.stopped) return;
        if (rows.length === 0 || blocked || !subscription?.enabled) {
          if (await this.subscriptions.release(this.uow.db, claimed.id, this.replicaId, this.uow.now())) return;
        }
      }
    } finally {
      // Whatever stopped the loop, acknowledged rows are marked (a failure here means they are sent again).
      await flush().catch((e: unknown) =>
        this.logger.warn({ msg: 'marking webhook deliveries failed; they will be sent again', err: String(e) }),
      );
    }
  }

  private attempt(subscription: StoredWebhook, row: DueWebhookDelivery, now: Date): Promise<AttemptResult> {
    const body = webhookBody(row.event!);
    const headers = webhookHeaders(webhookMessageId(row.id), now, body, signingSecrets(subscription, now));
    return this.sender.send(subscription.url, headers, body);
  }

  private async armRetryTimer(subscriptionId: string, dueAt: Date): Promise<void> {
    await this.jobs
      .schedule({ id: `${WEBHOOK_TIMER_PREFIX}${subscriptionId}`, dueAt, data: { dueAt: dueAt.toISOString() } })
      .catch((e: unknown) =>
        this.logger.warn({ msg: 'arming a webhook retry timer failed; the poll covers it', err: String(e) }),
      );
  }

  /**
   * A subscription whose attempts have all failed for WEBHOOK_DISABLE_AFTER_SECONDS is disabled, with a
   * WebhookDisabled event (audited, on the event stream, and delivered to the other subscriptions).
   */
  private async disableIfFailingTooLong(id: string, now: Date): Promise<boolean> {
    const since = await this.subscriptions.recordAttempt(this.uow.db, id, false, now);
    if (!since || now.getTime() - since.getTime() < this.config.WEBHOOK_DISABLE_AFTER_SECONDS * 1000) return false;
    const reason = `every delivery attempt failed since ${since.toISOString()}`;
    await this.uow.run({ name: WEBHOOK_WORKER_ACTOR }, async (tx, changes) => {
      const current = await this.subscriptions.lock(tx, id);
      if (!current?.enabled) return;
      await this.subscriptions.update(tx, id, { enabled: false, disabledReason: reason });
      changes.event({
        type: 'WebhookDisabled',
        subjectKind: 'Webhook',
        subjectName: id,
        data: { id, url: current.url, reason, failingSince: since.toISOString() },
      });
    });
    this.logger.warn({ msg: 'webhook subscription disabled', webhook: id, reason });
    return true;
  }
}
