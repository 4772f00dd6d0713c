import { collectGarbageNow } from '../runtime/full-collection';
import { Registry } from 'prom-client';
import { constants } from 'node:perf_hooks';
import { GcPauses, gcReasons } from './gc-pauses';

// A real full collection on demand (Jest does not pass --expose-gc).
const gc = (): void => void collectGarbageNow();

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
      expect(major!.reasons).toContain('forced');
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

  it.each([
    [undefined, undefined],
    [constants.NODE_PERFORMANCE_GC_FLAGS_NO, undefined],
    [constants.NODE_PERFORMANCE_GC_FLAGS_FORCED, ['forced']],
    [constants.NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY, ['external-memory']],
    [constants.NODE_PERFORMANCE_GC_FLAGS_SCHEDULE_IDLE, ['old-generation-limit']],
    [
      constants.NODE_PERFORMANCE_GC_FLAGS_FORCED | constants.NODE_PERFORMANCE_GC_FLAGS_ALL_AVAILABLE_GARBAGE,
      ['forced', 'all-available-garbage'],
    ],
    [constants.NODE_PERFORMANCE_GC_FLAGS_CONSTRUCT_RETAINED, ['construct-retained']],
    [constants.NODE_PERFORMANCE_GC_FLAGS_SYNCHRONOUS_PHANTOM_PROCESSING, ['synchronous-phantom']],
    [1 << 12, undefined], // a bit Node does not name
  ])('flags %p name the reasons %p', (flags, reasons) => {
    expect(gcReasons(flags)).toEqual(reasons);
  });
});
