import { startTestApp, testModes, type TestApp } from '../support/test-app';

// Issue 13: policy/v1 PodDisruptionBudgets in the inventory (SEMANTICS B.9.1–B.9.2) and the Eviction API
// with the eviction subresource's budget rules (B.9.3), over REST and GraphQL, in both storage modes.
describe.each(testModes())('disruption budgets and the Eviction API (%s)', (mode) => {
  let app: TestApp;
  const put = (ns: string, name: string, body: unknown) =>
    app.request('PUT', `/v1/namespaces/${ns}/poddisruptionbudgets/${name}`, body);
  const get = (ns: string, name: string) => app.request('GET', `/v1/namespaces/${ns}/poddisruptionbudgets/${name}`);
  const evict = (ns: string, name: string, query = '', body?: unknown) =>
    app.request('POST', `/v1/namespaces/${ns}/pods/${name}/eviction${query}`, body);
  const pod = (ns: string, name: string, labels: Record<string, string>, phase = 'Running') =>
    app.request('PUT', `/v1/namespaces/${ns}/pods/${name}`, {
      labels,
      nodeName: 'n1',
      phase,
      owner: { kind: 'ReplicaSet', name: `${labels.app}-rs` },
    });

  beforeAll(async () => {
    app = await startTestApp(mode);
    expect((await app.request('PUT', '/v1/nodes/n1', {})).status).toBe(201);
    for (const name of ['web-1', 'web-2', 'web-3']) expect((await pod('shop', name, { app: 'web' })).status).toBe(201);
    expect((await pod('shop', 'web-4', { app: 'web' }, 'Pending')).status).toBe(201);
    for (const name of ['db-1', 'db-2']) expect((await pod('shop', name, { app: 'db' })).status).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates a budget (201), reads it back with the status the disruption controller computes', async () => {
    const created = await put('shop', 'web', { spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'shop', generation: 1 },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
      // 3 Running + 1 Pending expected; Running stands for healthy.
      status: { observedGeneration: 1, expectedPods: 4, currentHealthy: 3, desiredHealthy: 2, disruptionsAllowed: 1 },
    });
    const read = await get('shop', 'web');
    expect(read.status).toBe(200);
    expect(read.body.status.disruptionsAllowed).toBe(1);
  });

  it.each([
    [{ maxUnavailable: '50%' }, { expectedPods: 4, desiredHealthy: 2, disruptionsAllowed: 1 }],
    [{ maxUnavailable: 1 }, { expectedPods: 4, desiredHealthy: 3, disruptionsAllowed: 0 }],
    [{ minAvailable: '50%' }, { expectedPods: 4, desiredHealthy: 2, disruptionsAllowed: 1 }],
    [{ minAvailable: '60%' }, { expectedPods: 4, desiredHealthy: 3, disruptionsAllowed: 0 }],
  ])('computes %j', async (spec, status) => {
    const r = await put('shop', 'forms', { spec: { ...spec, selector: { matchLabels: { app: 'web' } } } });
    expect([200, 201]).toContain(r.status);
    expect(r.body.status).toMatchObject(status);
    expect((await app.request('DELETE', '/v1/namespaces/shop/poddisruptionbudgets/forms')).status).toBe(204);
  });

  it('refuses invalid budgets with 422 in Kubernetes words and stores nothing', async () => {
    const both = await put('shop', 'bad', { spec: { minAvailable: 1, maxUnavailable: 1, selector: {} } });
    expect(both.status).toBe(422);
    expect(both.body.detail).toBe(
      'PodDisruptionBudget "bad" is invalid: spec: Invalid value: {"MinAvailable":1,"Selector":{},"MaxUnavailable":1,"UnhealthyPodEvictionPolicy":null}: minAvailable and maxUnavailable cannot be both set',
    );
    const negative = await put('shop', 'bad', { spec: { minAvailable: -1 } });
    expect(negative.status).toBe(422);
    expect(negative.body.errors).toEqual([
      expect.objectContaining({
        field: 'spec.minAvailable',
        message: 'Invalid value: -1: must be greater than or equal to 0',
      }),
    ]);
    const percent = await put('shop', 'bad', { spec: { maxUnavailable: '150%' } });
    expect(percent.status).toBe(422);
    expect(percent.body.detail).toContain('spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%');
    const selector = await put('shop', 'bad', {
      spec: { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] } },
    });
    expect(selector.status).toBe(422);
    expect(selector.body.detail).toContain(
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    );
    const wrongType = await put('shop', 'bad', { spec: { minAvailable: true } });
    expect(wrongType.status).toBe(400);
    expect((await get('shop', 'bad')).status).toBe(404);
    expect((await get('shop', 'bad')).body.detail).toBe('poddisruptionbudgets.policy "bad" not found');
  });

  it('evicts through the Eviction API while the budget allows, then answers 429 naming the budget', async () => {
    const dry = await evict('shop', 'web-1', '?dryRun=All');
    expect(dry.status).toBe(201);
    expect(dry.body).toMatchObject({ evicted: true, dryRun: true, budget: 'web', pod: { phase: 'Running' } });
    expect((await app.request('GET', '/v1/namespaces/shop/pods/web-1')).body.phase).toBe('Running');

    const first = await evict('shop', 'web-1', '', {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: { name: 'web-1', namespace: 'shop' },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      evicted: true,
      dryRun: false,
      budget: 'web',
      pod: { phase: 'Evicted', nodeName: null },
    });
    // The evicted pod has an owner: its controller would re-create it, so it is still expected.
    expect((await get('shop', 'web')).body.status).toMatchObject({
      expectedPods: 4,
      currentHealthy: 2,
      desiredHealthy: 2,
      disruptionsAllowed: 0,
    });

    const refused = await evict('shop', 'web-2');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      detail: "Cannot evict pod as it would violate the pod's disruption budget.",
      budget: 'web',
      cause: 'The disruption budget web needs 2 healthy pods and has 2 currently',
    });
    expect((await app.request('GET', '/v1/namespaces/shop/pods/web-2')).body.phase).toBe('Running');

    // A Pending pod is evicted without a budget check (canIgnorePDB).
    const pending = await evict('shop', 'web-4');
    expect(pending.status).toBe(201);
    expect(pending.body.pod.phase).toBe('Evicted');

    const history = await app.request('GET', '/v1/evictions?namespace=shop');
    const rows = history.body.items.filter((e: any) => e.pod.name === 'web-1');
    expect(rows).toEqual([expect.objectContaining({ status: 'Executed', reason: 'evicted through the Eviction API' })]);
  });

  it('relaxing the budget allows the next eviction', async () => {
    expect(
      (await put('shop', 'web', { spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } })).body,
    ).toMatchObject({ metadata: { generation: 2 }, status: { disruptionsAllowed: 1 } });
    expect((await evict('shop', 'web-2')).status).toBe(201);
  });

  it('refuses a pod under two budgets with 409 and the eviction subresource message', async () => {
    expect(
      (await put('shop', 'db-a', { spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'db' } } } })).status,
    ).toBe(201);
    expect(
      (
        await put('shop', 'db-b', {
          spec: { maxUnavailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] } },
        })
      ).status,
    ).toBe(201);
    const r = await evict('shop', 'db-1');
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      detail: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      budgets: ['db-a', 'db-b'],
    });
    expect((await app.request('DELETE', '/v1/namespaces/shop/poddisruptionbudgets/db-b')).status).toBe(204);
    // A budget with an empty selector counts every pod of the namespace in its status, but the eviction
    // subresource ignores it ("should match nothing, not everything").
    const everything = await put('shop', 'everything', { spec: { minAvailable: 100, selector: {} } });
    expect(everything.body.status).toMatchObject({ desiredHealthy: 100, disruptionsAllowed: 0 });
    expect(everything.body.status.expectedPods).toBeGreaterThan(0);
    expect((await evict('shop', 'db-1')).status).toBe(201);
    expect((await app.request('DELETE', '/v1/namespaces/shop/poddisruptionbudgets/everything')).status).toBe(204);
  });

  it('answers 404 for a missing pod and 400 for a mismatched name', async () => {
    expect((await evict('shop', 'nope')).status).toBe(404);
    const mismatch = await evict('shop', 'db-2', '', { metadata: { name: 'other' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.detail).toBe('name in URL does not match name in Eviction object');
  });

  it('lists budgets over REST and GraphQL, and writes them over GraphQL with the same validation', async () => {
    const list = await app.request('GET', '/v1/poddisruptionbudgets');
    expect(list.body.items.map((b: any) => `${b.metadata.namespace}/${b.metadata.name}`)).toEqual([
      'shop/db-a',
      'shop/web',
    ]);
    const put = await app.graphql(
      `mutation { putDisruptionBudget(namespace: "shop", name: "gql", budget: { maxUnavailable: "25%", selector: { matchLabels: [{ key: "app", value: "db" }] } }) { name maxUnavailable status { expectedPods desiredHealthy disruptionsAllowed } } }`,
    );
    expect(put.body.errors).toBeUndefined();
    expect(put.body.data.putDisruptionBudget).toEqual({
      name: 'gql',
      maxUnavailable: '25%',
      // db-1 was evicted (owned: still expected); db-2 Running.
      status: { expectedPods: 2, desiredHealthy: 1, disruptionsAllowed: 0 },
    });
    const bad = await app.graphql(
      `mutation { putDisruptionBudget(namespace: "shop", name: "gql2", budget: { minAvailable: "x%" }) { name } }`,
    );
    expect(bad.body.errors![0].extensions.code).toBe('UNPROCESSABLE_ENTITY');
    expect(bad.body.errors![0].message).toContain('spec.minAvailable: Invalid value: "x%"');
    const listed = await app.graphql(
      `{ disruptionBudgets(namespace: "shop") { edges { node { name minAvailable maxUnavailable status { disruptionsAllowed } } } } }`,
    );
    expect(listed.body.data.disruptionBudgets.edges.map((e: any) => e.node.name)).toEqual(['db-a', 'gql', 'web']);
  });
});

// Issue 13: budgets come in with the inventory — `kubectl get pdb -A -o json`, and Lists mixing kinds.
describe.each(testModes())('importing disruption budgets (%s)', (mode) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(mode);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('imports budgets from a List mixing kinds, validates them, and counts them', async () => {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'web-1',
            namespace: 'shop',
            labels: { app: 'web' },
            ownerReferences: [{ kind: 'ReplicaSet', name: 'web-rs', controller: true }],
          },
          spec: { nodeName: 'n1', containers: [{ name: 'c' }] },
          status: { phase: 'Running' },
        },
        {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name: 'web', namespace: 'shop', uid: 'pdb-uid-1' },
          spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'web' } } },
        },
        {
          apiVersion: 'policy/v1',
          kind: 'PodDisruptionBudget',
          metadata: { name: 'bad', namespace: 'shop' },
          spec: { minAvailable: 1, maxUnavailable: 1 },
        },
      ],
    };
    const r = await app.request('POST', '/v1/import', JSON.stringify(list), { 'content-type': 'application/json' });
    expect(r.status).toBe(200);
    expect(r.body.budgets).toEqual({ created: 1, updated: 0 });
    expect(r.body.summary.budgets).toBe(2);
    expect(r.body.errors).toEqual([
      expect.objectContaining({
        kind: 'PodDisruptionBudget',
        name: 'shop/bad',
        message: expect.stringContaining('minAvailable and maxUnavailable cannot be both set'),
      }),
    ]);
    const budget = await app.request('GET', '/v1/namespaces/shop/poddisruptionbudgets/web');
    expect(budget.body).toMatchObject({
      metadata: { uid: 'pdb-uid-1' },
      spec: { maxUnavailable: '50%' },
      status: { expectedPods: 1, currentHealthy: 1, desiredHealthy: 0, disruptionsAllowed: 1 },
    });
    // A second import of the same budget replaces it.
    const again = await app.request(
      'POST',
      '/v1/import',
      JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [list.items[2]] }),
      {
        'content-type': 'application/json',
      },
    );
    expect(again.body.budgets).toEqual({ created: 0, updated: 1 });
  });
});
