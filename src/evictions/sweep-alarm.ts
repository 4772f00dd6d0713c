import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, DELAYED_JOBS } from '../kernel/tokens';
import type { Clock } from '../kernel/timers/clock';
import type { DelayedJobs } from '../kernel/timers/delayed-jobs';
import { MAX_TIMEOUT_MS } from '../kernel/timers/in-process-delayed-jobs';
import { MinHeap } from '../kernel/timers/min-heap';
import { TimerWrites } from '../kernel/timers/timer-writes';
import { DueEvictionSweeper } from './due-eviction-sweeper';

/**
 * A local alarm, on the replica that committed them, at each distinct deadline of the eviction
 * timers it has just scheduled: when one passes, a sweep is requested at once.
 *
 * Why, when BullMQ already fires every timer: an idle BullMQ worker fires 0–100 ms late (Redis ends its blocking
 * wait at its `hz` tick), and every eviction due then waits for that (when timers were one per row, 10,000 due
 * together were handed out ~280 ms late). A sweep request is only a proposal (SEMANTICS A.4): the sweep takes
 * what is due from the database, so the BullMQ firings that follow find nothing left, and a deadline whose row
 * was cancelled meanwhile wakes a sweep that finds nothing. The durable timers stay the mechanism (other
 * replicas, restarts); this only makes the common case prompt.
 *
 * With in-process timers (embedded) the timers themselves fire here within a few ms: no alarm.
 * One `setTimeout` for the earliest deadline; deadlines are kept once each, by their millisecond.
 */
@Injectable()
export class SweepAlarm implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('sweep-alarm');
  private readonly deadlines = new MinHeap<number>((a, b) => a < b);
  private readonly known = new Set<number>();
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private stopped = false;

  constructor(
    private readonly timerWrites: TimerWrites,
    private readonly sweeper: DueEvictionSweeper,
    @Inject(DELAYED_JOBS) private readonly jobs: DelayedJobs,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.jobs.kind === 'redis') this.timerWrites.onScheduled((dueAts) => this.wakeAt(dueAts));
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Sets the alarm for these deadlines too. */
  wakeAt(dueAts: readonly Date[]): void {
    if (this.stopped) return;
    for (const dueAt of dueAts) {
      const ms = dueAt.getTime();
      if (this.known.has(ms)) continue;
      this.known.add(ms);
      this.deadlines.push(ms);
    }
    this.arm();
  }

  /** Deadlines still ahead of the alarm (for tests and metrics). */
  get pending(): number {
    return this.known.size;
  }

  private arm(): void {
    const next = this.deadlines.peek();
    if (next === undefined || (this.timer && next >= this.timerAt)) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = setTimeout(
      () => this.ring(),
      Math.min(MAX_TIMEOUT_MS, Math.max(0, next - this.clock.now().getTime())),
    );
    this.timer.unref();
  }

  private ring(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.clock.now().getTime();
    let due = false;
    for (let next = this.deadlines.peek(); next !== undefined && next <= now; next = this.deadlines.peek()) {
      this.known.delete(this.deadlines.pop()!);
      due = true;
    }
    if (due && !this.stopped) {
      this.sweeper
        .request()
        .catch((error: unknown) =>
          this.logger.debug({ msg: 'alarm sweep failed; the timers will retry', err: String(error) }),
        );
    }
    this.arm();
  }
}
