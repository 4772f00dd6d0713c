/**
 * Logs a recurring message at most once per interval, with how many were suppressed in between:
 * a backend that is down (Redis, PostgreSQL) reports every retry, which would flood the log.
 */
export function throttledLog<A extends unknown[]>(
  log: (suppressed: number, ...args: A) => void,
  intervalMs: number,
  now: () => number = Date.now,
): (...args: A) => void {
  let last = -Infinity;
  let suppressed = 0;
  return (...args: A) => {
    const t = now();
    if (t - last < intervalMs) {
      suppressed++;
      return;
    }
    last = t;
    log(suppressed, ...args);
    suppressed = 0;
  };
}
