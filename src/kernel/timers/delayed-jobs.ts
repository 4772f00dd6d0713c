/**
 * The port for delayed jobs: "wake me at `dueAt` with this data". Timers are only timers
 * (ARCHITECTURE.md principle 5): they carry no rule, the handler re-checks the current state and acts at most
 * once (SEMANTICS.md A.4), so every guarantee below is about *when* and *how often* a handler runs.
 *
 * Two adapters: BullMQ on Redis (`BullMqDelayedJobs`, shared by every replica and durable across
 * restarts) and in-process (`InProcessDelayedJobs`, for the embedded default, lost on exit — the
 * database keeps `evictAt` and a reconciler re-arms at start). Both pass `delayed-jobs.contract.ts`.
 *
 * Semantics every adapter keeps:
 * - A job never fires before `dueAt`; it fires soon after (a `dueAt` in the past fires at once).
 * - One pending job per id. `schedule` with an id that is pending replaces it (new `dueAt` and
 *   `data`); the old one never fires. Once a job has fired (handler succeeded or gave up after its
 *   retries) the id is free and may be scheduled again: the kubernetes#107543 stale-key bug cannot
 *   happen here. `schedule` of an id whose handler is running right now takes effect after that run:
 *   the new job fires at its own `dueAt`, never concurrently with the running one.
 * - `cancel(id)` removes a pending job and says whether there was one; a job whose handler is
 *   already running is not pending (the handler re-checks the world anyway) — if that run fails,
 *   its retry is pending again, and cancellable.
 * - A handler that throws is retried a few times with a short backoff, then dropped (and reported
 *   to the adapter's `onError`). Handlers must be idempotent: a crash between the handler's success
 *   and its acknowledgement runs it again.
 * - Each firing runs one handler once, in one process, even when several processes share a backend.
 * - `data` must survive `JSON.stringify` (Dates become strings in the Redis adapter).
 */
export interface DelayedJob {
  id: string;
  dueAt: Date;
  data: Record<string, unknown>;
}

export type DelayedJobHandler = (job: DelayedJob) => Promise<void>;

export interface DelayedJobs {
  readonly kind: 'redis' | 'in-process';
  /** Adds the job, or replaces (re-times) the pending job with the same id. */
  schedule(job: DelayedJob): Promise<void>;
  /** Removes the pending job `id`; true if there was one. */
  cancel(id: string): Promise<boolean>;
  /**
   * `schedule` for many jobs, in bulk: the same semantics per job (a pending id is replaced; an id
   * whose handler is running fires again after that run), a few backend round trips for the lot
   * instead of a few per job. Within one call the last job of an id wins. Callers chunk (≈ 2,000).
   */
  scheduleMany(jobs: readonly DelayedJob[]): Promise<void>;
  /** `cancel` for many ids, in bulk; resolves to how many of them were pending. */
  cancelMany(ids: readonly string[]): Promise<number>;
  /** The pending jobs (including those waiting for a retry), earliest `dueAt` first. */
  list(): Promise<DelayedJob[]>;
  /** Starts firing due jobs into `handler`. Once per instance; a producer-only instance never calls it. */
  start(handler: DelayedJobHandler): Promise<void>;
  /** Stops firing and waits for running handlers. Pending jobs stay in Redis; in-process ones are dropped. */
  close(): Promise<void>;
  /** Resolves when the backend answers; throws otherwise (readiness). */
  ping(): Promise<void>;
}

/** How often and how soon a throwing handler is tried again. */
export interface RetryPolicy {
  /** Total runs of a firing, the first included. */
  attempts: number;
  /** Wait before the 2nd run; doubled before each next one. */
  backoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoffMs: 100 };

/** Called when a handler throws (`final`: no retry left, the job is dropped) or the backend fails. */
export type DelayedJobsErrorListener = (
  error: unknown,
  context: { id?: string; attempt?: number; final?: boolean },
) => void;

/** Throws on a job no adapter can keep: empty id, invalid date, data that is not a plain object. */
export function assertValidDelayedJob(job: DelayedJob): void {
  if (typeof job.id !== 'string' || job.id.length === 0)
    throw new TypeError('DelayedJob.id must be a non-empty string');
  if (!(job.dueAt instanceof Date) || Number.isNaN(job.dueAt.getTime())) {
    throw new TypeError(`DelayedJob ${job.id}: dueAt must be a valid Date`);
  }
  if (typeof job.data !== 'object' || job.data === null || Array.isArray(job.data)) {
    throw new TypeError(`DelayedJob ${job.id}: data must be an object`);
  }
}
