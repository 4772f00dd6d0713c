/**
 * The one place that bounds how long a promise may take. Used for backend calls and shutdown steps that
 * must not hang on a server that stopped answering (the call itself goes on; its late outcome is dropped).
 */

/**
 * `promise`, or a rejection with `message` after `ms`.
 * @example await withTimeout(redis.ping(), 2_000, 'Redis did not answer within 2000 ms')
 */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  promise.catch(() => undefined); // a failure after the deadline has nobody left to tell
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits for `promise` at most `ms`; true if it settled (resolved or rejected) by then.
 * @example await settlesWithin(worker.close(), 10_000) // false: gave up after 10 s
 */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const settled = promise.then(
    () => true,
    () => true,
  );
  return withTimeout(settled, ms, 'late').catch(() => false);
}
