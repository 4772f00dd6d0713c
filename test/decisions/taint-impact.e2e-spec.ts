import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { putNode, putPod, withoutNulls, writtenState } from './decisions-helpers';

// API.md "Decisions" POST /v1/decisions/taint-impact, through REST and GraphQL, in every mode.
// The cluster:
//   m1, m2  pool=batch                      bound: a, b on m1; c, d on m2
//   m3      pool=web
//   m4      pool=batch only=m4  legacy=x:NoSchedule
//   m5      pool=drain          drain=now:NoExecute (since the node was created); bound: e
// Pending: p-batch (needs pool=batch), p-any, p-tolerant (pool=batch, tolerates maintenance), p-m4 (needs only=m4).
const AT = '2030-01-01T00:00:00.000Z';
const plus = (iso: string, seconds: number) => new Date(Date.parse(iso) + seconds * 1000).toISOString();
const ref = (name: string) => ({ namespace: 'default', name });
const maintenance = (extra: Record<string, unknown> = {}) => ({
  key: 'maintenance',
  operator: 'Exists',
  effect: 'NoExecute',
  ...extra,
});

const IMPACT_QUERY = `query($taints: [String!]!, $nodes: [String!], $labelSelector: String, $all: Boolean, $at: DateTime) {
  taintImpact(taints: $taints, nodes: $nodes, labelSelector: $labelSelector, all: $all, at: $at) {
    at
    evictions { pod { namespace name } node action afterSeconds evictAt }
    tolerating { pod { namespace name } node }
    unschedulablePending { pod { namespace name } }
    schedulablePending { pod { namespace name } }
    warnings
    budgets { namespace name disruptionsAllowed desiredHealthy currentHealthy evictedNow evictedTotal violated }
  }
}`;

describe.each(testModes())('POST /v1/decisions/taint-impact (%s)', (mode) => {
  let app: TestApp;
  let drainTaintAdded: string;
  const impact = (body: unknown) => app.request('POST', '/v1/decisions/taint-impact', body);
  const viaGraphQL = async (variables: Record<string, unknown>) => {
    const r = await app.graphql(IMPACT_QUERY, variables);
    expect(r.body.errors).toBeUndefined();
    return withoutNulls(r.body.data!.taintImpact);
  };

  beforeAll(async () => {
    app = await startTestApp(mode);
    await putNode(app, 'm1', { labels: { pool: 'batch' } });
    await putNode(app, 'm2', { labels: { pool: 'batch' } });
    await putNode(app, 'm3', { labels: { pool: 'web' } });
    await putNode(app, 'm4', {
      labels: { pool: 'batch', only: 'm4' },
      taints: [{ key: 'legacy', value: 'x', effect: 'NoSchedule' }],
    });
    await putNode(app, 'm5', {
      labels: { pool: 'drain' },
      taints: [{ key: 'drain', value: 'now', effect: 'NoExecute' }],
    });
    drainTaintAdded = (await app.request('GET', '/v1/nodes/m5')).body.taints[0].timeAdded;
    const boundAt = '2029-12-31T00:00:00.000Z';
    await putPod(app, 'default', 'a', { nodeName: 'm1', boundAt });
    await putPod(app, 'default', 'b', {
      nodeName: 'm1',
      boundAt,
      tolerations: [maintenance({ tolerationSeconds: 120 })],
    });
    await putPod(app, 'default', 'c', { nodeName: 'm2', boundAt, tolerations: [maintenance()] });
    await putPod(app, 'default', 'd', {
      nodeName: 'm2',
      boundAt,
      tolerations: [maintenance({ tolerationSeconds: 0 })],
    });
    await putPod(app, 'default', 'e', {
      nodeName: 'm5',
      boundAt: '2020-01-01T00:00:00.000Z',
      tolerations: [{ key: 'drain', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 3600 }],
    });
    await putPod(app, 'default', 'p-batch', { nodeSelector: { pool: 'batch' } });
    await putPod(app, 'default', 'p-any', {});
    await putPod(app, 'default', 'p-tolerant', { nodeSelector: { pool: 'batch' }, tolerations: [maintenance()] });
    await putPod(app, 'default', 'p-m4', { nodeSelector: { only: 'm4' } });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('A.3 a NoExecute taint: untolerated → EvictNow, tolerationSeconds → EvictAfter, ≤ 0 → EvictNow, no seconds → tolerating; pending pods that lose their last node', async () => {
    const r = await impact({ taints: ['maintenance=true:NoExecute'], labelSelector: 'pool=batch', at: AT });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      at: AT,
      // No disruption budget in this inventory (test/budgets covers them).
      budgets: [],
      evictions: [
        { pod: ref('a'), node: 'm1', action: 'EvictNow', afterSeconds: 0, evictAt: AT },
        // The new taint's timeAdded is `at` (later than boundAt): the clock starts there.
        { pod: ref('b'), node: 'm1', action: 'EvictAfter', afterSeconds: 120, evictAt: plus(AT, 120) },
        { pod: ref('d'), node: 'm2', action: 'EvictNow', afterSeconds: 0, evictAt: AT },
      ],
      tolerating: [{ pod: ref('c'), node: 'm2' }],
      // p-batch could use m1/m2 (m4 has legacy:NoSchedule) and no longer can; p-tolerant tolerates it; p-any has m3.
      unschedulablePending: [{ pod: ref('p-batch') }],
      schedulablePending: [],
      warnings: [],
    });
    expect(await viaGraphQL({ taints: ['maintenance=true:NoExecute'], labelSelector: 'pool=batch', at: AT })).toEqual(
      r.body,
    );
  });

  it('A.3 without `at` the change is evaluated now (the service clock); a clock never starts before boundAt', async () => {
    const started = Date.now();
    const r = await impact({ taints: ['maintenance=true:NoExecute'], nodes: ['m1'] });
    expect(Date.parse(r.body.at)).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(r.body.at)).toBeLessThanOrEqual(Date.now());
    // b was bound at 2029-12-31T00:00:00Z, after "now": its 120 s count from then.
    const b = r.body.evictions.find((e: { pod: { name: string } }) => e.pod.name === 'b');
    expect(b).toMatchObject({ action: 'EvictAfter', evictAt: plus('2029-12-31T00:00:00.000Z', 120) });
    expect(b.afterSeconds).toBe(Math.ceil((Date.parse(b.evictAt) - Date.parse(r.body.at)) / 1000));
  });

  it('A.3 a taint already on the node keeps its timeAdded: its clock is not restarted by the what-if', async () => {
    const at = new Date(Date.parse(drainTaintAdded) + 600_000).toISOString();
    const r = await impact({ taints: ['drain=now:NoExecute'], nodes: ['m5'], at });
    // deadline = max(timeAdded, boundAt) + 3600 s = timeAdded + 3600 s: 3000 s after `at`.
    expect(r.body.evictions).toEqual([
      { pod: ref('e'), node: 'm5', action: 'EvictAfter', afterSeconds: 3000, evictAt: plus(drainTaintAdded, 3600) },
    ]);
    // A changed value is a new taint (timeAdded = at): the full 3600 s from `at`.
    const changed = await impact({ taints: ['drain=later:NoExecute'], nodes: ['m5'], at });
    expect(changed.body.evictions).toEqual([
      { pod: ref('e'), node: 'm5', action: 'EvictAfter', afterSeconds: 3600, evictAt: plus(at, 3600) },
    ]);
  });

  it('B.3.2 removals: `key-` frees pending pods; a removal that matches nothing on a node is a warning there', async () => {
    const r = await impact({ taints: ['legacy-'], all: true, at: AT });
    expect(r.status).toBe(200);
    expect(r.body.schedulablePending).toEqual([{ pod: ref('p-m4') }]);
    expect(r.body.unschedulablePending).toEqual([]);
    expect(r.body.warnings).toEqual(
      ['m1', 'm2', 'm3', 'm5'].map(
        (n) => `node ${n}: taint "legacy" not found (kubectl taint would refuse the command; ignored on this node)`,
      ),
    );
    // Removing m5's NoExecute taint: e stays indefinitely.
    const drain = await impact({ taints: ['drain:NoExecute-'], nodes: ['m5'], at: AT });
    expect(drain.body).toMatchObject({ evictions: [], tolerating: [{ pod: ref('e'), node: 'm5' }], warnings: [] });
    expect(await viaGraphQL({ taints: ['legacy-'], all: true, at: AT })).toEqual(r.body);
  });

  it('B.4.1 a NoSchedule taint evicts nobody but can strand pending pods', async () => {
    const r = await impact({ taints: ['dedicated=gpu:NoSchedule'], nodes: ['m1', 'm2', 'm3'], at: AT });
    // Bound pods stay (NoSchedule never evicts); m4 (legacy) and m5 (drain) take none of the pending pods.
    expect(r.body).toMatchObject({
      evictions: [],
      tolerating: [
        { pod: ref('a'), node: 'm1' },
        { pod: ref('b'), node: 'm1' },
        { pod: ref('c'), node: 'm2' },
        { pod: ref('d'), node: 'm2' },
      ],
      unschedulablePending: [{ pod: ref('p-any') }, { pod: ref('p-batch') }, { pod: ref('p-tolerant') }],
      schedulablePending: [],
    });
    const one = await impact({ taints: ['dedicated=gpu:NoSchedule'], nodes: ['m3'], at: AT });
    expect(one.body.unschedulablePending).toEqual([]);
  });

  it.each([
    { description: 'no target', body: { taints: ['a=b:NoSchedule'] }, field: 'nodes' },
    { description: 'two targets', body: { taints: ['a=b:NoSchedule'], nodes: ['m1'], all: true }, field: 'nodes' },
    { description: 'an empty taint list', body: { taints: [], all: true }, field: 'taints' },
    { description: 'taints of the wrong type', body: { taints: 'a=b:NoSchedule', all: true }, field: 'taints' },
    { description: 'a bad `at`', body: { taints: ['a=b:NoSchedule'], all: true, at: 'tomorrow' }, field: 'at' },
    {
      description: 'an unknown field',
      body: { taints: ['a=b:NoSchedule'], all: true, overwrite: true },
      field: 'overwrite',
    },
  ])('400 with the field path for $description', async ({ body, field }) => {
    const r = await impact(body);
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it.each([
    { spec: 'a=b:NoScheduled', detail: 'invalid taint effect: NoScheduled, unsupported taint effect' },
    { spec: 'a=b', detail: 'invalid taint spec: a=b' },
  ])("B.3.2 400 with kubectl's words for the spec $spec", async ({ spec, detail }) => {
    const r = await impact({ taints: [spec], all: true });
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain(detail);
  });

  it('B.3.2 adding and removing the same taint in one request is refused as kubectl does', async () => {
    const r = await impact({ taints: ['a=b:NoSchedule', 'a-'], all: true });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('can not both modify and remove the following taint(s) in the same command: a=');
  });

  it('404 naming the unknown nodes (REST and GraphQL)', async () => {
    const r = await impact({ taints: ['a=b:NoSchedule'], nodes: ['m1', 'ghost'] });
    expect(r.status).toBe(404);
    expect(r.body.detail).toBe('nodes "ghost" not found');
    const gql = await app.graphql(IMPACT_QUERY, { taints: ['a=b:NoSchedule'], nodes: ['ghost'] });
    expect(gql.body.errors![0].extensions).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('writes nothing: no event, no eviction, no taint on any node', async () => {
    const before = await writtenState(app);
    const taintsBefore = (await app.request('GET', '/v1/nodes/m1')).body.taints;
    await impact({ taints: ['maintenance=true:NoExecute'], all: true });
    await viaGraphQL({ taints: ['legacy-'], all: true });
    expect(await writtenState(app)).toEqual(before);
    expect((await app.request('GET', '/v1/nodes/m1')).body.taints).toEqual(taintsBefore);
  });
});
