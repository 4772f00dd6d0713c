/**
 * The port for delayed jobs: "wake me at `dueAt` with this data". Timers are only timers: the handler
 * re-checks the current state and acts at most once (SEMANTICS A.4). Adapters: BullMQ on Redis and
 * in-process; both pass `delayed-jobs.contract.ts`. The guarantees they keep (never early, one pending job
 * per id, replace and cancel, retries, one handler per firing) are in docs/EVICTIONS.md, "The timer port".
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
