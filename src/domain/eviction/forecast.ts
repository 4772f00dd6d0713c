/**
 * A mirror's forecasts (README "Mirror a cluster"): taintwise computes a mirrored pod's eviction with the same
 * rule (SEMANTICS A.3) but the cluster's taint manager carries it out. Pure: times are parameters.
 */

const INT32_MAX = 2 ** 31 - 1;

/**
 * How far reality was from the forecast, in ms: when the cluster removed the pod minus the forecast `evictAt`.
 * Positive: the cluster evicted later (a taint manager restart resets its clocks, kubernetes#108268); negative:
 * earlier. Kept in a 32-bit column: clamped to ±(2^31 − 1) ms (about 24.8 days).
 */
export function forecastErrorMs(evictAt: Date, observedAt: Date): number {
  const error = observedAt.getTime() - evictAt.getTime();
  return Math.max(-INT32_MAX, Math.min(INT32_MAX, Math.round(error)));
}

/** A forecast still pending more than `graceMs` past its `evictAt`: the cluster has not evicted when it should have. */
export function isOverdueForecast(
  row: { status: string; forecast: boolean; evictAt: Date },
  now: Date,
  graceMs: number,
): boolean {
  return row.forecast && row.status === 'Scheduled' && now.getTime() - row.evictAt.getTime() > graceMs;
}
