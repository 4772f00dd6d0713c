import { randomUUID } from 'node:crypto';
import { SWEEP_BATCH } from '../../src/evictions/due-eviction-sweeper';
import { EvictionReconciler } from '../../src/evictions/eviction-reconciler';
import { UnitOfWork } from '../../src/kernel/persistence/unit-of-work';
import { SnapshotService } from '../../src/kernel/snapshot/snapshot.service';
import { TimerWrites } from '../../src/kernel/timers/timer-writes';
import { eventually, startTestApp, testModes, type TestApp } from '../support/test-app';

const NODES = Number(process.env.BURST_NODES ?? 100);
const PODS_PER_NODE = Number(process.env.BURST_PODS_PER_NODE ?? 100);
const SECONDS = Number(process.env.BURST_TOLERATION_SECONDS ?? 20);
/** Pods per node without a toleration: evicted at once, in the same transaction as the taint. */
const UNTOLERATED_PER_NODE = Number(process.env.BURST_UNTOLERATED_PER_NODE ?? 10);

/**
 * A real SSE client (fetch streaming) on GET /v1/events: when each EvictionExecuted event of namespace `burst`
 * arrived, by this process's clock (the service's, too: the app runs in this process).
 */
async function watchExecuted(url: string): Promise<{ arrivals: number[]; close: () => void }> {
  const controller = new AbortController();
  const response = await fetch(`${url}/v1/events?types=EvictionExecuted`, {
    headers: { accept: 'text/event-stream' },
    signal: controller.signal,
  });
  const arrivals: number[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const now = Date.now();
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          if (buffer.slice(0, cut).includes('"subjectName":"burst/')) arrivals.push(now);
          buffer = buffer.slice(cut + 2);
        }
      }
    } catch {
      // aborted at the end of the test
    }
  })();
  return { arrivals, close: () => controller.abort() };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

// Issue 5: 10,000 pods whose evictions fall due in the same instant all fire, once; the lag
// (executedAt − evictAt) is reported. Set-up writes nodes and pods straight through the app's Prisma
// client (the inventory endpoints would take minutes for 10,000 pods one by one), then one
// POST /v1/taints on all 100 nodes schedules every eviction in one transaction — that commit is
// timed too; BURST_UNTOLERATED_PER_NODE pods per node (default 10) tolerate nothing and are evicted
// inside that same transaction. BURST_NODES / BURST_PODS_PER_NODE / BURST_TOLERATION_SECONDS resize it.
describe.each(testModes())('burst of evictions due together (%s)', (mode) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(mode, {
      env: {
        RECONCILE_INTERVAL_SECONDS: '3600',
        ...(process.env.BURST_CONCURRENCY ? { EVICTION_WORKER_CONCURRENCY: process.env.BURST_CONCURRENCY } : {}),
      },
    });
  });
  afterAll(async () => {
    await app?.close();
  });

  it(`${NODES * (PODS_PER_NODE + UNTOLERATED_PER_NODE)} pods on ${NODES} nodes: ${NODES * UNTOLERATED_PER_NODE} evicted at once, ${NODES * PODS_PER_NODE} due together fire once each; lag reported`, async () => {
    const db = app.app.get(UnitOfWork).db;
    const nodeNames = Array.from({ length: NODES }, (_, i) => `burst-${String(i).padStart(3, '0')}`);
    await db.node.createMany({ data: nodeNames.map((name) => ({ name, labels: { pool: 'burst' } })) });
    const boundAt = new Date(Date.now() - 60_000);
    const tolerations = [{ key: 'maint', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: SECONDS }];
    for (let n = 0; n < NODES; n += 10) {
      await db.pod.createMany({
        data: nodeNames.slice(n, n + 10).flatMap((nodeName) =>
          Array.from({ length: PODS_PER_NODE }, (_, i) => ({
            namespace: 'burst',
            name: `${nodeName}-p${i}`,
            uid: randomUUID(),
            nodeName,
            phase: 'Running',
            boundAt,
            tolerations,
          })).concat(
            Array.from({ length: UNTOLERATED_PER_NODE }, (_, i) => ({
              namespace: 'burst-now',
              name: `${nodeName}-u${i}`,
              uid: randomUUID(),
              nodeName,
              phase: 'Running',
              boundAt,
              tolerations: [],
            })),
          ),
        ),
      });
    }
    await app.app.get(SnapshotService).reload();
    const total = NODES * PODS_PER_NODE;
    const immediate = NODES * UNTOLERATED_PER_NODE;

    const watcher = await watchExecuted(app.url);
    const started = Date.now();
    const r = await app.request('POST', '/v1/taints', { labelSelector: 'pool=burst', taints: ['maint:NoExecute'] });
    const commitMs = Date.now() - started;
    expect(r.status).toBe(200);
    expect(r.body.evictions).toEqual({ immediate, scheduled: total, cancelled: 0, retimed: 0, held: 0 });
    const timeAdded = Date.parse(r.body.nodes[0].taints[0].timeAdded);
    const evictAt = timeAdded + SECONDS * 1000;
    // Timers are armed after COMMIT in the background (TimerWrites): once written, every timer is
    // there — the reconciler finds nothing to repair — and all of it happened before the deadline.
    await app.app.get(TimerWrites).settled();
    const armedMs = Date.now() - started - commitMs;
    expect(Date.now()).toBeLessThan(evictAt);
    expect((await app.app.get(EvictionReconciler).reconcile()).armed).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, evictAt - Date.now()));
    let executed = 0;
    for (
      const deadline = Date.now() + 60_000;
      executed < total;
      await new Promise((resolve) => setTimeout(resolve, 250))
    ) {
      executed = await db.eviction.count({ where: { status: 'Executed', namespace: 'burst' } });
      if (Date.now() > deadline)
        throw new Error(`only ${executed}/${total} evictions executed 60 s after the deadline`);
    }
    const drainedMs = Date.now() - evictAt;
    const rows = await db.eviction.findMany({
      where: { namespace: 'burst' },
      select: { evictAt: true, executedAt: true },
    });
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((row) => row.evictAt.getTime()))).toEqual(new Set([evictAt]));
    const lags = rows.map((row) => row.executedAt!.getTime() - row.evictAt.getTime()).sort((a, b) => a - b);
    expect(lags[0]).toBeGreaterThanOrEqual(0);
    expect(await db.pod.count({ where: { namespace: 'burst', phase: 'Evicted', nodeName: null } })).toBe(total);
    expect(await db.pod.count({ where: { namespace: 'burst-now', phase: 'Evicted', nodeName: null } })).toBe(immediate);
    expect(await db.eviction.count({ where: { namespace: 'burst-now', status: 'Executed' } })).toBe(immediate);
    expect(await db.event.count({ where: { type: 'EvictionExecuted' } })).toBe(total + immediate);
    await eventually(() => expect(watcher.arrivals).toHaveLength(total), 10_000);
    watcher.close();
    // More batches than one ran back to back (each row's executedAt is its batch's start): a batch's events
    // reach a watcher when it commits, not all of them at the end of the sweep. Embedded, the batches run one
    // after another in the database's thread while the service's thread writes the events of the batch before,
    // so most of the earlier batches' events arrive while the last batch still runs: before the middle of its
    // run (its start to the last arrival). On PostgreSQL the two parts run side by side (starts a few ms
    // apart): nothing to check.
    const batchStarts = [...new Set(rows.map((row) => row.executedAt!.getTime()))].sort((a, b) => a - b);
    const lastStart = batchStarts[batchStarts.length - 1];
    const inLastBatch = rows.filter((row) => row.executedAt!.getTime() === lastStart).length;
    const lastBatchMiddle = lastStart + (Math.max(...watcher.arrivals) - lastStart) / 2;
    const beforeLastBatchMiddle = watcher.arrivals.filter((at) => at < lastBatchMiddle).length;
    if (mode === 'embedded' && total > SWEEP_BATCH) {
      expect(batchStarts.length).toBeGreaterThan(1);
      expect(beforeLastBatchMiddle).toBeGreaterThanOrEqual((total - inLastBatch) / 2);
    }
    const streamLags = watcher.arrivals.map((at) => at - evictAt).sort((a, b) => a - b);
    const report = {
      mode,
      pods: total + immediate,
      nodes: NODES,
      immediate,
      taintCommitMs: commitMs,
      timersArmedAfterMs: armedMs,
      lagP50Ms: percentile(lags, 50),
      lagP99Ms: percentile(lags, 99),
      lagMaxMs: lags[lags.length - 1],
      allEvictedAfterMs: drainedMs,
      batchStarts: batchStarts.map((at) => at - evictAt),
      inLastBatch,
      streamedBeforeLastBatchMiddle: beforeLastBatchMiddle,
      streamLagP50Ms: percentile(streamLags, 50),
      streamLagP99Ms: percentile(streamLags, 99),
    };
    process.stdout.write(`BURST ${JSON.stringify(report)}\n`);
  });
});
