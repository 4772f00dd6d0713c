import { DELAYED_JOBS } from '../../src/kernel/tokens';
import { TimerWrites } from '../../src/kernel/timers/timer-writes';
import { EvictionReconciler } from '../../src/evictions/eviction-reconciler';
import { EvictionWorker } from '../../src/evictions/eviction-worker';
import { evictionTimer, evictionTimerId } from '../../src/evictions/eviction-timer-id';
import { EvictionRepository } from '../../src/kernel/persistence/repositories/eviction.repository';
import type { DelayedJob, DelayedJobs } from '../../src/kernel/timers/delayed-jobs';
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

  /** A node with one pod tolerating `maint:NoExecute` for `seconds`, then tainted: its row, once its timer is armed. */
  async function oneScheduledEviction(node: string, seconds: number): Promise<any> {
    await putNode(app, node);
    await putPod(app, `ns-${node}`, 'p', { nodeName: node, tolerations: [noExecute('maint', seconds)] });
    await taint(app, { nodes: [node], taints: ['maint:NoExecute'] });
    await app.app.get(TimerWrites).settled();
    const [row] = await evictions(app, `node=${node}`);
    return row;
  }

  it('timers lost while evictions are pending (Redis keys deleted / in-process timers dropped): the reconciler re-arms them', async () => {
    await putNode(app, 'l1');
    // two deadlines: p0, p2, p4 tolerate the taint for 3 s, p1 and p3 for 4 s
    for (let i = 0; i < 5; i++)
      await putPod(app, 'ns-l', `p${i}`, { nodeName: 'l1', tolerations: [noExecute('maint', 3 + (i % 2))] });
    const r = await taint(app, { nodes: ['l1'], taints: ['maint:NoExecute'] });
    expect(r.evictions.scheduled).toBe(5);
    const timeAdded = Date.parse(r.nodes[0].taints[0].timeAdded);
    const jobs = app.app.get<DelayedJobs>(DELAYED_JOBS);
    // timers are armed after COMMIT, in the background (TimerWrites): wait for them, not for a guess
    await app.app.get(TimerWrites).settled();
    // one timer per deadline, whatever the number of rows due then (eviction-timer-id.ts)
    expect(evictionTimerIds(await jobs.list())).toEqual([
      evictionTimerId(new Date(timeAdded + 3000)),
      evictionTimerId(new Date(timeAdded + 4000)),
    ]);

    // The FLUSHALL equivalent for this test's own keys only (other suites share the Redis server).
    if (mode === 'embedded') for (const job of await jobs.list()) await jobs.cancel(job.id);
    else await deleteRedisKeys(app.env.REDIS_URL, app.env.REDIS_PREFIX);
    expect(await jobs.list()).toEqual([]);

    const report = await app.app.get(EvictionReconciler).reconcile();
    expect(report).toEqual({ scheduled: 5, armed: 2, cancelled: 0 });
    expect(await app.app.get(EvictionReconciler).reconcile()).toEqual({ scheduled: 5, armed: 0, cancelled: 0 });
    const metrics = await app.request('GET', '/metrics');
    expect(metrics.text).toMatch(/taintwise_pending_evictions 5/);

    await eventually(async () => expect((await evictions(app, 'node=l1&status=Executed')).length).toBe(5), 9000, 100);
    for (const row of await evictions(app, 'node=l1')) {
      const seconds = Number(row.pod.name.slice(1)) % 2 ? 4 : 3;
      expect(Date.parse(row.evictAt)).toBe(timeAdded + seconds * 1000);
      expect(Date.parse(row.executedAt) - Date.parse(row.evictAt)).toBeLessThan(1000);
    }
    expect(await app.app.get(EvictionReconciler).reconcile()).toEqual({ scheduled: 0, armed: 0, cancelled: 0 });
  });

  it('cancels a pending timer whose deadline no Scheduled row has', async () => {
    const jobs = app.app.get<DelayedJobs>(DELAYED_JOBS);
    const stale = evictionTimer(new Date(Date.now() + 60_000));
    await jobs.schedule(stale);
    expect(await app.app.get(EvictionReconciler).reconcile()).toEqual({ scheduled: 0, armed: 0, cancelled: 1 });
    expect((await jobs.list()).map((j) => j.id)).not.toContain(stale.id);
  });

  it('a row committed at a stale deadline while the reconciler runs keeps its timer', async () => {
    const row = await oneScheduledEviction('k1', 60);
    const id = evictionTimerId(new Date(row.evictAt));
    const jobs = app.app.get<DelayedJobs>(DELAYED_JOBS);
    expect(evictionTimerIds(await jobs.list())).toEqual([id]);
    // The race, which no real part produces on demand: the reconciler read the deadlines just before this row
    // committed (the read answers none), and its timer was armed before the reconciler cancelled the stale ones.
    jest.spyOn(app.app.get(EvictionRepository), 'scheduledDeadlines').mockResolvedValueOnce([]);
    expect(await app.app.get(EvictionReconciler).reconcile()).toEqual({ scheduled: 0, armed: 1, cancelled: 1 });
    expect(evictionTimerIds(await jobs.list())).toEqual([id]);
    expect(await app.app.get(EvictionReconciler).reconcile()).toEqual({ scheduled: 1, armed: 0, cancelled: 0 });
    // the taint removed, the row is Cancelled and its deadline's timer stale: the next pass cancels it
    await taint(app, { nodes: ['k1'], taints: ['maint:NoExecute-'] });
    expect(await app.app.get(EvictionReconciler).reconcile()).toEqual({ scheduled: 0, armed: 0, cancelled: 1 });
  });

  it("replaces an earlier version's per-row timers by their deadline's timer, and still obeys them", async () => {
    const row = await oneScheduledEviction('v1', 3);
    const evictAt = new Date(row.evictAt);
    const jobs = app.app.get<DelayedJobs>(DELAYED_JOBS);
    // what an earlier version left in Redis: a timer per row, `evict-<rowId>-<ms>`, carrying the row id too
    await jobs.cancel(evictionTimerId(evictAt));
    const legacy = {
      id: `evict-${row.id}-${evictAt.getTime()}`,
      dueAt: evictAt,
      data: { evictionId: row.id, evictAt: row.evictAt },
    };
    await jobs.schedule(legacy);
    expect(await app.app.get(EvictionReconciler).reconcile()).toEqual({ scheduled: 1, armed: 1, cancelled: 1 });
    expect(evictionTimerIds(await jobs.list())).toEqual([evictionTimerId(evictAt)]);
    // a legacy timer firing early (another replica's clock) is understood: it arms its deadline's timer
    await jobs.cancel(evictionTimerId(evictAt));
    await app.app.get(EvictionWorker).handle(legacy);
    expect(evictionTimerIds(await jobs.list())).toEqual([evictionTimerId(evictAt)]);
    await eventually(
      async () => expect((await evictions(app, 'node=v1')).map((e) => e.status)).toEqual(['Executed']),
      6000,
      100,
    );
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
    const wrong = evictionTimer(new Date(Date.parse(row.evictAt) - 500));
    await worker.handle(wrong);
    await Promise.all(Array.from({ length: 5 }, () => worker.handle(evictionTimer(new Date(row.evictAt)))));
    await eventually(async () => expect((await getPod(app, 'ns-m', 'p')).phase).toBe('Evicted'), 3000, 50);
    await sleep(500);
    const executed = await app.request('GET', '/v1/events/history?types=EvictionExecuted&subjectName=ns-m/p');
    expect(executed.body.items).toHaveLength(1);
    expect((await evictions(app, 'node=m1')).map((e) => e.status)).toEqual(['Executed']);
    expect(Date.parse(r.nodes[0].taints[0].timeAdded) + 1000).toBe(Date.parse(row.evictAt));
  });
});

/** The eviction timers among these jobs, by id. */
function evictionTimerIds(jobs: readonly DelayedJob[]): string[] {
  return jobs.filter((j) => j.id.startsWith('evict-')).map((j) => j.id);
}
