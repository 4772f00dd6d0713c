/**
 * A timer id names the eviction row AND its deadline (STYLE habit 8): re-timing an eviction gives a
 * new id, so an old timer can never swallow a new deadline (the shape of kubernetes#107543).
 */
export function evictionTimerId(evictionId: string, evictAt: Date): string {
  return `evict-${evictionId}-${evictAt.getTime()}`;
}

export interface EvictionTimerData {
  [key: string]: unknown;
  evictionId: string;
  evictAt: string;
}
