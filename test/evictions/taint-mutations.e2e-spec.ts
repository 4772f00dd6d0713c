import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { evictions, getPod, noExecute, putNode, putPod, taint } from './support';

// Issue 5: POST /v1/taints (kubectl taint, SEMANTICS A.8/B.3), cordon/uncordon (A.7), dryRun, atomicity.
describe.each(testModes())('taint mutations (%s)', (mode) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(mode);
    await putNode(app, 'n1', { labels: { pool: 'gpu' } });
    await putNode(app, 'n2', { labels: { pool: 'gpu' } });
    await putNode(app, 'n3', { labels: { pool: 'cpu' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('adds a NoSchedule taint to the selected nodes, stamps timeAdded and evicts nobody', async () => {
    const before = Date.now();
    await putPod(app, 'default', 'plain', { nodeName: 'n1' });
    const r = await taint(app, {
      labelSelector: 'pool=gpu',
      taints: ['dedicated=gpu:NoSchedule', 'soft:PreferNoSchedule'],
    });
    expect(r.dryRun).toBe(false);
    expect(r.evictions).toEqual({ immediate: 0, scheduled: 0, cancelled: 0, retimed: 0, held: 0 });
    expect(r.nodes.map((n: any) => [n.name, n.changed, n.operation])).toEqual([
      ['n1', true, 'tainted'],
      ['n2', true, 'tainted'],
    ]);
    expect(r.nodes[0].taints.map((t: any) => `${t.key}=${t.value}:${t.effect}`)).toEqual([
      'dedicated=gpu:NoSchedule',
      'soft=:PreferNoSchedule',
    ]);
    expect(Date.parse(r.nodes[0].taints[0].timeAdded)).toBeGreaterThanOrEqual(before - 1000);
    expect((await getPod(app, 'default', 'plain')).nodeName).toBe('n1');
    const n3 = await app.request('GET', '/v1/nodes/n3');
    expect(n3.body.taints).toEqual([]);
  });

  it('refuses an existing taint without overwrite (409 naming node and taint) and changes no node', async () => {
    const r = await app.request('POST', '/v1/taints', { nodes: ['n3', 'n1'], taints: ['dedicated=tpu:NoSchedule'] });
    expect(r.status).toBe(409);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body.detail).toBe('node n1 already has dedicated taint(s) with same effect(s) and --overwrite is false');
    expect(r.body.node).toBe('n1');
    expect((await app.request('GET', '/v1/nodes/n3')).body.taints).toEqual([]);
  });

  it('overwrite replaces the value and restarts its clock; the same value keeps timeAdded', async () => {
    const first = (await app.request('GET', '/v1/nodes/n1')).body.taints[0];
    const same = await taint(app, { nodes: ['n1'], taints: ['dedicated=gpu:NoSchedule'], overwrite: true });
    expect(same.nodes[0]).toMatchObject({ changed: false, operation: 'modified' });
    expect(same.nodes[0].taints[0].timeAdded).toBe(first.timeAdded);
    const changed = await taint(app, { nodes: ['n1'], taints: ['dedicated=tpu:NoSchedule'], overwrite: true });
    expect(changed.nodes[0].changed).toBe(true);
    expect(changed.nodes[0].taints[0]).toMatchObject({ key: 'dedicated', value: 'tpu', effect: 'NoSchedule' });
    expect(changed.nodes[0].taints[0].timeAdded).not.toBe(first.timeAdded);
  });

  it('removing a taint that is not there on one node fails the whole request (404) and changes nothing', async () => {
    const r = await app.request('POST', '/v1/taints', {
      nodes: ['n1', 'n2', 'n3'],
      taints: ['soft:PreferNoSchedule-'],
    });
    expect(r.status).toBe(404);
    expect(r.body.detail).toBe('node n3: taint "soft:PreferNoSchedule" not found');
    for (const n of ['n1', 'n2']) {
      const node = (await app.request('GET', `/v1/nodes/${n}`)).body;
      expect(node.taints.map((t: any) => t.key)).toContain('soft');
    }
  });

  it.each([
    [{ nodes: ['n1'], taints: ['bad'] }, 400, 'invalid taint spec: bad'],
    [
      { nodes: ['n1'], taints: ['k=v:NoSchedule', 'k-'] },
      400,
      'can not both modify and remove the following taint(s) in the same command: k=',
    ],
    [{ nodes: ['n1'], taints: ['k:Nope'] }, 400, 'invalid taint effect: Nope, unsupported taint effect'],
    [
      { nodes: ['n1'], labelSelector: 'a=b', taints: ['k:NoSchedule'] },
      400,
      'give exactly one of "nodes", "labelSelector" or "all": true (got nodes, labelSelector)',
    ],
    [
      { taints: ['k:NoSchedule'] },
      400,
      'one or more nodes must be selected: give exactly one of "nodes", "labelSelector" or "all": true',
    ],
    [{ all: true, taints: [] }, 400, 'at least one taint update is required'],
    [{ nodes: ['n1', 'nope'], taints: ['k:NoSchedule'] }, 404, 'nodes "nope" not found'],
  ])('answers %j with %i', async (body, status, detail) => {
    const r = await app.request('POST', '/v1/taints', body);
    expect(r.status).toBe(status);
    expect(r.body.detail).toBe(detail);
  });

  it('dryRun answers the evictions it would cause and writes nothing', async () => {
    await putPod(app, 'default', 'victim', { nodeName: 'n2' });
    await putPod(app, 'default', 'patient', { nodeName: 'n2', tolerations: [noExecute('maintenance', 600)] });
    await putPod(app, 'default', 'forever', { nodeName: 'n2', tolerations: [noExecute('maintenance')] });
    const nodeBefore = (await app.request('GET', '/v1/nodes/n2')).body;
    const r = await taint(app, { nodes: ['n2'], taints: ['maintenance:NoExecute'], dryRun: true });
    expect(r.dryRun).toBe(true);
    expect(r.evictions).toEqual({ immediate: 1, scheduled: 1, cancelled: 0, retimed: 0, held: 0 });
    expect(r.nodes[0].taints[0]).toMatchObject({ key: 'maintenance', effect: 'NoExecute' });
    expect((await app.request('GET', '/v1/nodes/n2')).body).toEqual(nodeBefore);
    expect((await getPod(app, 'default', 'victim')).nodeName).toBe('n2');
    expect(await evictions(app, 'node=n2')).toEqual([]);
  });

  it('NoExecute evicts the untolerating pod at once, schedules the tolerating one, leaves the forever one', async () => {
    const r = await taint(app, { nodes: ['n2'], taints: ['maintenance:NoExecute'] });
    expect(r.evictions).toEqual({ immediate: 1, scheduled: 1, cancelled: 0, retimed: 0, held: 0 });
    const victim = await getPod(app, 'default', 'victim');
    expect(victim).toMatchObject({ nodeName: null, phase: 'Evicted' });
    expect((await getPod(app, 'default', 'forever')).nodeName).toBe('n2');
    const rows = await evictions(app, 'node=n2');
    expect(rows.map((e: any) => [e.pod.name, e.status]).sort()).toEqual([
      ['patient', 'Scheduled'],
      ['victim', 'Executed'],
    ]);
    const patient = rows.find((e: any) => e.pod.name === 'patient');
    const timeAdded = Date.parse(r.nodes[0].taints[0].timeAdded);
    expect(Date.parse(patient.evictAt)).toBe(timeAdded + 600_000);
    expect(patient.taints).toEqual([expect.objectContaining({ key: 'maintenance', effect: 'NoExecute' })]);
    const executed = rows.find((e: any) => e.pod.name === 'victim');
    expect(executed.reason).toBe('untolerated NoExecute taint maintenance:NoExecute');
    expect(executed.executedAt).toBeDefined();
  });

  it('removing the NoExecute taint cancels the pending eviction', async () => {
    const r = await taint(app, { all: true, taints: ['maintenance:NoExecute-'] }).catch((e) => e);
    // n1 and n3 do not have it: kubectl refuses, atomically
    expect(String(r)).toContain('404');
    const ok = await taint(app, { nodes: ['n2'], taints: ['maintenance-'] });
    expect(ok.evictions).toEqual({ immediate: 0, scheduled: 0, cancelled: 1, retimed: 0, held: 0 });
    const patient = (await evictions(app, 'status=Cancelled'))[0];
    expect(patient).toMatchObject({ pod: { namespace: 'default', name: 'patient' }, status: 'Cancelled' });
    expect(patient.cancelledAt).toBeDefined();
  });

  it('cordon sets unschedulable and the unschedulable NoSchedule taint; uncordon removes both', async () => {
    const c = await app.request('POST', '/v1/nodes/n3/cordon');
    expect(c.status).toBe(200);
    expect(c.body.changed).toBe(true);
    expect(c.body.node.unschedulable).toBe(true);
    expect(c.body.node.taints).toEqual([
      expect.objectContaining({ key: 'node.kubernetes.io/unschedulable', value: '', effect: 'NoSchedule' }),
    ]);
    expect(c.body.evictions).toEqual({ immediate: 0, scheduled: 0, cancelled: 0, retimed: 0, held: 0 });
    const again = await app.request('POST', '/v1/nodes/n3/cordon');
    expect(again.body.changed).toBe(false);
    const u = await app.request('POST', '/v1/nodes/n3/uncordon');
    expect(u.body.node).toMatchObject({ unschedulable: false, taints: [] });
    expect((await app.request('POST', '/v1/nodes/nope/cordon')).status).toBe(404);
  });

  it('records every change as an event with actor and requestId', async () => {
    await fetch(`${app.url}/v1/nodes/n3/cordon`, { method: 'POST', headers: { 'x-request-id': 'req-cordon-1' } });
    const h = await app.request('GET', '/v1/events/history?types=NodeCordoned');
    expect(h.status).toBe(200);
    const last = h.body.items[h.body.items.length - 1];
    expect(last).toMatchObject({
      type: 'NodeCordoned',
      actor: 'anonymous',
      requestId: 'req-cordon-1',
      subjectKind: 'Node',
      subjectName: 'n3',
    });
    const applied = await app.request('GET', '/v1/events/history?types=TaintsApplied&subjectName=n2');
    expect(applied.body.items.map((e: any) => e.data.specs)).toEqual([
      ['dedicated=gpu:NoSchedule', 'soft:PreferNoSchedule'],
      ['maintenance:NoExecute'],
      ['maintenance-'],
    ]);
  });

  it('GraphQL applyTaints, cordonNode and evictions mirror REST', async () => {
    const r = await app.graphql(
      `mutation { applyTaints(input: { nodes: ["n1"], taints: ["gq=1:NoSchedule"] }) { nodes { name changed operation taints { key value effect } } evictions { immediate scheduled cancelled retimed } dryRun } }`,
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.applyTaints.nodes[0]).toMatchObject({ name: 'n1', changed: true, operation: 'tainted' });
    expect(r.body.data.applyTaints.nodes[0].taints[0]).toEqual({ key: 'gq', value: '1', effect: 'NoSchedule' });
    const bad = await app.graphql(
      `mutation { applyTaints(input: { nodes: ["n1"], taints: ["gq=2:NoSchedule"] }) { dryRun } }`,
    );
    expect(bad.body.errors?.[0].extensions.code).toBe('CONFLICT');
    const u = await app.graphql(
      `mutation { uncordonNode(name: "n3") { changed node { unschedulable taints { key } } evictions { immediate } } }`,
    );
    expect(u.body.data.uncordonNode).toEqual({
      changed: true,
      node: { unschedulable: false, taints: [] },
      evictions: { immediate: 0 },
    });
    // the same page shape as every GraphQL list: edges { cursor node } and pageInfo
    const page = '{ edges { cursor node { pod { name } status } } pageInfo { hasNextPage endCursor } }';
    const e = await app.graphql(`{ evictions(node: "n2", first: 1) ${page} }`);
    expect(e.body.data.evictions.edges).toHaveLength(1);
    expect(e.body.data.evictions.pageInfo.hasNextPage).toBe(true);
    expect(e.body.data.evictions.pageInfo.endCursor).toBe(e.body.data.evictions.edges[0].cursor);
    const after = e.body.data.evictions.pageInfo.endCursor;
    const next = await app.graphql(`query($after: String) { evictions(node: "n2", first: 5, after: $after) ${page} }`, {
      after,
    });
    expect(next.body.data.evictions.edges).toHaveLength(1);
    expect(next.body.data.evictions.pageInfo).toEqual({
      hasNextPage: false,
      endCursor: next.body.data.evictions.edges[0].cursor,
    });
    const names = [
      e.body.data.evictions.edges[0].node.pod.name,
      next.body.data.evictions.edges[0].node.pod.name,
    ].sort();
    expect(names).toEqual(['patient', 'victim']);
  });
});
