/**
 * Reconnect waits: exponential with "full jitter" (AWS architecture blog, "Exponential Backoff And Jitter"),
 * so many mirrors cut off together do not reconnect in step: attempt n waits a uniform random time in
 * [0, min(max, initial × 2^n)], never less than `floor` (a watch that keeps failing at once must not spin).
 * Pure: the random number is a parameter.
 */
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** The least wait, whatever the draw (default: initialMs / 2). */
  floorMs?: number;
}

/** The wait before reconnect attempt `attempt` (0 = the first retry), given a draw `random` in [0, 1). */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: number): number {
  const floor = policy.floorMs ?? Math.floor(policy.initialMs / 2);
  const exponent = Math.min(Math.max(0, Math.floor(attempt)), 30);
  const ceiling = Math.min(policy.maxMs, policy.initialMs * 2 ** exponent);
  const draw = Math.min(Math.max(random, 0), 1);
  return Math.max(Math.min(floor, ceiling), Math.floor(draw * ceiling));
}
