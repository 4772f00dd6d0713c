/**
 * Waits for `promise` at most `ms`; true if it settled (resolved or rejected) by then. For shutdown
 * steps that must not hang on a backend that stopped answering.
 * @example await settlesWithin(worker.close(), 10_000) // false: gave up after 10 s
 */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true, () => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}
