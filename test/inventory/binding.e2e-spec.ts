import { startTestApp, testModes, type TestApp } from '../support/test-app';

// Issue 4 item 1: POST /v1/namespaces/{ns}/pods/{name}/binding — the scheduler's filters decide
// (409 with the structured reasons and the FitError message), `force` bypasses them as spec.nodeName
// does, and a NoExecute taint the pod does not tolerate still evicts it (SEMANTICS B.4.4, A.3).
describe.each(testModes())('pod binding (%s)', (mode) => {
  let app: TestApp;
  const bind = (name: string, body: unknown, ns = 'default') =>
    app.request('POST', `/v1/namespaces/${ns}/pods/${name}/binding`, body);
  const putPod = (name: string, body: unknown = {}) => app.request('PUT', `/v1/namespaces/default/pods/${name}`, body);

  beforeAll(async () => {
    app = await startTestApp(mode);
    const nodes: Record<string, unknown> = {
      free: { allocatable: { cpu: '2', memory: '4Gi', pods: '110' } },
      gpu: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
      cordoned: { unschedulable: true, taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
      noexec: { taints: [{ key: 'maintenance', value: 'true', effect: 'NoExecute' }] },
    };
    for (const [name, body] of Object.entries(nodes))
      expect((await app.request('PUT', `/v1/nodes/${name}`, body)).status).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('binds a pending pod to a feasible node: Running, boundAt now; a second binding is 409', async () => {
    expect((await putPod('web', { resources: { requests: { cpu: '500m' } } })).status).toBe(201);
    const before = Date.now();
    const r = await bind('web', { nodeName: 'free' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      namespace: 'default',
      name: 'web',
      nodeName: 'free',
      phase: 'Running',
      resourceVersion: '2',
    });
    expect(Date.parse(r.body.boundAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await app.request('GET', '/v1/namespaces/default/pods/web')).body).toMatchObject({
      nodeName: 'free',
      phase: 'Running',
    });
    const again = await bind('web', { nodeName: 'gpu' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('pod default/web is already bound to node free; evict or delete it first');
  });

  it('refuses an infeasible node with 409, the structured reasons and the FitError message', async () => {
    expect((await putPod('web2')).status).toBe(201);
    const r = await bind('web2', { nodeName: 'gpu' });
    expect(r.status).toBe(409);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({
      status: 409,
      title: 'Conflict',
      node: 'gpu',
      message: '0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}.',
      detail:
        'pod default/web2 cannot be bound to node gpu: 0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}.',
      reasons: [
        {
          plugin: 'TaintToleration',
          message: 'node(s) had untolerated taint {dedicated: gpu}',
          taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
        },
      ],
    });
    const cordoned = await bind('web2', { nodeName: 'cordoned' });
    expect(cordoned.status).toBe(409);
    expect(cordoned.body.message).toBe('0/1 nodes are available: 1 node(s) were unschedulable.');
    expect(cordoned.body.reasons.map((x: { plugin: string }) => x.plugin)).toEqual([
      'NodeUnschedulable',
      'TaintToleration',
    ]);
    expect((await app.request('GET', '/v1/namespaces/default/pods/web2')).body).toMatchObject({
      nodeName: null,
      phase: 'Pending',
      resourceVersion: '1',
    });
  });

  it('counts the requests of pods already bound (NodeResourcesFit)', async () => {
    expect((await putPod('big', { resources: { requests: { cpu: '1600m' } } })).status).toBe(201);
    const r = await bind('big', { nodeName: 'free' }); // 500m of 2 CPUs is taken by web
    expect(r.status).toBe(409);
    expect(r.body.reasons).toEqual([
      expect.objectContaining({ plugin: 'NodeResourcesFit', message: 'Insufficient cpu', resource: 'cpu' }),
    ]);
    expect(r.body.message).toBe('0/1 nodes are available: 1 Insufficient cpu.');
  });

  it('force bypasses the checks', async () => {
    const r = await bind('web2', { nodeName: 'gpu', force: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ nodeName: 'gpu', phase: 'Running' });
  });

  it('a forced binding onto an untolerated NoExecute taint evicts at once', async () => {
    expect((await putPod('doomed')).status).toBe(201);
    const checked = await bind('doomed', { nodeName: 'noexec' });
    expect(checked.status).toBe(409);
    expect(checked.body.reasons[0]).toMatchObject({
      plugin: 'TaintToleration',
      taint: { key: 'maintenance', value: 'true', effect: 'NoExecute' },
    });
    const forced = await bind('doomed', { nodeName: 'noexec', force: true });
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ nodeName: null, phase: 'Evicted', boundAt: null });
    expect((await app.request('GET', '/v1/namespaces/default/pods/doomed')).body).toMatchObject({
      nodeName: null,
      phase: 'Evicted',
    });
    const evictedAgain = await bind('doomed', { nodeName: 'free' });
    expect(evictedAgain.status).toBe(409);
    expect(evictedAgain.body.detail).toBe('pod default/doomed is Evicted: only a Pending pod can be bound');
  });

  it('a pod tolerating the NoExecute taint for a while stays bound', async () => {
    expect(
      (
        await putPod('patient', {
          tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 3600 }],
        })
      ).status,
    ).toBe(201);
    const r = await bind('patient', { nodeName: 'noexec' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ nodeName: 'noexec', phase: 'Running' });
  });

  it('404 for a missing pod or node, 400 for a malformed body', async () => {
    expect((await putPod('lonely')).status).toBe(201);
    expect((await bind('nope', { nodeName: 'free' })).status).toBe(404);
    const missingNode = await bind('lonely', { nodeName: 'ghost' });
    expect(missingNode.status).toBe(404);
    expect(missingNode.body.detail).toBe('nodes "ghost" not found');
    const bad = await bind('lonely', { node: 'free' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'nodeName', message: 'expected string' },
        { field: 'node', message: 'unknown field "node"' },
      ]),
    );
    expect((await bind('lonely', { nodeName: 'free', force: 'yes' })).status).toBe(400);
  });

  it('GraphQL bindPod: same rules, CONFLICT with extensions.reasons', async () => {
    const mutation =
      'mutation($name: String!, $node: String!, $force: Boolean) { bindPod(namespace: "default", name: $name, nodeName: $node, force: $force) { name nodeName phase node { name } } }';
    const refused = await app.graphql(mutation, { name: 'lonely', node: 'gpu' });
    expect(refused.body.data).toBeNull();
    expect(refused.body.errors![0].extensions).toMatchObject({
      code: 'CONFLICT',
      status: 409,
      message: '0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}.',
      reasons: [{ plugin: 'TaintToleration', taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' } }],
    });
    const bound = await app.graphql(mutation, { name: 'lonely', node: 'free' });
    expect(bound.body.data.bindPod).toEqual({
      name: 'lonely',
      nodeName: 'free',
      phase: 'Running',
      node: { name: 'free' },
    });
    const missing = await app.graphql(mutation, { name: 'lonely', node: 'ghost' });
    expect(missing.body.errors![0].extensions.code).toBe('CONFLICT'); // already bound: checked before the node
  });
});
