import { Logger } from '@nestjs/common';
import { withTimeout } from './time-limits';
import type { DelayedJob, DelayedJobs } from './delayed-jobs';

/** Timers armed per `scheduleMany` call. */
const CHUNK = 2000;
/**
 * How long one backend call may take before the queue moves on. A call sent as Redis went silent
 * can wait for minutes, and every later change would wait behind it. Moving on is safe: a write
 * that lands late only arms a timer that proposes a sweep.
 */
const CALL_TIMEOUT_MS = 10_000;
const LATE = `the timer backend did not answer within ${CALL_TIMEOUT_MS} ms`;

/**
 * Timer changes decided by committed transactions, applied after COMMIT, off the request path and
 * in commit order (ARCHITECTURE.md principle 5: timers are only timers).
 *
 * Why a mutation does not wait for them: the eviction row with its `evictAt` is already durable, a
 * firing only asks for a sweep that re-decides from the database (SEMANTICS A.4), and the reconciler
 * arms every deadline of a Scheduled row that lacks a timer. Waiting would add Redis's round trips to
 * the answer and buy no guarantee.
 *
 * Why one queue per process: the changes of successive transactions reach the backend in the order
 * they committed, so batches run one after another. A failed or stalled batch is logged and left
 * behind; the reconciler arms what it missed. Nothing here cancels: an eviction timer is shared by the
 * rows of its deadline (evictions/eviction-timer-id.ts), and one left with no row wakes a sweep that
 * finds nothing.
 */
export class TimerWrites {
  private readonly logger = new Logger('timers');
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  private readonly scheduledListeners: Array<(dueAts: readonly Date[]) => void> = [];

  constructor(private readonly jobs: DelayedJobs) {}

  /**
   * Called, synchronously, with the due times of every committed batch of schedules before they are
   * queued for the backend (the eviction module's local alarm: `SweepAlarm`).
   */
  onScheduled(listener: (dueAts: readonly Date[]) => void): void {
    this.scheduledListeners.push(listener);
  }

  /** Queues the schedules of one committed change. Returns at once. */
  apply(schedules: readonly DelayedJob[]): void {
    if (schedules.length === 0) return;
    if (this.scheduledListeners.length > 0) {
      const dueAts = schedules.map((job) => job.dueAt);
      for (const listener of this.scheduledListeners) listener(dueAts);
    }
    this.pending++;
    this.tail = this.tail
      .then(() => this.write(schedules))
      .finally(() => {
        this.pending--;
      });
  }

  /** Timer changes queued and not yet written (for readiness of tests and for shutdown logs). */
  get queued(): number {
    return this.pending;
  }

  /** Resolves once every change queued so far has been written (or has failed and been logged). */
  settled(): Promise<void> {
    return this.tail;
  }

  private async write(schedules: readonly DelayedJob[]): Promise<void> {
    for (let i = 0; i < schedules.length; i += CHUNK) {
      await withTimeout(this.jobs.scheduleMany(schedules.slice(i, i + CHUNK)), CALL_TIMEOUT_MS, LATE).catch(
        (e: unknown) =>
          this.logger.warn({
            msg: 'could not arm timers; the reconciler will',
            count: schedules.length,
            err: String(e),
          }),
      );
    }
  }
}
