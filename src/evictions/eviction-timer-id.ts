import type { DelayedJob } from '../kernel/timers/delayed-jobs';

/**
 * One timer per deadline, shared by every Scheduled row due at that millisecond. A firing only proposes: the sweep
 * it wakes takes every due row from the database (SEMANTICS A.4), so one firing serves them all, and a taint that
 * schedules 10,000 evictions for the same instant costs one delayed job instead of 10,000 (each of which BullMQ
 * promoted, handed out and completed on the service's thread during the sweep: docs/EVICTIONS.md has the figures).
 *
 * A new deadline (re-timed, or a taint removed and added again) is a new id, and the timer port never drops a
 * schedule for an id it already holds (a pending job is replaced, a firing one fires again after its run), so an
 * old timer cannot block a later eviction (kubernetes#107543). Nobody cancels a deadline's timer when one of its
 * rows ends: the others may still need it, and a timer left with no row wakes a sweep that finds nothing.
 */
export function evictionTimerId(evictAt: Date): string {
  return `evict-at-${evictAt.getTime()}`;
}

export interface EvictionTimerData {
  [key: string]: unknown;
  evictAt: string;
}

/** The timer that wakes a sweep at `evictAt`. */
export function evictionTimer(evictAt: Date): DelayedJob {
  const data: EvictionTimerData = { evictAt: evictAt.toISOString() };
  return { id: evictionTimerId(evictAt), dueAt: evictAt, data };
}
