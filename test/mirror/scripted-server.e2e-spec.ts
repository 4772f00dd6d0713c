import { eventually, startTestApp, testModes, type TestApp } from '../support/test-app';
import { ScriptedCluster } from './scripted-cluster';

/**
 * The mirror against a scripted API server (scripted-cluster.ts), for what the second taintwise of
 * mirror.e2e-spec.ts does not produce on demand: a slow list (/readyz says syncing), bookmarks (the resume point),
 * a watch closed mid-stream (reconnect from the last version), 410 Gone as an event and as the answer (a relist
 * that writes only the difference and deletes what vanished), and a burst of 1,000 events (a few transactions).
 */
describe.each(testModes())('mirror against a scripted API server (%s)', (mode) => {
  let cluster: ScriptedCluster;
  let mirror: TestApp;

  const mirrorNodes = async () =>
    ((await mirror.request('GET', '/v1/nodes?limit=1000')).body.items as Array<{ name: string }>)
      .map((n) => n.name)
      .sort();
  const metric = async (pattern: RegExp) => {
    const text = (await mirror.request('GET', '/metrics')).text;
    const m = pattern.exec(text);
    return m ? Number(m[1]) : 0;
  };

  beforeAll(async () => {
    cluster = await ScriptedCluster.start();
    for (const n of ['n1', 'n2', 'n3']) cluster.put('nodes', cluster.node(n));
    cluster.put('pods', cluster.pod('shop', 'web-1', 'n1'));
    cluster.listDelayMs = 1500;
    mirror = await startTestApp(mode, {
      env: {
        SYNC_KUBECONFIG: cluster.kubeconfig(),
        SYNC_BACKOFF_INITIAL_MS: '50',
        SYNC_BACKOFF_MAX_MS: '400',
        SYNC_LIST_CHUNK: '2',
        SYNC_FORECAST_GRACE_SECONDS: '0',
      },
    });
  });

  afterAll(async () => {
    await mirror?.close();
    await cluster?.close();
  });

  it('says syncing (503) on /readyz until the first (slow, chunked) list is stored', async () => {
    const syncing = await mirror.request('GET', '/readyz');
    expect(syncing.status).toBe(503);
    expect(syncing.body.checks.sync).toMatchObject({ ok: false, error: 'syncing', state: 'syncing' });
    expect(syncing.body.detail).toContain('sync: syncing');
    await eventually(async () => expect((await mirror.request('GET', '/readyz')).status).toBe(200), 20_000);
    expect(await mirrorNodes()).toEqual(['n1', 'n2', 'n3']);
    // chunked: limit=2 then the continue token
    const nodeLists = cluster.listRequests.filter((l) => l.resource === 'nodes');
    expect(nodeLists.map((l) => [l.limit, l.continue])).toEqual([
      ['2', null],
      ['2', '2'],
    ]);
    cluster.listDelayMs = 0;
    // watches opened from the lists' resourceVersion, asking for bookmarks
    await eventually(() => expect(cluster.openWatches).toBe(3));
    expect(cluster.watchRequests.every((w) => w.bookmarks && w.resourceVersion !== null)).toBe(true);
  });

  it('resumes from the last bookmark after a watch is cut mid-stream (with backoff), missing nothing', async () => {
    cluster.put('nodes', cluster.node('n4'));
    await eventually(async () => expect(await mirrorNodes()).toContain('n4'));
    const bookmark = cluster.bookmark('nodes');
    await new Promise((r) => setTimeout(r, 100));
    const before = cluster.watchRequests.length;
    const reconnects = await metric(/taintwise_sync_reconnects_total\{resource="nodes"\} (\d+)/);
    cluster.cutWatches();
    await eventually(() => expect(cluster.openWatches).toBe(3), 5000);
    const resumed = cluster.watchRequests.slice(before).find((w) => w.resource === 'nodes');
    expect(resumed?.resourceVersion).toBe(bookmark);
    cluster.put('nodes', cluster.node('n5'));
    await eventually(async () => expect(await mirrorNodes()).toContain('n5'));
    expect(await metric(/taintwise_sync_reconnects_total\{resource="nodes"\} (\d+)/)).toBeGreaterThan(reconnects);
    const history = (await mirror.request('GET', '/v1/events/history?types=SyncLost,SyncResumed')).body.items;
    expect(history.map((e: { type: string }) => e.type)).toEqual(['SyncLost', 'SyncResumed']);
  });

  it('relists after a 410 Gone event and deletes what vanished from the cluster, leaving local objects', async () => {
    expect((await mirror.request('PUT', '/v1/nodes/local-what-if', {})).status).toBe(201);
    // while the watch "misses" it: n2 goes, n6 comes
    cluster.forget('nodes', 'n2');
    cluster.objects.nodes.set('n6', cluster.node('n6'));
    const lists = cluster.listRequests.length;
    cluster.expire('nodes');
    await eventually(async () => {
      const nodes = await mirrorNodes();
      expect(nodes).toContain('n6');
      expect(nodes).not.toContain('n2');
      expect(nodes).toContain('local-what-if');
    }, 5000);
    expect(cluster.listRequests.slice(lists).every((l) => l.resource === 'nodes')).toBe(true);
    expect(await metric(/taintwise_sync_relists_total\{resource="nodes",reason="gone"\} (\d+)/)).toBe(1);
  });

  it('relists when a watch is answered 410 Gone at open', async () => {
    cluster.forget('nodes', 'n3');
    cluster.goneOnOpen.nodes = 1;
    cluster.cutWatches();
    await eventually(async () => expect(await mirrorNodes()).not.toContain('n3'), 5000);
    expect(await metric(/taintwise_sync_relists_total\{resource="nodes",reason="gone"\} (\d+)/)).toBe(2);
  });

  it('never evicts a mirrored pod itself: an untolerated NoExecute taint gives an overdue forecast until the cluster removes the pod', async () => {
    cluster.put(
      'nodes',
      cluster.node('tainted', [{ key: 'gone', effect: 'NoExecute', timeAdded: '2026-11-20T10:00:00Z' }]),
    );
    cluster.put('pods', cluster.pod('late', 'stays', 'tainted'));
    const forecast = await eventually(async () => {
      const items = (await mirror.request('GET', '/v1/evictions?status=Scheduled&namespace=late')).body.items;
      expect(items).toHaveLength(1);
      return items[0];
    }, 5000);
    // evictAt = max(taint.timeAdded, the pod's binding time: status.startTime), as the taint manager would
    expect(forecast).toMatchObject({ forecast: true, overdue: true, evictAt: '2026-11-20T10:00:01.000Z' });
    expect(await metric(/taintwise_sync_forecasts_overdue (\d+)/)).toBe(1);
    // the pod is still bound here: only the cluster evicts
    const pod = await mirror.request('GET', '/v1/namespaces/late/pods/stays');
    expect(pod.body).toMatchObject({ nodeName: 'tainted', phase: 'Running' });
    expect((await mirror.request('GET', '/v1/evictions?status=Executed&namespace=late')).body.items).toHaveLength(0);
    // the cluster finally deletes it (days late: a kubernetes#108268-style clock reset)
    cluster.remove('pods', 'late/stays');
    const executed = await eventually(async () => {
      const items = (await mirror.request('GET', '/v1/evictions?status=Executed&namespace=late')).body.items;
      expect(items).toHaveLength(1);
      return items[0];
    }, 5000);
    expect(executed.forecastErrorMs).toBe(
      Math.min(2 ** 31 - 1, Date.parse(executed.executedAt) - Date.parse('2026-11-20T10:00:01.000Z')),
    );
    expect(await metric(/taintwise_sync_forecast_last_error_seconds ([0-9.e+-]+)/)).toBeGreaterThan(86_400);
  });

  it('applies a burst of 1,000 events in a few transactions, not 1,000', async () => {
    await eventually(() => expect(cluster.openWatches).toBe(3), 5000);
    const batches = await metric(/taintwise_sync_batches_total (\d+)/);
    for (let i = 0; i < 1000; i++) cluster.put('pods', cluster.pod('burst', `p-${String(i).padStart(4, '0')}`, 'n1'));
    await eventually(
      async () => {
        const pods = await mirror.request('GET', '/v1/namespaces/burst/pods?limit=2000');
        expect(pods.body.items).toHaveLength(1000);
      },
      20_000,
      100,
    );
    const used = (await metric(/taintwise_sync_batches_total (\d+)/)) - batches;
    expect(used).toBeGreaterThanOrEqual(1);
    expect(used).toBeLessThanOrEqual(20);
    // the snapshot has them too: a decision counts them on n1
    const impact = await mirror.request('POST', '/v1/decisions/taint-impact', {
      nodes: ['n1'],
      taints: ['x:NoExecute'],
    });
    expect(impact.status).toBe(200);
    expect(impact.body.summary?.evictions ?? impact.body.evictions.length).toBeGreaterThanOrEqual(1000);
    // the same 1,000 pods deleted
    for (let i = 0; i < 1000; i++) cluster.remove('pods', `burst/p-${String(i).padStart(4, '0')}`);
    await eventually(
      async () => expect((await mirror.request('GET', '/v1/namespaces/burst/pods')).body.items).toHaveLength(0),
      20_000,
      100,
    );
  });

  it('answers 504 when the cluster accepts a write-through but its watch never brings the change back', async () => {
    // a node of its own: the relist tests above delete nodes from the cluster
    cluster.put('nodes', cluster.node('n-late'));
    const writer = await startTestApp(mode, {
      env: { SYNC_KUBECONFIG: cluster.kubeconfig(), SYNC_WRITE: 'true', SYNC_WRITE_TIMEOUT_MS: '300' },
    });
    try {
      await eventually(async () => expect((await writer.request('GET', '/readyz')).status).toBe(200), 20_000);
      await eventually(async () => expect((await writer.request('GET', '/v1/nodes/n-late')).status).toBe(200), 10_000);
      const before = (await writer.request('GET', '/v1/nodes/n-late')).body;
      const r = await writer.request('POST', '/v1/nodes/n-late/cordon');
      expect(r.status).toBe(504);
      expect(r.body.detail).toContain('the watch did not bring it back within 300 ms');
      expect(cluster.patchRequests).toContain('n-late');
      // nothing was applied here ahead of the cluster
      const after = (await writer.request('GET', '/v1/nodes/n-late')).body;
      expect(after).toMatchObject({ unschedulable: before.unschedulable, resourceVersion: before.resourceVersion });
    } finally {
      await writer.close();
    }
  });
});
