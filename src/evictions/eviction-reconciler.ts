import { EvictionRepository } from '../kernel/persistence/repositories/eviction.repository';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { DELAYED_JOBS } from '../kernel/tokens';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import { Metrics } from '../kernel/observability/metrics';
import type { DelayedJob, DelayedJobs } from '../kernel/timers/delayed-jobs';
import { evictionTimer, evictionTimerId } from './eviction-timer-id';

const PAGE = 2000;
const ARM_CHUNK = 2000;

export interface ReconcileReport {
  /** Scheduled rows in the database. */
  scheduled: number;
  /** Timers armed for deadlines of Scheduled rows that had none (lost Redis, restart of the in-process timers). */
  armed: number;
  /** Eviction timers cancelled: no Scheduled row has that deadline any more, or an earlier version's per-row timer. */
  cancelled: number;
}

/**
 * Makes the timers agree with the Scheduled rows (ARCHITECTURE.md principle 5), at start-up and every
 * `RECONCILE_INTERVAL_SECONDS`: the database holds every deadline, the timers only wake us, so a
 * restart (in-process timers are gone) or a lost Redis (`FLUSHALL`) loses no eviction — an overdue
 * row fires at once, a future one at its evictAt.
 *
 * One timer per deadline (eviction-timer-id.ts). Order matters: the pending timers are listed BEFORE the
 * deadlines are read. A timer is armed only after its row committed, so a listed timer with no Scheduled
 * row at its deadline is stale; a row committed meanwhile is simply armed (again) — arming an id twice is
 * harmless, the second replaces the first. But a deadline is shared: a row committed at a stale deadline
 * after it was read re-arms that id, and the cancel could remove it. So the cancelled deadlines are read
 * once more after the cancel and armed again if a row has one now (a row committed after that read arms
 * its timer after the cancel). Per-row timers of earlier versions (`evict-<rowId>-<ms>`) are cancelled once
 * their deadline's timer is armed.
 *
 * Not done here (deliberately): re-running the rule for every pod on NoExecute-tainted nodes. Rows
 * are written in the same transaction as the state that implies them, so the rows cannot miss a
 * deadline the state calls for; such a sweep would cost a lock on every tainted node per run.
 */
@Injectable()
export class EvictionReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('eviction-reconciler');
  private interval?: NodeJS.Timeout;
  private running?: Promise<ReconcileReport>;
  private stopped = false;

  constructor(
    private readonly uow: UnitOfWork,
    @Inject(DELAYED_JOBS) private readonly jobs: DelayedJobs,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly evictions: EvictionRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const report = await this.reconcile().catch((e: unknown) => {
      this.logger.warn({ msg: 'start-up reconcile failed; retrying on the interval', err: String(e) });
      return undefined;
    });
    if (report) this.logger.log({ msg: 'eviction timers reconciled', ...report });
    this.interval = setInterval(() => {
      void this.reconcile().then(
        (r) => (r.armed || r.cancelled ? this.logger.log({ msg: 'eviction timers repaired', ...r }) : undefined),
        (e: unknown) => this.logger.warn({ msg: 'reconcile failed', err: String(e) }),
      );
    }, this.config.RECONCILE_INTERVAL_SECONDS * 1000);
    this.interval.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.interval) clearInterval(this.interval);
    await this.running?.catch(() => undefined);
  }

  /** One pass; concurrent calls share it. */
  reconcile(): Promise<ReconcileReport> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(): Promise<ReconcileReport> {
    const pending = await this.jobs.list();
    const pendingIds = new Set(pending.map((j) => j.id));
    const expected = new Set<string>();
    const report: ReconcileReport = { scheduled: 0, armed: 0, cancelled: 0 };
    let after: Date | undefined;
    for (;;) {
      if (this.stopped) return report;
      const deadlines = await this.evictions.scheduledDeadlines(this.uow.db, after, PAGE);
      const missing: DelayedJob[] = [];
      for (const { evictAt, rows } of deadlines) {
        const id = evictionTimerId(evictAt);
        expected.add(id);
        report.scheduled += rows;
        if (!pendingIds.has(id)) missing.push(evictionTimer(evictAt));
      }
      for (let i = 0; i < missing.length; i += ARM_CHUNK) await this.jobs.scheduleMany(missing.slice(i, i + ARM_CHUNK));
      report.armed += missing.length;
      if (deadlines.length < PAGE) break;
      after = deadlines[deadlines.length - 1].evictAt;
    }
    const stale = pending.filter((job) => job.id.startsWith('evict-') && !expected.has(job.id));
    for (let i = 0; i < stale.length; i += ARM_CHUNK)
      report.cancelled += await this.jobs.cancelMany(stale.slice(i, i + ARM_CHUNK).map((job) => job.id));
    const rearm = await this.evictions.stillScheduledAt(
      this.uow.db,
      stale.filter((job) => job.id === evictionTimerId(job.dueAt)).map((job) => job.dueAt),
    );
    if (rearm.length > 0) await this.jobs.scheduleMany(rearm.map(evictionTimer));
    report.armed += rearm.length;
    this.metrics.pendingEvictions.set(report.scheduled);
    return report;
  }
}
