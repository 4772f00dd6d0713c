import { collectGarbageNow } from './full-collection';

describe('collectGarbageNow: a full collection when the caller says, without --expose-gc', () => {
  it('frees objects nothing references any more, and times the collection', () => {
    const holder: { pods?: Array<{ name: string; n: number }> } = {
      pods: Array.from({ length: 400_000 }, (_, n) => ({ name: `pod-${n}`, n })),
    };
    expect(holder.pods).toHaveLength(400_000);
    collectGarbageNow();
    const holding = process.memoryUsage().heapUsed;
    delete holder.pods;
    const ms = collectGarbageNow();
    const after = process.memoryUsage().heapUsed;
    // 400,000 objects and their strings: well over 20 MB; all of it is gone after one call.
    expect(holding - after).toBeGreaterThan(20 * 1024 * 1024);
    expect(ms).toBeGreaterThan(0);
  });
});
