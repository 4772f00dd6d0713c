import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DELAYED_JOBS } from '../kernel/tokens';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import type { DelayedJob, DelayedJobs } from '../kernel/timers/delayed-jobs';
import { TimerRouter } from '../kernel/timers/timer-router';
import { DueEvictionSweeper } from './due-eviction-sweeper';
import { evictionTimer, type EvictionTimerData } from './eviction-timer-id';

export { EVICTION_WORKER_ACTOR } from './due-eviction-sweeper';

/**
 * The eviction timer handler (SEMANTICS A.4, ARCHITECTURE.md principle 5). A timer only proposes: it names a
 * deadline (the rows due then share it: eviction-timer-id.ts), but what happens is decided by the
 * {@link DueEvictionSweeper}, which takes every row due now from the database and re-decides it from stored
 * state. A stale timer (its rows were cancelled, executed or re-timed) therefore costs at most a sweep that finds
 * nothing. Timers of earlier versions, one per row (`evict-<rowId>-<ms>`), carry the same `evictAt` and are
 * handled alike until the reconciler replaces them. The handler resolves once a sweep that started after the
 * firing has finished, so a successful handler means its row has been considered; a failed sweep fails the
 * handler and the timer is retried with its backoff.
 *
 * A timer that fires before its deadline by this process' clock (another replica's clock promoted
 * it) is armed again for its deadline instead: the row is not due yet.
 */
@Injectable()
export class EvictionWorker implements OnModuleInit {
  private readonly logger = new Logger('eviction-worker');

  constructor(
    private readonly uow: UnitOfWork,
    private readonly sweeper: DueEvictionSweeper,
    @Inject(DELAYED_JOBS) private readonly jobs: DelayedJobs,
    private readonly router: TimerRouter,
  ) {}

  onModuleInit(): void {
    this.router.register('evict-', (job) => this.handle(job));
  }

  /** The timer handler: resolves once a sweep that started after this firing has finished. */
  handle(job: DelayedJob): Promise<void> {
    const data = job.data as Partial<EvictionTimerData>;
    if (typeof data.evictAt !== 'string' || Number.isNaN(Date.parse(data.evictAt))) {
      this.logger.warn({ msg: 'ignoring a timer that is not an eviction timer', id: job.id });
      return Promise.resolve();
    }
    const evictAt = new Date(data.evictAt);
    if (evictAt.getTime() > this.uow.now().getTime()) return this.jobs.schedule(evictionTimer(evictAt));
    return this.sweeper.request();
  }
}
