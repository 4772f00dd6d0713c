import { Clock, ManualClock, systemClock } from './clock';
import {
  assertValidDelayedJob,
  DEFAULT_RETRY,
  DelayedJob,
  DelayedJobHandler,
  DelayedJobs,
  DelayedJobsErrorListener,
  RetryPolicy,
} from './delayed-jobs';
import { MinHeap } from './min-heap';

/** Node clamps longer `setTimeout` delays to 1 ms (with a warning); far deadlines re-arm instead. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export interface InProcessDelayedJobsOptions {
  /** Defaults to the system clock. With a `ManualClock`, jobs fire when the clock is moved. */
  clock?: Clock;
  retry?: RetryPolicy;
  onError?: DelayedJobsErrorListener;
}

interface Entry {
  job: DelayedJob;
  /** When to run next: `dueAt`, or later while waiting for a retry. */
  fireAt: number;
  attempt: number;
  seq: number;
  /** Due while the previous firing of the same id still runs; re-queued when that run ends. */
  blocked: boolean;
}

/**
 * Delayed jobs in this process: a min-heap of deadlines and a single `setTimeout` for the earliest
 * (never one timer per job), for the embedded default without Redis. Nothing survives a restart: the
 * database keeps `evictAt` and the reconciler re-arms (ARCHITECTURE.md principle 5).
 *
 * The heap deletes lazily: an entry is live only while `pending` maps its id to that very entry, so
 * cancel and re-schedule are O(1) map writes and stale heap entries are skipped when they surface.
 *
 * With a `ManualClock` no real timer is used: moving the clock fires what became due, and
 * `runDue()` waits until those handlers (and whatever they triggered) have finished.
 */
export class InProcessDelayedJobs implements DelayedJobs {
  readonly kind = 'in-process' as const;

  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly onError: DelayedJobsErrorListener;
  private readonly pending = new Map<string, Entry>();
  private readonly heap = new MinHeap<Entry>((a, b) => a.fireAt < b.fireAt || (a.fireAt === b.fireAt && a.seq < b.seq));
  private readonly running = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private handler?: DelayedJobHandler;
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;
  private unsubscribeClock?: () => void;
  private microtaskQueued = false;
  private seq = 0;
  private closed = false;

  constructor(options: InProcessDelayedJobsOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.onError = options.onError ?? (() => undefined);
  }

  async schedule(job: DelayedJob): Promise<void> {
    assertValidDelayedJob(job);
    this.assertOpen();
    // A JSON round trip gives the handler what the Redis adapter would give it, and rejects data
    // that could not be stored there.
    const copy: DelayedJob = {
      id: job.id,
      dueAt: new Date(job.dueAt.getTime()),
      data: JSON.parse(JSON.stringify(job.data)),
    };
    this.enqueue({ job: copy, fireAt: copy.dueAt.getTime(), attempt: 1, seq: this.seq++, blocked: false });
  }

  async cancel(id: string): Promise<boolean> {
    return this.pending.delete(id);
  }

  async scheduleMany(jobs: readonly DelayedJob[]): Promise<void> {
    for (const job of jobs) assertValidDelayedJob(job);
    this.assertOpen();
    const copies = jobs.map((job): DelayedJob => ({
      id: job.id,
      dueAt: new Date(job.dueAt.getTime()),
      data: JSON.parse(JSON.stringify(job.data)),
    }));
    for (const copy of copies)
      this.enqueue({ job: copy, fireAt: copy.dueAt.getTime(), attempt: 1, seq: this.seq++, blocked: false });
  }

  async cancelMany(ids: readonly string[]): Promise<number> {
    let cancelled = 0;
    for (const id of ids) if (this.pending.delete(id)) cancelled++;
    return cancelled;
  }

  async list(): Promise<DelayedJob[]> {
    return [...this.pending.values()]
      .map((entry) => cloneJob(entry.job))
      .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async start(handler: DelayedJobHandler): Promise<void> {
    this.assertOpen();
    if (this.handler) throw new Error('InProcessDelayedJobs: already started');
    this.handler = handler;
    if (this.clock instanceof ManualClock) this.unsubscribeClock = this.clock.onChange(() => this.fireDue());
    this.fireDue();
  }

  /**
   * Fires every job due now (by the injected clock) and resolves once no handler is running —
   * including retries and re-schedules that became due meanwhile. Meant for `ManualClock` tests.
   */
  async runDue(): Promise<void> {
    this.fireDue();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribeClock?.();
    this.clearTimer();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    this.pending.clear();
    this.heap.reset([]);
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  private enqueue(entry: Entry): void {
    this.pending.set(entry.job.id, entry);
    this.heap.push(entry);
    // Cancelled and replaced entries stay in the heap until they surface; bound that garbage.
    if (this.heap.size > 2 * this.pending.size + 1024) {
      this.heap.reset([...this.pending.values()].filter((e) => !e.blocked));
    }
    this.arm();
  }

  private isLive(entry: Entry): boolean {
    return this.pending.get(entry.job.id) === entry && !entry.blocked;
  }

  private fireDue(): void {
    if (!this.handler || this.closed) return;
    const now = this.clock.now().getTime();
    for (let top = this.heap.peek(); top && (!this.isLive(top) || top.fireAt <= now); top = this.heap.peek()) {
      this.heap.pop();
      if (!this.isLive(top)) continue;
      if (this.running.has(top.job.id)) {
        // Never two runs of one id at once (as BullMQ, where the id is one job): wait for the first.
        top.blocked = true;
        continue;
      }
      this.pending.delete(top.job.id);
      this.launch(top);
    }
    this.arm();
  }

  private launch(entry: Entry): void {
    const id = entry.job.id;
    this.running.add(id);
    const run = this.run(entry).finally(() => {
      this.inFlight.delete(run);
    });
    this.inFlight.add(run);
  }

  private async run(entry: Entry): Promise<void> {
    const id = entry.job.id;
    let retry: Entry | undefined;
    try {
      await this.handler!(cloneJob(entry.job));
    } catch (error) {
      const final = entry.attempt >= this.retry.attempts || this.closed;
      this.onError(error, { id, attempt: entry.attempt, final });
      if (!final) {
        const backoff = this.retry.backoffMs * 2 ** (entry.attempt - 1);
        retry = { ...entry, fireAt: this.clock.now().getTime() + backoff, attempt: entry.attempt + 1, seq: this.seq++ };
      }
    }
    this.running.delete(id);
    if (this.closed) return;
    const next = this.pending.get(id);
    if (next) {
      // Re-scheduled while running: that job supersedes any retry of this one.
      if (next.blocked) {
        next.blocked = false;
        this.heap.push(next);
      }
    } else if (retry) {
      this.enqueue(retry);
    }
    this.fireDue();
  }

  private arm(): void {
    if (!this.handler || this.closed) return;
    let top = this.heap.peek();
    while (top && !this.isLive(top)) {
      this.heap.pop();
      top = this.heap.peek();
    }
    if (!top) return;
    const now = this.clock.now().getTime();
    if (this.clock instanceof ManualClock) {
      if (top.fireAt <= now && !this.microtaskQueued) {
        this.microtaskQueued = true;
        queueMicrotask(() => {
          this.microtaskQueued = false;
          this.fireDue();
        });
      }
      return;
    }
    if (this.timer && this.timerAt <= top.fireAt) return; // the armed timer wakes first and re-arms
    this.clearTimer();
    const delay = Math.min(Math.max(top.fireAt - now, 0), MAX_TIMEOUT_MS);
    this.timerAt = now + delay;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.fireDue();
    }, delay);
    // Pending jobs alone do not keep the process alive: they are lost on exit by design.
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('InProcessDelayedJobs: closed');
  }
}

function cloneJob(job: DelayedJob): DelayedJob {
  return { id: job.id, dueAt: new Date(job.dueAt.getTime()), data: structuredClone(job.data) };
}
