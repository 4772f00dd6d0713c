import { startTestApp, testModes, type TestApp } from '../support/test-app';

// Issue 13: taint-impact answers where evicted pods would go (SEMANTICS B.9.5) and which disruption budgets
// the change breaks (B.9.4), over REST and GraphQL, in both storage modes.
describe.each(testModes())('taint-impact re-placement and budgets (%s)', (mode) => {
  let app: TestApp;
  const pod = (name: string, body: Record<string, unknown>) =>
    app.request('PUT', `/v1/namespaces/shop/pods/${name}`, { nodeName: 'a', phase: 'Running', ...body });

  beforeAll(async () => {
    app = await startTestApp(mode);
    const nodes: Record<string, unknown> = {
      a: { allocatable: { cpu: '4', pods: '10' } },
      b: { allocatable: { cpu: '1', pods: '10' } },
      c: { allocatable: { cpu: '8', pods: '10' }, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
    };
    for (const [name, body] of Object.entries(nodes))
      expect((await app.request('PUT', `/v1/nodes/${name}`, body)).status).toBe(201);
    const web = { labels: { app: 'web' }, owner: { kind: 'ReplicaSet', name: 'web-rs' } };
    const cpu = (amount: string) => ({ resources: { requests: { cpu: amount } } });
    expect((await pod('web-1', { ...web, ...cpu('500m') })).status).toBe(201);
    expect((await pod('web-2', { ...web, ...cpu('500m') })).status).toBe(201);
    expect(
      (await pod('big', { owner: { kind: 'ReplicaSet', name: 'big-rs' }, priority: 10, ...cpu('1500m') })).status,
    ).toBe(201);
    expect((await pod('agent', { owner: { kind: 'DaemonSet', name: 'agent' }, ...cpu('100m') })).status).toBe(201);
    expect(
      (
        await app.request('PUT', '/v1/namespaces/shop/poddisruptionbudgets/web', {
          spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
        })
      ).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
  });

  const body = { nodes: ['a'], taints: ['maintenance=true:NoExecute'], replacement: true };

  it('places evicted pods one after another on the nodes as they would be, and reports budgets', async () => {
    const r = await app.request('POST', '/v1/decisions/taint-impact', body);
    expect(r.status).toBe(200);
    const byName = Object.fromEntries(r.body.evictions.map((e: any) => [e.pod.name, e]));
    // big goes first (priority 10): b has 1 CPU, c a taint it does not tolerate, a the new NoExecute taint.
    expect(byName.big.placement).toBeNull();
    expect(byName.big.unplacedReason).toBe(
      '0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) had untolerated taint {maintenance: true}.',
    );
    // Then web-1 and web-2 (same priority and deadline: by name), both fitting b's 1 CPU exactly.
    expect(byName['web-1'].placement).toEqual({ node: 'b' });
    expect(byName['web-2'].placement).toEqual({ node: 'b' });
    expect(byName.agent.placement).toBeNull();
    expect(byName.agent.unplacedReason).toMatch(/^DaemonSet pods are not re-placed/);
    expect(r.body.stranded).toEqual([
      { namespace: 'shop', name: 'agent' },
      { namespace: 'shop', name: 'big' },
    ]);
    expect(r.body.workloads).toEqual([
      { namespace: 'shop', owner: { kind: 'DaemonSet', name: 'agent' }, evicted: 1, rePlaced: 0, stranded: 1 },
      { namespace: 'shop', owner: { kind: 'ReplicaSet', name: 'big-rs' }, evicted: 1, rePlaced: 0, stranded: 1 },
      { namespace: 'shop', owner: { kind: 'ReplicaSet', name: 'web-rs' }, evicted: 2, rePlaced: 2, stranded: 0 },
    ]);
    expect(r.body.budgets).toEqual([
      {
        namespace: 'shop',
        name: 'web',
        disruptionsAllowed: 0,
        desiredHealthy: 2,
        currentHealthy: 2,
        evictedNow: 2,
        evictedTotal: 2,
        violated: true,
      },
    ]);
  });

  it('reports budgets without re-placement unless asked, and a relaxed budget is not violated', async () => {
    const plain = await app.request('POST', '/v1/decisions/taint-impact', { ...body, replacement: undefined });
    expect(plain.body.evictions[0].placement).toBeUndefined();
    expect(plain.body.workloads).toBeUndefined();
    expect(plain.body.budgets[0].violated).toBe(true);
    await app.request('PUT', '/v1/namespaces/shop/poddisruptionbudgets/web', {
      spec: { maxUnavailable: '100%', selector: { matchLabels: { app: 'web' } } },
    });
    const relaxed = await app.request('POST', '/v1/decisions/taint-impact', body);
    expect(relaxed.body.budgets).toEqual([
      expect.objectContaining({ name: 'web', disruptionsAllowed: 2, violated: false }),
    ]);
    await app.request('PUT', '/v1/namespaces/shop/poddisruptionbudgets/web', {
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
    });
  });

  it('answers the same over GraphQL', async () => {
    const r = await app.graphql(
      `{ taintImpact(nodes: ["a"], taints: ["maintenance=true:NoExecute"], replacement: true) {
          evictions { pod { name } placement { node } unplacedReason }
          budgets { name disruptionsAllowed evictedTotal violated }
          workloads { owner { kind name } evicted rePlaced stranded }
          stranded { name } } }`,
    );
    expect(r.body.errors).toBeUndefined();
    const answer = r.body.data.taintImpact;
    expect(Object.fromEntries(answer.evictions.map((e: any) => [e.pod.name, e.placement?.node ?? null]))).toEqual({
      agent: null,
      big: null,
      'web-1': 'b',
      'web-2': 'b',
    });
    expect(answer.budgets).toEqual([{ name: 'web', disruptionsAllowed: 0, evictedTotal: 2, violated: true }]);
    expect(answer.stranded.map((p: any) => p.name)).toEqual(['agent', 'big']);
    expect(answer.workloads).toHaveLength(3);
  });
});
