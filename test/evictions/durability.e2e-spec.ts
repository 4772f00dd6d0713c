import { DELAYED_JOBS } from '../../src/kernel/tokens';
import { TimerWrites } from '../../src/kernel/timers/timer-writes';
import { EvictionReconciler } from '../../src/evictions/eviction-reconciler';
import { EvictionWorker } from '../../src/evictions/eviction-worker';
import { timerFor } from '../../src/evictions/eviction-planner.service';
import type { DelayedJobs } from '../../src/kernel/timers/delayed-jobs';
import { deleteRedisKeys, eventually, startTestApp, testModes, type TestApp } from '../support/test-app';
import { evictions, getPod, noExecute, putNode, putPod, sleep, taint } from './support';

// Issue 5 / ARCHITECTURE.md principle 5: losing the timers loses no eviction (the reconciler re-arms them from
// the Scheduled rows), and an eviction happens at most once however many firings race for it.
describe.each(testModes())('eviction durability (%s)', (mode) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(mode);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('timers lost while evictions are pending (Redis keys deleted / in-process timers dropped): the reconciler re-arms them', async () => {
    await putNode(app, 'l1');
    for (let i = 0; i < 5; i++)
      await putPod(app, 'ns-l', `p${i}`, { nodeName: 'l1', tolerations: [noExecute('maint', 3)] });
    const r = await taint(app, { nodes: ['l1'], taints: ['maint:NoExecute'] });
    expect(r.evictions.scheduled).toBe(5);
    const jobs = app.app.get<DelayedJobs>(DELAYED_JOBS);
    // timers are armed after COMMIT, in the background (TimerWrites): wait for them, not for a guess
    await app.app.get(TimerWrites).settled();
    expect((await jobs.list()).filter((j) => j.id.startsWith('evict-'))).toHaveLength(5);

    // The FLUSHALL equivalent for this test's own keys only (other suites share the Redis server).
    if (mode === 'embedded') for (const job of await jobs.list()) await jobs.cancel(job.id);
    else await deleteRedisKeys(app.env.REDIS_URL, app.env.REDIS_PREFIX);
    expect(await jobs.list()).toEqual([]);

    const report = await app.app.get(EvictionReconciler).reconcile();
    expect(report).toEqual({ scheduled: 5, armed: 5, cancelled: 0 });
    expect(await app.app.get(EvictionReconciler).reconcile()).toEqual({ scheduled: 5, armed: 0, cancelled: 0 });
    const metrics = await app.request('GET', '/metrics');
    expect(metrics.text).toMatch(/taintwise_pending_evictions 5/);

    const timeAdded = Date.parse(r.nodes[0].taints[0].timeAdded);
    await eventually(async () => expect((await evictions(app, 'node=l1&status=Executed')).length).toBe(5), 8000, 100);
    for (const row of await evictions(app, 'node=l1')) {
      expect(Date.parse(row.evictAt)).toBe(timeAdded + 3000);
      expect(Date.parse(row.executedAt) - Date.parse(row.evictAt)).toBeLessThan(1000);
    }
    expect(await app.app.get(EvictionReconciler).reconcile()).toEqual({ scheduled: 0, armed: 0, cancelled: 0 });
  });

  it('cancels a pending timer whose row is no longer Scheduled', async () => {
    const jobs = app.app.get<DelayedJobs>(DELAYED_JOBS);
    const stale = timerFor('00000000-0000-4000-8000-000000000000', new Date(Date.now() + 60_000));
    await jobs.schedule(stale);
    expect(await app.app.get(EvictionReconciler).reconcile()).toEqual({ scheduled: 0, armed: 0, cancelled: 1 });
    expect((await jobs.list()).map((j) => j.id)).not.toContain(stale.id);
  });

  it('firings racing for one eviction (stale, duplicate, concurrent) evict exactly once', async () => {
    await putNode(app, 'm1');
    await putPod(app, 'ns-m', 'p', { nodeName: 'm1', tolerations: [noExecute('maint', 1)] });
    const r = await taint(app, { nodes: ['m1'], taints: ['maint:NoExecute'] });
    const [row] = await evictions(app, 'node=m1');
    const worker = app.app.get(EvictionWorker);
    // a timer for another deadline of the same row only wakes a sweep; the row is due, so that sweep
    // executes it — and the right timer, five times at once (the armed one fires too), finds nothing
    await sleep(Math.max(0, Date.parse(row.evictAt) - Date.now()));
    const wrong = timerFor(row.id, new Date(Date.parse(row.evictAt) - 500));
    await worker.handle(wrong);
    await Promise.all(Array.from({ length: 5 }, () => worker.handle(timerFor(row.id, new Date(row.evictAt)))));
    await eventually(async () => expect((await getPod(app, 'ns-m', 'p')).phase).toBe('Evicted'), 3000, 50);
    await sleep(500);
    const executed = await app.request('GET', '/v1/events/history?types=EvictionExecuted&subjectName=ns-m/p');
    expect(executed.body.items).toHaveLength(1);
    expect((await evictions(app, 'node=m1')).map((e) => e.status)).toEqual(['Executed']);
    expect(Date.parse(r.nodes[0].taints[0].timeAdded) + 1000).toBe(Date.parse(row.evictAt));
  });
});
