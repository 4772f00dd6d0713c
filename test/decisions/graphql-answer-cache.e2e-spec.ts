import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { putNode, putPod, startRedactingApp, withoutNulls, type TestApiKey } from './decisions-helpers';

// src/kernel/graphql/answer-cache.ts: a repeated feasibleNodes query (same document, variables and role, no
// change to the inventory in between) is answered from its last execution, as REST answers a repeated
// question from the decision cache. These tests ask through the real HTTP server and read which executor
// answered from the service's own metrics.
const FEASIBLE_QUERY = `query($pod: PodSpecInput, $podRef: PodRefInput, $nodeNames: [String!]) {
  feasibleNodes(pod: $pod, podRef: $podRef, nodeNames: $nodeNames) {
    totalNodes feasibleCount message
    nodes { name feasible score reasons { plugin message taint { key value effect } } }
  }
}`;
const GPU_TAINT = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
const ALLOCATABLE = { cpu: '4', memory: '8Gi', pods: '10' };

/** taintwise_graphql_executions_total for one executor (0 before its first). */
async function executions(app: TestApp, executor: string): Promise<number> {
  const text = (await app.request('GET', '/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`taintwise_graphql_executions_total{executor="${executor}"}`));
  return line === undefined ? 0 : Number(line.split(' ').pop());
}

describe.each(testModes())('GraphQL answer cache (%s)', (mode) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(mode);
    await putNode(app, 'n1', { labels: { pool: 'general' }, allocatable: ALLOCATABLE });
    await putNode(app, 'n2', { labels: { pool: 'gpu' }, taints: [GPU_TAINT], allocatable: ALLOCATABLE });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers the third asking from the cache, byte for byte, and a change to the inventory is seen at once', async () => {
    const variables = { pod: { tolerations: [] }, nodeNames: ['n1', 'n2'] };
    const before = await executions(app, 'answer-cache');
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await app.graphql(FEASIBLE_QUERY, variables);
      expect(r.status).toBe(200);
      texts.push(r.text);
    }
    // remembered on the second sighting, answered from the cache on the third: the same bytes each time
    expect(await executions(app, 'answer-cache')).toBe(before + 1);
    expect(texts[1]).toBe(texts[0]);
    expect(texts[2]).toBe(texts[0]);
    expect(JSON.parse(texts[0]).data.feasibleNodes).toMatchObject({
      feasibleCount: 1,
      nodes: [
        { name: 'n1', feasible: true },
        { name: 'n2', feasible: false },
      ],
    });

    // the taint changes the snapshot: the next asking is executed again and sees it
    const tainted = await app.request('POST', '/v1/taints', { nodes: ['n1'], taints: ['maintenance:NoSchedule'] });
    expect(tainted.status).toBe(200);
    const after = await app.graphql(FEASIBLE_QUERY, variables);
    expect(await executions(app, 'answer-cache')).toBe(before + 1);
    expect(after.body.errors).toBeUndefined();
    expect(after.body.data.feasibleNodes).toMatchObject({ feasibleCount: 0, totalNodes: 2 });
    // and it is what REST answers now
    const rest = await app.request('POST', '/v1/decisions/feasible-nodes', variables);
    expect(withoutNulls(after.body.data.feasibleNodes)).toEqual(rest.body);
  });

  it('keeps no answer for other queries, nor for a query that ends in an error', async () => {
    const before = await executions(app, 'answer-cache');
    for (let i = 0; i < 3; i++) {
      const list = await app.graphql('{ nodes { edges { node { name } } } }');
      expect(list.body.errors).toBeUndefined();
      const missing = await app.graphql(FEASIBLE_QUERY, { podRef: { namespace: 'default', name: 'nope' } });
      expect(missing.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    expect(await executions(app, 'answer-cache')).toBe(before);
  });

  it('a podRef to a finished pod: deleting the pod ends the cached answer', async () => {
    await putPod(app, 'default', 'done', { phase: 'Succeeded' });
    const variables = { podRef: { namespace: 'default', name: 'done' }, nodeNames: ['n2'] };
    const before = await executions(app, 'answer-cache');
    for (let i = 0; i < 3; i++) expect((await app.graphql(FEASIBLE_QUERY, variables)).body.errors).toBeUndefined();
    expect(await executions(app, 'answer-cache')).toBe(before + 1);
    expect((await app.request('DELETE', '/v1/namespaces/default/pods/done')).status).toBe(204);
    const gone = await app.graphql(FEASIBLE_QUERY, variables);
    expect(gone.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describe('GraphQL answer cache and roles', () => {
  let app: TestApp;
  let admin: TestApiKey;
  let viewer: TestApiKey;
  beforeAll(async () => {
    ({ app, admin, viewer } = await startRedactingApp());
    await putNode(app, 'n2', { taints: [GPU_TAINT], allocatable: ALLOCATABLE }, admin.headers);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("keeps each role's own answer: a viewer never gets the admin's unredacted one, and no key gets none", async () => {
    const variables = { pod: {}, nodeNames: ['n2'] };
    const reasonsOf = (r: { body: any }) => r.body.data.feasibleNodes.nodes[0].reasons;
    for (let i = 0; i < 3; i++) {
      expect(reasonsOf(await app.graphql(FEASIBLE_QUERY, variables, admin.headers))).toEqual([
        { plugin: 'TaintToleration', message: 'node(s) had untolerated taint {dedicated: gpu}', taint: GPU_TAINT },
      ]);
    }
    for (let i = 0; i < 3; i++) {
      expect(reasonsOf(await app.graphql(FEASIBLE_QUERY, variables, viewer.headers))).toEqual([
        { plugin: 'TaintToleration', message: 'node(s) had untolerated taint(s)', taint: null },
      ]);
    }
    const metrics = await app.request('GET', '/metrics', undefined, admin.headers);
    expect(metrics.text).toContain('taintwise_graphql_executions_total{executor="answer-cache"} 2');
    const anonymous = await app.graphql(FEASIBLE_QUERY, variables);
    expect(anonymous.status).toBe(401);
  });
});
