import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { putNode, putPod, startRedactingApp, withoutNulls, writtenState, type TestApiKey } from './decisions-helpers';

// API.md "Decisions" POST /v1/decisions/feasible-nodes, through REST and GraphQL, in every mode.
// The cluster:
//   n1  zone=a pool=general                  (4 cpu, 10 pods)
//   n2  zone=b pool=general  spot:PreferNoSchedule
//   n3  zone=a pool=gpu      dedicated=gpu:NoSchedule
//   n4  zone=b               cordoned (unschedulable)
//   n5  zone=c pool=small    500m cpu, 1 pod — already holding one pod of 200m
const GPU_TAINT = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
const UNTOLERATED_GPU = {
  plugin: 'TaintToleration',
  message: 'node(s) had untolerated taint {dedicated: gpu}',
  taint: GPU_TAINT,
};
const UNSCHEDULABLE = { plugin: 'NodeUnschedulable', message: 'node(s) were unschedulable' };
const AFFINITY = { plugin: 'NodeAffinity', message: "node(s) didn't match Pod's node affinity/selector" };
const TOO_MANY_PODS = { plugin: 'NodeResourcesFit', message: 'Too many pods', resource: 'pods' };
const INSUFFICIENT_CPU = { plugin: 'NodeResourcesFit', message: 'Insufficient cpu', resource: 'cpu' };

const FEASIBLE_QUERY = `query($pod: PodSpecInput, $podRef: PodRefInput, $nodeNames: [String!], $labelSelector: String, $limit: Int) {
  feasibleNodes(pod: $pod, podRef: $podRef, nodeNames: $nodeNames, labelSelector: $labelSelector, limit: $limit) {
    totalNodes feasibleCount message
    nodes { name feasible score scores { TaintToleration NodeAffinity } reasons { plugin message taint { key value effect } resource } }
  }
}`;

async function seedCluster(app: TestApp, headers?: Record<string, string>): Promise<void> {
  const allocatable = { cpu: '4', memory: '8Gi', pods: '10' };
  await putNode(app, 'n1', { labels: { zone: 'a', pool: 'general' }, allocatable }, headers);
  await putNode(
    app,
    'n2',
    { labels: { zone: 'b', pool: 'general' }, taints: [{ key: 'spot', effect: 'PreferNoSchedule' }], allocatable },
    headers,
  );
  await putNode(app, 'n3', { labels: { zone: 'a', pool: 'gpu' }, taints: [GPU_TAINT], allocatable }, headers);
  await putNode(app, 'n4', { labels: { zone: 'b' }, unschedulable: true, allocatable }, headers);
  await putNode(
    app,
    'n5',
    { labels: { zone: 'c', pool: 'small' }, allocatable: { cpu: '500m', memory: '1Gi', pods: '1' } },
    headers,
  );
  await putPod(app, 'default', 'filler', { nodeName: 'n5', resources: { requests: { cpu: '200m' } } }, headers);
}

describe.each(testModes())('POST /v1/decisions/feasible-nodes (%s)', (mode) => {
  let app: TestApp;
  const feasible = (body: unknown) => app.request('POST', '/v1/decisions/feasible-nodes', body);
  /** The same question through GraphQL; its answer with nulls dropped must equal REST's. */
  const viaGraphQL = async (variables: Record<string, unknown>) => {
    const r = await app.graphql(FEASIBLE_QUERY, variables);
    expect(r.body.errors).toBeUndefined();
    return withoutNulls(r.body.data!.feasibleNodes);
  };

  beforeAll(async () => {
    app = await startTestApp(mode);
    await seedCluster(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('A.2/B.4.3 ranks feasible nodes first and explains every infeasible one, with the FitError message sorted as strings', async () => {
    const r = await feasible({ pod: { tolerations: [], resources: { requests: { cpu: '1' } } } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      totalNodes: 5,
      feasibleCount: 2,
      message:
        '2/5 nodes are available: 1 Insufficient cpu, 1 Too many pods, 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable.',
      nodes: [
        { name: 'n1', feasible: true, score: 100, scores: { TaintToleration: 100, NodeAffinity: 0 } },
        { name: 'n2', feasible: true, score: 0, scores: { TaintToleration: 0, NodeAffinity: 0 } },
        { name: 'n3', feasible: false, reasons: [UNTOLERATED_GPU] },
        { name: 'n4', feasible: false, reasons: [UNSCHEDULABLE] },
        // Both NodeResourcesFit reasons: one more pod than allowed, and 1000m > 500m - 200m.
        { name: 'n5', feasible: false, reasons: [TOO_MANY_PODS, INSUFFICIENT_CPU] },
      ],
    });
    expect(
      await viaGraphQL({ pod: { tolerations: [], resources: { requests: [{ key: 'cpu', value: '1' }] } } }),
    ).toEqual(r.body);
  });

  it('A.2 lists every failing check in plugin order, but counts a node once, by its first failure', async () => {
    const r = await feasible({ pod: { nodeSelector: { zone: 'c' }, resources: { requests: { cpu: '1' } } } });
    expect(r.body.message).toBe(
      "0/5 nodes are available: 1 Insufficient cpu, 1 Too many pods, 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector.",
    );
    expect(r.body.nodes).toEqual([
      { name: 'n1', feasible: false, reasons: [AFFINITY] },
      { name: 'n2', feasible: false, reasons: [AFFINITY] },
      { name: 'n3', feasible: false, reasons: [UNTOLERATED_GPU, AFFINITY] },
      { name: 'n4', feasible: false, reasons: [UNSCHEDULABLE, AFFINITY] },
      { name: 'n5', feasible: false, reasons: [TOO_MANY_PODS, INSUFFICIENT_CPU] },
    ]);
  });

  it('B.4.1 a tolerated taint makes the node feasible; PreferNoSchedule counts lower the score', async () => {
    const r = await feasible({
      pod: { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] },
      nodeNames: ['n1', 'n2', 'n3'],
    });
    expect(r.body).toMatchObject({ totalNodes: 3, feasibleCount: 3, message: '3/3 nodes are available.' });
    expect(r.body.nodes.map((n: { name: string; score: number }) => [n.name, n.score])).toEqual([
      ['n1', 100],
      ['n3', 100],
      ['n2', 0],
    ]);
    const softened = await feasible({
      pod: { tolerations: [{ key: 'spot', operator: 'Exists', effect: 'PreferNoSchedule' }] },
      nodeNames: ['n1', 'n2'],
    });
    expect(softened.body.nodes.map((n: { name: string; score: number }) => [n.name, n.score])).toEqual([
      ['n1', 100],
      ['n2', 100],
    ]);
  });

  it('B.4.1 preferred node affinity weights are normalised and weighted (TaintToleration 3, NodeAffinity 2)', async () => {
    const pod = {
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 50, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
            { weight: 20, preference: { matchExpressions: [{ key: 'pool', operator: 'In', values: ['general'] }] } },
          ],
        },
      },
    };
    const r = await feasible({ pod, nodeNames: ['n1', 'n2'] });
    // n1: affinity 70 → 100, taint 100 → 100. n2: affinity 20/70 → 28, taint 1/1 → 0 → round((0·3 + 28·2)/5) = 11.
    expect(r.body.nodes).toEqual([
      { name: 'n1', feasible: true, score: 100, scores: { TaintToleration: 100, NodeAffinity: 100 } },
      { name: 'n2', feasible: true, score: 11, scores: { TaintToleration: 0, NodeAffinity: 28 } },
    ]);
    const gql = await viaGraphQL({
      pod: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution:
              pod.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution,
          },
        },
      },
      nodeNames: ['n1', 'n2'],
    });
    expect(gql).toEqual(r.body);
  });

  it('a body of 10,000 nested arrays or objects is a 400, never a 500 (found by the fuzzer)', async () => {
    for (const body of [
      `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      `{"pod":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    ]) {
      const r = await fetch(`${app.url}/v1/decisions/feasible-nodes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(r.status).toBe(400);
    }
  });

  it('API.md limit caps the nodes array, never the counts or the message', async () => {
    const all = await feasible({ pod: {} });
    const one = await feasible({ pod: {}, limit: 1 });
    expect(one.body.nodes).toEqual([all.body.nodes[0]]);
    expect(one.body).toMatchObject({ totalNodes: 5, feasibleCount: all.body.feasibleCount, message: all.body.message });
    const none = await feasible({ pod: {}, limit: 0 });
    expect(none.body).toMatchObject({ totalNodes: 5, nodes: [] });
    expect((await viaGraphQL({ pod: {}, limit: 1 })).nodes).toHaveLength(1);
  });

  it('API.md nodeNames and labelSelector choose the candidates (totalNodes counts them)', async () => {
    const named = await feasible({ pod: {}, nodeNames: ['n4', 'n1', 'n1'] });
    expect(named.body).toMatchObject({
      totalNodes: 2,
      feasibleCount: 1,
      message: '1/2 nodes are available: 1 node(s) were unschedulable.',
    });
    expect(named.body.nodes.map((n: { name: string }) => n.name)).toEqual(['n1', 'n4']);
    const selected = await feasible({ pod: {}, labelSelector: 'pool in (general, gpu)' });
    expect(selected.body).toMatchObject({ totalNodes: 3, feasibleCount: 2 });
    expect(await viaGraphQL({ pod: {}, labelSelector: 'pool in (general, gpu)' })).toEqual(selected.body);
  });

  it('A.6 an inline pod is evaluated as if it were created: a DaemonSet pod gets the unschedulable toleration', async () => {
    const plain = await feasible({ pod: {}, nodeNames: ['n4'] });
    expect(plain.body.feasibleCount).toBe(0);
    const daemon = await feasible({ pod: { owner: { kind: 'DaemonSet', name: 'fluentd' } }, nodeNames: ['n4'] });
    expect(daemon.body).toMatchObject({ feasibleCount: 1, nodes: [{ name: 'n4', feasible: true }] });
  });

  it('podRef evaluates a stored pod; a bound pod does not count its own requests twice on its node', async () => {
    await putPod(app, 'default', 'gpu-job', {
      tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }],
    });
    const r = await feasible({ podRef: { namespace: 'default', name: 'gpu-job' }, nodeNames: ['n1', 'n3'] });
    expect(r.body).toMatchObject({ totalNodes: 2, feasibleCount: 2 });
    expect(await viaGraphQL({ podRef: { namespace: 'default', name: 'gpu-job' }, nodeNames: ['n1', 'n3'] })).toEqual(
      r.body,
    );
    // `filler` fills n5's single pod slot itself: asking about it again, n5 still has room for it.
    const filler = await feasible({ podRef: { namespace: 'default', name: 'filler' }, nodeNames: ['n5'] });
    expect(filler.body).toMatchObject({ feasibleCount: 1, nodes: [{ name: 'n5', feasible: true }] });
  });

  it('404 problem+json for an unknown podRef or unknown node names (listing them)', async () => {
    const pod = await feasible({ podRef: { namespace: 'default', name: 'nope' } });
    expect(pod.status).toBe(404);
    expect(pod.headers.get('content-type')).toContain('application/problem+json');
    expect(pod.body.detail).toBe('pods "nope" not found');
    const nodes = await feasible({ pod: {}, nodeNames: ['n1', 'zz', 'yy'] });
    expect(nodes.status).toBe(404);
    expect(nodes.body.detail).toBe('nodes "yy" not found; nodes "zz" not found');
    const gql = await app.graphql(FEASIBLE_QUERY, { pod: {}, nodeNames: ['zz'] });
    expect(gql.body.errors![0]).toMatchObject({
      message: 'nodes "zz" not found',
      extensions: { code: 'NOT_FOUND', status: 404 },
    });
  });

  it.each([
    { description: 'neither pod nor podRef', body: { nodeNames: ['n1'] }, field: 'pod' },
    {
      description: 'both pod and podRef',
      body: { pod: {}, podRef: { namespace: 'default', name: 'x' } },
      field: 'podRef',
    },
    {
      description: 'both nodeNames and labelSelector',
      body: { pod: {}, nodeNames: ['n1'], labelSelector: 'a=b' },
      field: 'labelSelector',
    },
    { description: 'a limit of the wrong type', body: { pod: {}, limit: 'ten' }, field: 'limit' },
    { description: 'a limit above 5000', body: { pod: {}, limit: 5001 }, field: 'limit' },
    {
      description: 'tolerations of the wrong type',
      body: { pod: { tolerations: { key: 'a' } } },
      field: 'pod.tolerations',
    },
    { description: 'an unknown field in the pod', body: { pod: { toleration: [] } }, field: 'pod.toleration' },
    { description: 'a malformed label selector', body: { pod: {}, labelSelector: 'a in (' }, field: 'labelSelector' },
  ])('400 problem+json with the field path for $description', async ({ body, field }) => {
    const r = await feasible(body);
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('400 for malformed JSON', async () => {
    const r = await app.request('POST', '/v1/decisions/feasible-nodes', '{"pod": ', {
      'content-type': 'application/json',
    });
    expect(r.status).toBe(400);
  });

  it('B.2.1 422 for invalid tolerations, with field paths under pod.', async () => {
    const r = await feasible({
      pod: {
        tolerations: [
          { key: '', operator: 'Equal', value: 'x' },
          { key: 'k', effect: 'NoScheduled' },
        ],
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([
      {
        field: 'pod.tolerations[0].operator',
        message:
          'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      },
      {
        field: 'pod.tolerations[1].effect',
        message: 'Unsupported value: "NoScheduled": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      },
    ]);
    expect(r.body.detail).toMatch(/^pod is invalid: \[pod\.tolerations\[0\]\.operator: /);
    const gql = await app.graphql(FEASIBLE_QUERY, {
      pod: { tolerations: [{ key: '', operator: 'Equal', value: 'x' }] },
    });
    expect(gql.body.errors![0].extensions).toMatchObject({
      code: 'UNPROCESSABLE_ENTITY',
      errors: [{ field: 'pod.tolerations[0].operator' }],
    });
  });

  it('GraphQL cost grows with limit: a full selection of 5000 nodes is refused, a narrow one is not', async () => {
    const wide = await app.graphql(FEASIBLE_QUERY, { pod: {}, limit: 5000 });
    expect(wide.status).toBe(400);
    expect(wide.body.errors![0]).toMatchObject({
      message: expect.stringMatching(/^query complexity \d+ exceeds the limit of 5000$/),
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
    const narrow = await app.graphql(
      'query { feasibleNodes(pod: {}, limit: 5000) { totalNodes feasibleCount nodes { name } } }',
    );
    expect(narrow.body.errors).toBeUndefined();
    expect(narrow.body.data.feasibleNodes.nodes).toHaveLength(5);
  });

  it('documents the three decisions in OpenAPI with request examples and problem responses', async () => {
    const doc = (await app.request('GET', '/docs-json')).body;
    for (const path of [
      '/v1/decisions/feasible-nodes',
      '/v1/decisions/taint-impact',
      '/v1/decisions/toleration-match',
    ]) {
      const post = doc.paths[path].post;
      expect(Object.keys(post.requestBody.content['application/json'].examples).length).toBeGreaterThan(0);
      expect(post.responses['200'].content['application/json'].example).toBeDefined();
      expect(post.responses['400'].content['application/problem+json']).toBeDefined();
    }
    expect(doc.paths['/v1/decisions/feasible-nodes'].post.description).toContain('as if the pod were created');
  });

  it('writes nothing: no event, no eviction, no node change', async () => {
    const before = await writtenState(app);
    await feasible({ pod: {} });
    await feasible({ podRef: { namespace: 'default', name: 'filler' } });
    await viaGraphQL({ pod: {} });
    expect(await writtenState(app)).toEqual(before);
  });
});

describe('feasible-nodes explanations redacted by setting or role (SEMANTICS A.2)', () => {
  let app: TestApp;
  let admin: TestApiKey;
  let viewer: TestApiKey;
  beforeAll(async () => {
    ({ app, admin, viewer } = await startRedactingApp());
    await seedCluster(app, admin.headers);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("a viewer below REDACT_TAINTS_BELOW_ROLE gets upstream's wording and no taint field; an admin sees the taint", async () => {
    const body = { pod: {}, nodeNames: ['n3'] };
    const seen = await app.request('POST', '/v1/decisions/feasible-nodes', body, admin.headers);
    expect(seen.body.nodes[0].reasons).toEqual([UNTOLERATED_GPU]);
    const hidden = await app.request('POST', '/v1/decisions/feasible-nodes', body, viewer.headers);
    expect(hidden.status).toBe(200);
    expect(hidden.body.message).toBe('0/1 nodes are available: 1 node(s) had untolerated taint(s).');
    expect(hidden.body.nodes[0].reasons).toEqual([
      { plugin: 'TaintToleration', message: 'node(s) had untolerated taint(s)' },
    ]);
    const gql = await app.graphql(FEASIBLE_QUERY, { pod: {}, nodeNames: ['n3'] }, viewer.headers);
    expect(gql.body.data.feasibleNodes.nodes[0].reasons).toEqual([
      { plugin: 'TaintToleration', message: 'node(s) had untolerated taint(s)', taint: null, resource: null },
    ]);
  });

  it('needs a key (401)', async () => {
    expect((await app.request('POST', '/v1/decisions/feasible-nodes', { pod: {} })).status).toBe(401);
  });
});

describe('feasible-nodes with REDACT_TAINTS=true (SEMANTICS A.2)', () => {
  it('redacts for every caller, admin included', async () => {
    const app = await startTestApp('embedded', { env: { REDACT_TAINTS: 'true' } });
    try {
      await putNode(app, 'n3', { taints: [GPU_TAINT] });
      const r = await app.request('POST', '/v1/decisions/feasible-nodes', { pod: {} });
      expect(r.body.nodes[0].reasons).toEqual([
        { plugin: 'TaintToleration', message: 'node(s) had untolerated taint(s)' },
      ]);
    } finally {
      await app.close();
    }
  });
});
