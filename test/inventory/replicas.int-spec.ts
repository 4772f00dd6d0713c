import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startTestApp, type TestApp } from '../support/test-app';

// Issue 4 item 6: two replicas on one PostgreSQL database. A write through one is visible to the
// other's snapshot (which its reads and decisions use) within 1 s, through LISTEN/NOTIFY
// (ChangeFeedService). Embedded PGlite is one process by design (its data folder is locked), so
// this suite runs in the PostgreSQL + Redis tier only (the integration project).
const FRESH_WITHIN_MS = 1000;

/** Polls until `check` passes; answers how long it took. Fails past `FRESH_WITHIN_MS`. */
async function freshness(check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > FRESH_WITHIN_MS)
      throw new Error(`not visible on the other replica within ${FRESH_WITHIN_MS} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('two replicas on one database (postgres+redis)', () => {
  const mode = 'postgres+redis';
  let a: TestApp;
  let b: TestApp;
  const latencies: Record<string, number> = {};
  const names = async (app: TestApp, selector: string) =>
    (await app.request('GET', `/v1/nodes?labelSelector=${encodeURIComponent(selector)}`)).body.items.map(
      (n: { name: string }) => n.name,
    );

  beforeAll(async () => {
    a = await startTestApp(mode);
    b = await startTestApp(mode, { shareWith: a });
  });
  afterAll(async () => {
    console.log(
      `replica freshness (ms): ${JSON.stringify(Object.fromEntries(Object.entries(latencies).map(([k, v]) => [k, Math.round(v)])))}`,
    );
    await b?.close();
    await a?.close();
  });

  it('a node created on A is listed by B (B reads its snapshot)', async () => {
    expect((await a.request('PUT', '/v1/nodes/r1', { labels: { replica: 'test' } })).status).toBe(201);
    latencies.nodeCreated = await freshness(async () => (await names(b, 'replica=test')).includes('r1'));
  });

  it("a taint added on A changes B's feasible-nodes decision", async () => {
    const decide = async () =>
      (await b.request('POST', '/v1/decisions/feasible-nodes', { pod: { tolerations: [] }, nodeNames: ['r1'] })).body;
    expect((await decide()).feasibleCount).toBe(1);
    expect(
      (
        await a.request('PUT', '/v1/nodes/r1', {
          labels: { replica: 'test' },
          taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
        })
      ).status,
    ).toBe(200);
    latencies.taintAdded = await freshness(async () => (await decide()).feasibleCount === 0);
    expect((await decide()).message).toBe('0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}.');
  });

  it("a pod bound on A counts on B (Node.pods from B's snapshot), and a binding on B is seen by A", async () => {
    expect(
      (
        await a.request('PUT', '/v1/namespaces/default/pods/rp1', {
          nodeName: 'r1',
          tolerations: [{ key: 'dedicated', operator: 'Exists' }],
        })
      ).status,
    ).toBe(201);
    const podsOn = async (app: TestApp) =>
      (
        await app.graphql(
          '{ node(name: "r1") { pods { name } } nodes(labelSelector: "replica=test") { edges { node { name pods { name } } } } }',
        )
      ).body.data.nodes.edges[0].node.pods.map((p: { name: string }) => p.name);
    latencies.podBound = await freshness(async () => (await podsOn(b)).includes('rp1'));

    expect(
      (
        await b.request('PUT', '/v1/namespaces/default/pods/rp2', {
          tolerations: [{ key: 'dedicated', operator: 'Exists' }],
        })
      ).status,
    ).toBe(201);
    expect((await b.request('POST', '/v1/namespaces/default/pods/rp2/binding', { nodeName: 'r1' })).status).toBe(200);
    latencies.boundOnB = await freshness(async () => (await podsOn(a)).includes('rp2'));
  });

  it('a node deleted on A disappears from B', async () => {
    expect((await a.request('PUT', '/v1/nodes/r2', { labels: { replica: 'test' } })).status).toBe(201);
    await freshness(async () => (await names(b, 'replica=test')).includes('r2'));
    expect((await a.request('DELETE', '/v1/nodes/r1')).status).toBe(204);
    latencies.nodeDeleted = await freshness(async () => !(await names(b, 'replica=test')).includes('r1'));
  });

  it("an import on A (a bulk change) reloads B's snapshot", async () => {
    const r = await a.request(
      'POST',
      '/v1/import',
      readFileSync(resolve(__dirname, '../fixtures/clusters/small-cluster.json'), 'utf8'),
      { 'content-type': 'application/json' },
    );
    expect(r.status).toBe(200);
    latencies.import = await freshness(async () =>
      (await names(b, 'node-role.kubernetes.io/control-plane')).includes('cp-1'),
    );
    const gpu = await b.request('POST', '/v1/decisions/feasible-nodes', {
      pod: { tolerations: [] },
      labelSelector: 'nvidia.com/gpu.present=true',
    });
    expect(gpu.body).toMatchObject({ totalNodes: 2, feasibleCount: 0 });
  });

  it('a taint on A that evicts 800 pods (a notice too large to send whole) empties the node on B', async () => {
    const pods = Array.from({ length: 800 }, (_, i) => ({
      kind: 'Pod',
      metadata: { name: `big-${i}`, namespace: 'big', uid: `big-uid-${i}` },
      spec: { nodeName: 'big-1', containers: [{ name: 'c', image: 'x' }] },
      status: { phase: 'Running' },
    }));
    const node = { kind: 'Node', metadata: { name: 'big-1', labels: { replica: 'big' } }, spec: {}, status: {} };
    const imported = await a.request('POST', '/v1/import', JSON.stringify({ kind: 'List', items: [node, ...pods] }), {
      'content-type': 'application/json',
    });
    expect(imported.status).toBe(200);
    const podCount = async (app: TestApp) =>
      (await app.graphql('{ node(name: "big-1") { pods { name } } }')).body.data.node?.pods.length ?? -1;
    await freshness(async () => (await podCount(b)) === 800);
    const tainted = await a.request('POST', '/v1/taints', { nodes: ['big-1'], taints: ['drain=now:NoExecute'] });
    expect(tainted.status).toBe(200);
    expect(tainted.body.evictions.immediate).toBe(800);
    latencies.bigEviction = await freshness(async () => (await podCount(b)) === 0);
  });

  it('every change was seen within 1 s', () => {
    for (const [what, ms] of Object.entries(latencies)) expect([what, ms < FRESH_WITHIN_MS]).toEqual([what, true]);
  });
});
