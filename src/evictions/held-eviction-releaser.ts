import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { EventBus } from '../kernel/events/event-bus';
import { EvictionRepository } from '../kernel/persistence/repositories/eviction.repository';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import { DueEvictionSweeper } from './due-eviction-sweeper';

/** Changes that can raise a budget's allowance: its spec, and pods that appear, come back or leave it. */
const TRIGGERS = new Set([
  'DisruptionBudgetCreated',
  'DisruptionBudgetReplaced',
  'DisruptionBudgetDeleted',
  'PodCreated',
  'PodReplaced',
  'PodBound',
  'PodDeleted',
  'ImportApplied',
  'TaintsApplied',
]);
/** Held rows decided per transaction. */
const PAGE = 1000;
/** A pass also runs this often, whatever happened (a missed notification costs at most this long). */
const SAFETY_INTERVAL_MS = 30_000;

/**
 * Releases held evictions (SEMANTICS B.9.6) as soon as budgets allow: after every committed change that can
 * raise an allowance — on this replica or, through the change feed's events, on another — after start-up,
 * and every 30 s. A pass takes the Held rows oldest hold first, a page at a time, and lets the sweeper decide
 * them again (the planner executes those the budgets now allow and keeps the others held). Passes coalesce.
 * Durable by construction: the rows are in PostgreSQL, no timer is involved.
 */
@Injectable()
export class HeldEvictionReleaser implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('held-evictions');
  private subscription?: Subscription;
  private interval?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly evictions: EvictionRepository,
    private readonly sweeper: DueEvictionSweeper,
    private readonly bus: EventBus,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.bus.events.subscribe((event) => {
      if (TRIGGERS.has(event.type)) void this.request();
    });
    this.interval = setInterval(() => void this.request(), SAFETY_INTERVAL_MS);
    this.interval.unref();
    void this.request();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    this.subscription?.unsubscribe();
    if (this.interval) clearInterval(this.interval);
  }

  /** Starts a pass, or asks for one more after the running pass. Resolves when that pass has run. */
  request(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = this.pass()
      .catch((error: unknown) => this.logger.warn({ msg: 'held-eviction release pass failed', err: String(error) }))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.request();
        }
      });
    this.running = run;
    return run;
  }

  private async pass(): Promise<void> {
    let after: { heldAt: Date; id: string } | undefined;
    for (;;) {
      if (this.stopped) return;
      const page = await this.evictions.heldPage(this.uow.db, after, PAGE);
      if (page.length === 0) return;
      await this.sweeper.decideRows(page.map((r) => r.id));
      if (page.length < PAGE) return;
      after = page[page.length - 1];
    }
  }
}
