import { collectGarbageNow } from '../../src/kernel/runtime/full-collection';
import { sleep } from './service';

/**
 * Frees the bench's own garbage now, at a moment of our choosing, instead of when V8's memory reducer decides.
 *
 * The bench generates the inventory (~400 MB of objects and import chunks at 5,000 nodes / 150,000 pods) and drops
 * it once imported. Nothing then made V8 collect it until its memory reducer saw the process idle, which is exactly
 * what the bench process is while its children measure: a `Mark-Compact (reduce) 411.7 -> 28.4 MB` ran in the
 * middle of an open loop, and the bench process took ~550 ms of CPU within the 600 ms around that loop's slowest
 * request (593 ms; `node --trace-gc` on bench/experiments/node-args-ab.ts, bench/ANALYSIS.md). On two cores that is
 * the service's or the loader's core.
 *
 * A full collection here, then a pause for the collector's concurrent sweeping and the return of the freed pages to
 * the system, and the measurements that follow no longer share the machine with it. Returns the collection's time.
 */
export async function collectOwnGarbage(settleMs = 1500): Promise<number> {
  const ms = collectGarbageNow();
  await sleep(settleMs);
  return ms;
}
