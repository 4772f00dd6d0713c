import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Registry } from 'prom-client';
import { GcPauses } from './gc-pauses';

// A real full collection on demand: V8's gc() exposed at run time (Jest does not pass --expose-gc).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** PerformanceObserver delivers entries asynchronously; wait until the forced collection arrived. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('GcPauses', () => {
  it('records a forced full collection in the histogram, the longest-pause gauge and the ring', async () => {
    const registry = new Registry();
    const pauses = new GcPauses(registry);
    const before = Date.now() - 1;
    try {
      gc();
      await until(() => pauses.recent(before).some((p) => p.kind === 'major'));
      const major = pauses.recent(before).find((p) => p.kind === 'major');
      expect(major).toBeDefined();
      expect(major!.ms).toBeGreaterThan(0);
      expect(major!.at).toBeGreaterThanOrEqual(before);
      const text = await registry.metrics();
      expect(text).toMatch(/taintwise_gc_pause_seconds_count\{kind="major"\} [1-9]/);
      expect(text).toMatch(/taintwise_gc_pause_seconds_bucket\{le="0.02",kind="major"\}/);
      const longest = Number(/^taintwise_gc_pause_max_seconds (\S+)$/m.exec(text)?.[1]);
      expect(longest).toBeGreaterThanOrEqual(major!.ms / 1000);
      expect(pauses.recent(Date.now() + 60_000)).toEqual([]);
    } finally {
      pauses.close();
    }
  });
});
