import { collectOwnGarbage } from './own-heap';

describe("collectOwnGarbage: the bench's dropped inventory is freed when the bench says, not later", () => {
  it('frees what nothing references, then waits for the sweeping, and returns the collection time alone', async () => {
    const holder: { pods?: Array<{ name: string; n: number }> } = {
      pods: Array.from({ length: 400_000 }, (_, n) => ({ name: `pod-${n}`, n })),
    };
    expect(holder.pods).toHaveLength(400_000);
    await collectOwnGarbage(0);
    const holding = process.memoryUsage().heapUsed;
    delete holder.pods;
    const started = performance.now();
    const ms = await collectOwnGarbage(300);
    const waited = performance.now() - started;
    expect(holding - process.memoryUsage().heapUsed).toBeGreaterThan(20 * 1024 * 1024);
    expect(waited).toBeGreaterThanOrEqual(300);
    expect(ms).toBeLessThan(waited);
  });
});
