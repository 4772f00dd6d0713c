import { DelayedError, Job, Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import {
  assertValidDelayedJob,
  DEFAULT_RETRY,
  DelayedJob,
  DelayedJobHandler,
  DelayedJobs,
  DelayedJobsErrorListener,
  RetryPolicy,
} from './delayed-jobs';
import { settlesWithin, withTimeout } from './time-limits';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export interface BullMqDelayedJobsOptions {
  /** `redis://[:password@]host:port[/db]` or `rediss://…`; default `REDIS_URL`, then `redis://127.0.0.1:6379`. */
  redisUrl?: string;
  /** Default `eviction-timers`. Every replica that shares the timers uses the same name and prefix. */
  queueName?: string;
  /** Redis key prefix; default `taintwise`. */
  prefix?: string;
  /** Handlers running at once in this process (they do database work); default 32. */
  concurrency?: number;
  retry?: RetryPolicy;
  /** How long a crashed replica holds a running job before another replica runs it again; default 30 s. */
  lockDurationMs?: number;
  /** How long `schedule` waits for a running firing of the same id in another process; default 10 s. */
  busyWaitMs?: number;
  /** How long `close()` waits for running handlers before it drops them; default 10 s. */
  closeTimeoutMs?: number;
  /** `ping()`, and `schedule`/`cancel`/`list` while Redis is disconnected, give up after this long; default 2 s. */
  pingTimeoutMs?: number;
  /** Handler failures and Redis connection errors. Default: ignore (the caller's logger should listen). */
  onError?: DelayedJobsErrorListener;
}

/** What a BullMQ job carries: the caller's id (the job id is its encoding) and the deadline in ms. */
interface Payload {
  id: string;
  dueAt: number;
  data: Record<string, unknown>;
}

const JOB_NAME = 'delayed-job';
const PENDING_STATES = new Set(['delayed', 'waiting', 'prioritized']);

/**
 * BullMQ job ids: BullMQ rejects ids that read as an integer ("Custom Id cannot be integers") and ids
 * with `:` unless they split into exactly three parts (a legacy repeat-job format), and `:` is also
 * Redis' key separator. So `%` and `:` are percent-encoded, and so is the first character of an id
 * that would read as an integer. Reversible: the encoded form uses `%` only as an escape.
 *
 * @example encodeJobId('evict:3f9c:1767225600000') // 'evict%3A3f9c%3A1767225600000'
 * @example encodeJobId('42') // '%342'
 */
export function encodeJobId(id: string): string {
  if (id.length === 0) throw new TypeError('job id must be a non-empty string');
  const escaped = id.replace(/[%:]/g, (c) => (c === '%' ? '%25' : '%3A'));
  if (`${parseInt(escaped, 10)}` !== escaped) return escaped;
  return `%${escaped.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}${escaped.slice(1)}`;
}

export function decodeJobId(jobId: string): string {
  return jobId.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * Delayed jobs on BullMQ/Redis: one delayed job per id, fired by a Worker in whichever replica takes it first,
 * durable across restarts. Re-scheduling removes then adds (BullMQ ignores an `add` of an existing id); a job
 * firing here is re-timed in place when its handler returns. It reads the wall clock, not the injected Clock:
 * Redis counts BullMQ's delays in real milliseconds. Details and timings: docs/EVICTIONS.md, "The BullMQ timers".
 */
export class BullMqDelayedJobs implements DelayedJobs {
  readonly kind = 'redis' as const;

  private readonly url: string;
  private readonly prefix: string;
  private readonly queueName: string;
  private readonly concurrency: number;
  private readonly lockDurationMs: number;
  private readonly busyWaitMs: number;
  private readonly pingTimeoutMs: number;
  private readonly closeTimeoutMs: number;
  private readonly onError: DelayedJobsErrorListener;
  /** The connection of the Queue and of `ping`. */
  private readonly redis: IORedis;
  private readonly queue: Queue<Payload>;
  private worker?: Worker<Payload>;
  /** Jobs whose handler runs in this process, by BullMQ job id, with a re-schedule that arrived meanwhile. */
  private readonly running = new Map<string, { rearm?: DelayedJob; run?: Promise<void> }>();
  private closing?: Promise<void>;

  constructor(options: BullMqDelayedJobsOptions = {}) {
    this.url = options.redisUrl ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
    this.prefix = options.prefix ?? 'taintwise';
    this.queueName = options.queueName ?? 'eviction-timers';
    this.concurrency = options.concurrency ?? 32;
    this.lockDurationMs = options.lockDurationMs ?? 30_000;
    this.busyWaitMs = options.busyWaitMs ?? 10_000;
    this.pingTimeoutMs = options.pingTimeoutMs ?? 2_000;
    this.closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
    this.onError = options.onError ?? (() => undefined);
    const retry = options.retry ?? DEFAULT_RETRY;

    // Requests (schedule/cancel/ping) fail fast while Redis is away rather than queue up behind a
    // reconnect: the caller's transaction has committed the deadline and the reconciler re-arms it.
    this.redis = new IORedis(this.url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      connectionName: `${this.queueName}:queue`,
    });
    this.redis.on('error', (error) => this.onError(error, {}));
    this.queue = new Queue<Payload>(this.queueName, {
      connection: this.redis,
      prefix: this.prefix,
      defaultJobOptions: {
        attempts: retry.attempts,
        backoff: { type: 'exponential', delay: retry.backoffMs },
        // Finished jobs go at once, so the id is free for the next schedule (kubernetes#107543).
        removeOnComplete: true,
        removeOnFail: true,
      },
    });
    this.queue.on('error', (error) => this.onError(error, {}));
  }

  async schedule(job: DelayedJob): Promise<void> {
    assertValidDelayedJob(job);
    await this.connected();
    const jobId = encodeJobId(job.id);
    const until = Date.now() + this.busyWaitMs;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      const running = this.running.get(jobId);
      if (running) {
        running.rearm = cloneJob(job);
        return;
      }
      // 1: no such job now (removed, or there was none); 0: a worker holds it — it is firing.
      if ((await this.queue.remove(jobId)) === 1) break;
      if (Date.now() > until) {
        throw new Error(
          `delayed job ${job.id} has been firing in another process for over ${this.busyWaitMs} ms; schedule it again later`,
        );
      }
      await sleep(pause);
    }
    await this.queue.add(JOB_NAME, toPayload(job), { jobId, delay: Math.max(0, job.dueAt.getTime() - Date.now()) });
  }

  /**
   * Bulk `schedule`. Ids that exist nowhere yet (the common case: an eviction timer id names the row
   * and its deadline, so a new deadline is a new id) need no remove first: one pipelined EXISTS per
   * chunk tells which, and they go in with one `addBulk` (a single pipeline). Ids that exist, or
   * run in this process, take the one-by-one path of `schedule` (remove-then-add, or re-arm after
   * the run). An id added by another process between the EXISTS and the add keeps that process'
   * job: BullMQ ignores an add of an existing id, as for two concurrent `schedule` calls.
   */
  async scheduleMany(jobs: readonly DelayedJob[]): Promise<void> {
    for (const job of jobs) assertValidDelayedJob(job);
    await this.connected();
    const byJobId = new Map<string, DelayedJob>();
    for (const job of jobs) byJobId.set(encodeJobId(job.id), job);
    const replace: DelayedJob[] = [];
    const candidates: Array<[string, DelayedJob]> = [];
    for (const entry of byJobId) {
      if (this.running.has(entry[0])) replace.push(entry[1]);
      else candidates.push(entry);
    }
    const exists = await this.existing(candidates.map(([jobId]) => jobId));
    const fresh = candidates.filter((_, i) => !exists[i]);
    for (const [i, entry] of candidates.entries()) if (exists[i]) replace.push(entry[1]);
    if (fresh.length) {
      const now = Date.now();
      await this.queue.addBulk(
        fresh.map(([jobId, job]) => ({
          name: JOB_NAME,
          data: toPayload(job),
          opts: { jobId, delay: Math.max(0, job.dueAt.getTime() - now) },
        })),
      );
    }
    await Promise.all(replace.map((job) => this.schedule(job)));
  }

  /**
   * Bulk `cancel`: one pipelined EXISTS, then the removes of the jobs that exist, sent together.
   * A job some worker holds (it is firing) is not pending: BullMQ's remove refuses it (0).
   */
  async cancelMany(ids: readonly string[]): Promise<number> {
    await this.connected();
    let cancelled = 0;
    const candidates: string[] = [];
    for (const jobId of new Set(ids.map(encodeJobId))) {
      const running = this.running.get(jobId);
      if (!running) candidates.push(jobId);
      else if (running.rearm) {
        running.rearm = undefined;
        cancelled++;
      }
    }
    const exists = await this.existing(candidates);
    const removed = await Promise.all(candidates.filter((_, i) => exists[i]).map((jobId) => this.queue.remove(jobId)));
    return cancelled + removed.filter((code) => code === 1).length;
  }

  /** Whether each BullMQ job id has a job hash in Redis (any state), in one pipeline. */
  private async existing(jobIds: readonly string[]): Promise<boolean[]> {
    if (jobIds.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const jobId of jobIds) pipeline.exists(this.queue.toKey(jobId));
    const results = (await pipeline.exec()) ?? [];
    return jobIds.map((_, i) => {
      const [error, value] = results[i] ?? [new Error('no reply'), 0];
      if (error) throw error;
      return value === 1;
    });
  }

  async cancel(id: string): Promise<boolean> {
    await this.connected();
    const jobId = encodeJobId(id);
    const running = this.running.get(jobId);
    if (running?.rearm) {
      running.rearm = undefined;
      return true;
    }
    if (!PENDING_STATES.has(await this.queue.getJobState(jobId))) return false;
    return (await this.queue.remove(jobId)) === 1;
  }

  async list(): Promise<DelayedJob[]> {
    await this.connected();
    const jobs = await this.queue.getJobs(['delayed', 'waiting', 'prioritized']);
    const pending = jobs.filter((job): job is Job<Payload> => !!job?.data).map((job) => fromPayload(job.data));
    for (const { rearm } of this.running.values()) if (rearm) pending.push(cloneJob(rearm));
    return pending.sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async start(handler: DelayedJobHandler): Promise<void> {
    this.assertOpen();
    if (this.worker) throw new Error('BullMqDelayedJobs: already started');
    this.worker = new Worker<Payload>(this.queueName, (job, token) => this.process(handler, job, token), {
      // The worker's connections block on Redis; BullMQ requires them to retry forever.
      connection: { url: this.url, maxRetriesPerRequest: null, connectionName: `${this.queueName}:worker` },
      prefix: this.prefix,
      concurrency: this.concurrency,
      lockDuration: this.lockDurationMs,
    });
    this.worker.on('error', (error) => this.onError(error, {}));
    // Without Redis the worker keeps reconnecting and fires once it is back; start-up must not hang
    // on it (readiness reports it through `ping`).
    await withTimeout(
      this.worker.waitUntilReady(),
      this.pingTimeoutMs,
      `Redis did not accept the worker within ${this.pingTimeoutMs} ms`,
    ).catch((error: unknown) => this.onError(error, {}));
  }

  async close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const worker = this.worker;
    if (worker) {
      // BullMQ's graceful close waits for running handlers, but never returns while the worker cannot
      // reach Redis. Then wait for our handlers here and close it by force.
      if (this.redis.status === 'ready') {
        if (!(await settlesWithin(worker.close(), this.closeTimeoutMs))) {
          this.onError(
            new Error(`delayed-job handlers still running after ${this.closeTimeoutMs} ms; closing anyway`),
            {},
          );
          await worker.disconnect();
        }
      } else {
        await settlesWithin(
          Promise.allSettled([...this.running.values()].map((slot) => slot.run)),
          this.closeTimeoutMs,
        );
        await worker.close(true);
      }
    }
    await this.queue.close();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  async ping(): Promise<void> {
    await this.connected();
    await withTimeout(
      this.redis.ping(),
      this.pingTimeoutMs,
      `Redis did not answer PING within ${this.pingTimeoutMs} ms`,
    );
  }

  private async process(handler: DelayedJobHandler, job: Job<Payload>, token?: string): Promise<void> {
    const jobId = job.id!;
    const payload = job.data;
    // BullMQ promotes a delayed job by the clock of whichever process looks; never run early by ours.
    if (Date.now() < payload.dueAt) return this.retime(job, payload, token);
    const slot: { rearm?: DelayedJob; run?: Promise<void> } = {};
    this.running.set(jobId, slot);
    let failure: { error: unknown } | undefined;
    try {
      slot.run = handler(fromPayload(payload));
      await slot.run;
    } catch (error) {
      failure = { error };
    } finally {
      this.running.delete(jobId);
    }
    // Re-scheduled while it ran: this same job becomes the new one (it cannot be removed while held).
    if (slot.rearm) return this.retime(job, toPayload(slot.rearm), token);
    if (failure) {
      const attempt = job.attemptsMade + 1;
      this.onError(failure.error, { id: payload.id, attempt, final: attempt >= (job.opts.attempts ?? 1) });
      throw failure.error;
    }
  }

  private async retime(job: Job<Payload>, payload: Payload, token?: string): Promise<never> {
    if (payload !== job.data) await job.updateData(payload);
    await job.moveToDelayed(payload.dueAt, token);
    throw new DelayedError();
  }

  /**
   * BullMQ waits for a connection without a time limit; a request must not. Waits for the
   * connection at most `pingTimeoutMs` (covers start-up), then fails.
   */
  private async connected(): Promise<void> {
    this.assertOpen();
    if (this.redis.status === 'ready') return;
    let onReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      onReady = resolve;
      this.redis.once('ready', onReady);
    });
    try {
      await withTimeout(ready, this.pingTimeoutMs, `Redis did not connect within ${this.pingTimeoutMs} ms`);
    } finally {
      this.redis.off('ready', onReady);
    }
  }

  private assertOpen(): void {
    if (this.closing) throw new Error('BullMqDelayedJobs: closed');
  }
}

function toPayload(job: DelayedJob): Payload {
  return { id: job.id, dueAt: job.dueAt.getTime(), data: job.data };
}

function fromPayload(payload: Payload): DelayedJob {
  return { id: payload.id, dueAt: new Date(payload.dueAt), data: payload.data };
}

function cloneJob(job: DelayedJob): DelayedJob {
  return { id: job.id, dueAt: new Date(job.dueAt.getTime()), data: JSON.parse(JSON.stringify(job.data)) };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
