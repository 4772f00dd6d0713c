import { eventually, startTestApp, testModes, type TestApp } from '../support/test-app';
import { evictions, getPod, noExecute, putNode, putPod, sleep, taint, tolerateForever } from './support';

// Issue 5: the durable NoExecute clock (SEMANTICS A.3-A.5) with real timers firing — in-process
// (embedded) and BullMQ on Redis. Short real tolerationSeconds; each test uses its own node.
describe.each(testModes())('eviction timers (%s)', (mode) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(mode);
  });
  afterAll(async () => {
    await app?.close();
  });

  const rowsFor = async (node: string) =>
    (await evictions(app, `node=${node}`)).sort(
      (a, b) => a.createdAt.localeCompare(b.createdAt) || a.pod.name.localeCompare(b.pod.name),
    );

  it('evicts untolerating pods at once, tolerating ones at evictAt, never the forever-tolerating ones', async () => {
    await putNode(app, 'a1');
    await putPod(app, 'ns-a', 'none', { nodeName: 'a1' });
    await putPod(app, 'ns-a', 'one-second', { nodeName: 'a1', tolerations: [noExecute('maint', 1)] });
    await putPod(app, 'ns-a', 'two-seconds', { nodeName: 'a1', tolerations: [noExecute('maint', 2)] });
    await putPod(app, 'ns-a', 'forever', { nodeName: 'a1', tolerations: [tolerateForever('maint')] });
    await putPod(app, 'ns-a', 'zero', { nodeName: 'a1', tolerations: [noExecute('maint', 0)] });
    // NoSchedule / PreferNoSchedule evict nobody
    const soft = await taint(app, { nodes: ['a1'], taints: ['maint:NoSchedule', 'maint:PreferNoSchedule'] });
    expect(soft.evictions).toEqual({ immediate: 0, scheduled: 0, cancelled: 0, retimed: 0, held: 0 });

    const r = await taint(app, { nodes: ['a1'], taints: ['maint:NoExecute'] });
    expect(r.evictions).toEqual({ immediate: 2, scheduled: 2, cancelled: 0, retimed: 0, held: 0 });
    const timeAdded = Date.parse(r.nodes[0].taints.find((t: any) => t.effect === 'NoExecute').timeAdded);
    expect((await getPod(app, 'ns-a', 'none')).phase).toBe('Evicted');
    expect((await getPod(app, 'ns-a', 'zero')).phase).toBe('Evicted');
    expect((await getPod(app, 'ns-a', 'one-second')).nodeName).toBe('a1');

    await eventually(async () => expect((await getPod(app, 'ns-a', 'two-seconds')).phase).toBe('Evicted'), 6000, 50);
    const rows = await rowsFor('a1');
    expect(rows.map((e) => [e.pod.name, e.status])).toEqual(
      expect.arrayContaining([
        ['none', 'Executed'],
        ['zero', 'Executed'],
        ['one-second', 'Executed'],
        ['two-seconds', 'Executed'],
      ]),
    );
    expect(rows).toHaveLength(4);
    for (const [name, seconds] of [
      ['one-second', 1],
      ['two-seconds', 2],
    ] as const) {
      const row = rows.find((e) => e.pod.name === name);
      expect(Date.parse(row.evictAt)).toBe(timeAdded + seconds * 1000);
      const lag = Date.parse(row.executedAt) - Date.parse(row.evictAt);
      expect(lag).toBeGreaterThanOrEqual(0);
      expect(lag).toBeLessThan(1000);
      expect(row.reason).toBe('tolerationSeconds of toleration 0 for NoExecute taint maint:NoExecute ran out');
    }
    const evicted = await getPod(app, 'ns-a', 'one-second');
    expect(evicted).toMatchObject({ nodeName: null, phase: 'Evicted', boundAt: null });
    await sleep(300);
    expect((await getPod(app, 'ns-a', 'forever')).nodeName).toBe('a1');
    const metrics = await app.request('GET', '/metrics');
    expect(metrics.text).toMatch(/taintwise_evictions_total\{outcome="Executed"\} 4/);
    // lag is observed for every expired toleration (the zero-second one included), not for untolerated taints
    expect(metrics.text).toMatch(/taintwise_eviction_lag_seconds_count 3/);
  });

  it('a taint removed before evictAt cancels: the pod stays bound past the deadline', async () => {
    await putNode(app, 'b1');
    await putPod(app, 'ns-b', 'p', { nodeName: 'b1', tolerations: [noExecute('maint', 1)] });
    await taint(app, { nodes: ['b1'], taints: ['maint:NoExecute'] });
    const removed = await taint(app, { nodes: ['b1'], taints: ['maint-'] });
    expect(removed.evictions).toEqual({ immediate: 0, scheduled: 0, cancelled: 1, retimed: 0, held: 0 });
    await sleep(1800);
    expect((await getPod(app, 'ns-b', 'p')).nodeName).toBe('b1');
    const rows = await rowsFor('b1');
    expect(rows.map((e) => e.status)).toEqual(['Cancelled']);
  });

  // The issue asks for the three changes within 100 ms; three HTTP mutations on a loaded 2-core CI
  // machine cannot promise that, so the test pins what the bug is about instead: the re-add lands
  // while the first clock (1 s) is still running, and the pod still goes exactly once, on the new clock.
  it('added, removed and re-added before the first clock runs out still evicts exactly once, on the new clock (kubernetes#107543)', async () => {
    await putNode(app, 'c1');
    await putPod(app, 'ns-c', 'p', { nodeName: 'c1', tolerations: [noExecute('maint', 1)] });
    const started = Date.now();
    await taint(app, { nodes: ['c1'], taints: ['maint:NoExecute'] });
    await taint(app, { nodes: ['c1'], taints: ['maint-'] });
    const again = await taint(app, { nodes: ['c1'], taints: ['maint:NoExecute'] });
    expect(Date.now() - started).toBeLessThan(1000);
    const secondAdded = Date.parse(again.nodes[0].taints[0].timeAdded);
    await eventually(async () => expect((await getPod(app, 'ns-c', 'p')).phase).toBe('Evicted'), 5000, 50);
    await sleep(300);
    const rows = await rowsFor('c1');
    expect(rows.map((e) => e.status)).toEqual(['Cancelled', 'Executed']);
    expect(Date.parse(rows[1].evictAt)).toBe(secondAdded + 1000);
    expect(Date.parse(rows[1].executedAt)).toBeGreaterThanOrEqual(secondAdded + 1000);
    const executed = await app.request('GET', '/v1/events/history?types=EvictionExecuted&subjectName=ns-c/p');
    expect(executed.body.items).toHaveLength(1);
  });

  it('a changed tolerationSeconds re-times the pending eviction (PUT pod changing only the seconds)', async () => {
    await putNode(app, 'd1');
    const pod = await putPod(app, 'ns-d', 'p', { nodeName: 'd1', tolerations: [noExecute('maint', 60)] });
    const r = await taint(app, { nodes: ['d1'], taints: ['maint:NoExecute'] });
    const timeAdded = Date.parse(r.nodes[0].taints[0].timeAdded);
    const [pending] = await rowsFor('d1');
    expect(Date.parse(pending.evictAt)).toBe(timeAdded + 60_000);
    const tolerations = pod.tolerations.map((t: any) => (t.key === 'maint' ? { ...t, tolerationSeconds: 2 } : t));
    await putPod(app, 'ns-d', 'p', { nodeName: 'd1', tolerations });
    const [retimed] = await rowsFor('d1');
    expect(retimed).toMatchObject({ id: pending.id, status: 'Scheduled' });
    expect(Date.parse(retimed.evictAt)).toBe(timeAdded + 2000);
    const rescheduled = await app.request('GET', '/v1/events/history?types=EvictionRescheduled&subjectName=ns-d/p');
    expect(rescheduled.body.items).toHaveLength(1);
    await eventually(async () => expect((await getPod(app, 'ns-d', 'p')).phase).toBe('Evicted'), 5000, 50);
    const [done] = await rowsFor('d1');
    expect(done.status).toBe('Executed');
    expect(Date.parse(done.executedAt) - (timeAdded + 2000)).toBeLessThan(1000);
  });

  it('node conditions: Ready=False adds the not-ready taints (300 s default tolerations); Ready=True removes them and cancels', async () => {
    await putNode(app, 'e1');
    const pod = await putPod(app, 'ns-e', 'web', { nodeName: 'e1' });
    expect(pod.tolerations).toEqual(
      expect.arrayContaining([
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ]),
    );
    await putPod(app, 'ns-e', 'bare', {
      nodeName: 'e1',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 },
      ],
    });
    const reported = Date.now();
    const down = await app.request('PUT', '/v1/nodes/e1/conditions', [
      { type: 'Ready', status: 'False', reason: 'KubeletNotReady' },
    ]);
    expect(down.status).toBe(200);
    expect(down.body.node.taints.map((t: any) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/not-ready:NoSchedule',
      'node.kubernetes.io/not-ready:NoExecute',
    ]);
    expect(down.body.node.conditions).toEqual([
      expect.objectContaining({ type: 'Ready', status: 'False', reason: 'KubeletNotReady' }),
    ]);
    expect(down.body.evictions).toEqual({ immediate: 0, scheduled: 2, cancelled: 0, retimed: 0, held: 0 });
    const stamped = Date.parse(down.body.node.taints[1].timeAdded);
    expect(stamped).toBeGreaterThanOrEqual(reported - 1000);
    const web = (await rowsFor('e1')).find((e) => e.pod.name === 'web');
    expect(Date.parse(web.evictAt)).toBe(stamped + 300_000);
    await eventually(async () => expect((await getPod(app, 'ns-e', 'bare')).phase).toBe('Evicted'), 5000, 50);

    // the same report again keeps the taints and their clocks
    const same = await app.request('PUT', '/v1/nodes/e1/conditions', [
      { type: 'Ready', status: 'False', reason: 'KubeletNotReady' },
    ]);
    expect(same.body.changed).toBe(false);
    const up = await app.request('PUT', '/v1/nodes/e1/conditions', [{ type: 'Ready', status: 'True' }]);
    expect(up.body.node.taints).toEqual([]);
    expect(up.body.evictions).toEqual({ immediate: 0, scheduled: 0, cancelled: 1, retimed: 0, held: 0 });
    expect((await getPod(app, 'ns-e', 'web')).nodeName).toBe('e1');
    expect((await rowsFor('e1')).find((e) => e.pod.name === 'web').status).toBe('Cancelled');
  });

  it('validates reported conditions', async () => {
    await putNode(app, 'f1');
    const bad = await app.request('PUT', '/v1/nodes/f1/conditions', [
      { type: 'Ready', status: 'Maybe' },
      { type: 'Ready', status: 'True' },
    ]);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      {
        field: 'conditions[0].status',
        message: 'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      },
      { field: 'conditions[1].type', message: 'Duplicate value: "Ready"' },
    ]);
    expect((await app.request('PUT', '/v1/nodes/f1/conditions', { type: 'Ready' })).status).toBe(400);
    expect((await app.request('PUT', '/v1/nodes/nope/conditions', [])).status).toBe(404);
    const gql = await app.graphql(
      'mutation { setNodeConditions(name: "f1", conditions: [{ type: "Ready", status: "Unknown" }]) { node { taints { key effect } } evictions { scheduled } } }',
    );
    expect(gql.body.data.setNodeConditions.node.taints).toEqual([
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
    ]);
  });
});
