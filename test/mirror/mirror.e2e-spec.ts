import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually, startTestApp, testModes, type TestApp } from '../support/test-app';
import { testKeys, type TestKeys } from '../support/api-keys';
import { ClusterFront } from './cluster-front';

/**
 * Issue 14, end to end: the "cluster" is a second taintwise serving the Kubernetes API (loaded with a real dump,
 * test/fixtures/real-clusters/honeycomb-*), reached through a TLS front with a bearer token from a kubeconfig;
 * the "mirror" is a taintwise with SYNC_KUBECONFIG pointing at it (SYNC_CONTEXT picks the context). What the
 * cluster cannot produce on demand (410 as an event, bookmarks, a slow list, a cut mid-stream) is in
 * scripted-server.e2e-spec.ts.
 */
const FIXTURES = join(__dirname, '..', 'fixtures', 'real-clusters');
const NODES = readFileSync(join(FIXTURES, 'honeycomb-eks-nodelist.json'), 'utf8');
const PODS = readFileSync(join(FIXTURES, 'honeycomb-podlist.json'), 'utf8');
/** "reflected within 2 s" (the bound) */
const WITHIN = 2000;

describe.each(testModes())('mirror of a live cluster (%s)', (mode) => {
  let keys: TestKeys;
  let cluster: TestApp;
  /** the first cluster process: its storage is released last (a restart shares it) */
  let original: TestApp | undefined;
  let front: ClusterFront;
  let mirror: TestApp;
  let kubeconfig: string;
  const asOperator = () => keys.headers.operator;
  const asAdmin = () => keys.headers.admin;

  const clusterNodes = async () =>
    ((await cluster.request('GET', '/v1/nodes?limit=500', undefined, asAdmin())).body.items as Array<{ name: string }>)
      .map((n) => n.name)
      .sort();
  const mirrorNodes = async () =>
    ((await mirror.request('GET', '/v1/nodes?limit=500')).body.items as Array<{ name: string }>)
      .map((n) => n.name)
      .sort();
  const mirrorPods = async () =>
    ((await mirror.request('GET', '/v1/pods?limit=500')).body.items as Array<{ namespace: string; name: string }>)
      .map((p) => `${p.namespace}/${p.name}`)
      .sort();

  beforeAll(async () => {
    keys = testKeys();
    cluster = await startTestApp(mode, { env: { API_KEYS: keys.env } });
    for (const body of [NODES, PODS]) {
      const imported = await cluster.request('POST', '/v1/import', body, {
        ...asAdmin(),
        'content-type': 'application/json',
      });
      expect(imported.status).toBe(200);
    }
    front = await ClusterFront.start(cluster.url);
    kubeconfig = front.writeKubeconfig(keys.bearer.operator.slice('Bearer '.length), 'the-cluster');
    mirror = await startTestApp(mode, {
      env: {
        SYNC_KUBECONFIG: kubeconfig,
        SYNC_CONTEXT: 'the-cluster',
        SYNC_BACKOFF_INITIAL_MS: '50',
        SYNC_BACKOFF_MAX_MS: '500',
        SYNC_LIST_CHUNK: '4',
      },
    });
  });

  afterAll(async () => {
    await mirror?.close();
    await cluster?.close();
    if (original && original !== cluster) await original.close().catch(() => undefined);
    await front?.close();
  });

  it('stores the initial list (in chunks) and says so on /readyz, then watches', async () => {
    const ready = await eventually(async () => {
      const r = await mirror.request('GET', '/readyz');
      expect(r.status).toBe(200);
      return r;
    }, 20_000);
    expect(ready.body.checks.sync).toMatchObject({ ok: true, state: 'watching', server: front.url });
    expect(await mirrorNodes()).toEqual(await clusterNodes());
    expect(await mirrorPods()).toHaveLength(11);
    const metrics = (await mirror.request('GET', '/metrics')).text;
    expect(metrics).toMatch(/taintwise_sync_state\{state="watching"\} 1/);
    const started = await mirror.request('GET', '/v1/events/history?types=SyncStarted');
    expect(started.body.items).toHaveLength(1);
    expect(started.body.items[0].data.listed).toMatchObject({ nodes: { listed: 2 }, pods: { listed: 11 } });
  });

  it('reflects a taint, a new node and a deleted pod within 2 s', async () => {
    const [node] = await clusterNodes();
    const tainted = await cluster.request(
      'POST',
      '/v1/taints',
      { nodes: [node], taints: ['mirror-test=yes:NoSchedule'] },
      asOperator(),
    );
    expect(tainted.status).toBe(200);
    const created = await cluster.request('PUT', '/v1/nodes/fresh-node', { labels: { a: 'b' } }, asAdmin());
    expect(created.status).toBe(201);
    const [victim] = await mirrorPods();
    const [ns, name] = victim.split('/');
    expect((await cluster.request('DELETE', `/v1/namespaces/${ns}/pods/${name}`, undefined, asOperator())).status).toBe(
      204,
    );
    await eventually(async () => {
      const n = await mirror.request('GET', `/v1/nodes/${node}`);
      expect(n.body.taints.map((t: { key: string }) => t.key)).toContain('mirror-test');
      expect((await mirror.request('GET', '/v1/nodes/fresh-node')).status).toBe(200);
      expect((await mirror.request('GET', `/v1/namespaces/${ns}/pods/${name}`)).status).toBe(404);
    }, WITHIN);
    // the snapshot follows too: decisions see the new taint
    const impact = await mirror.request('POST', '/v1/decisions/feasible-nodes', { pod: {} });
    expect(impact.status).toBe(200);
    expect(JSON.stringify(impact.body)).toContain('mirror-test');
  });

  it('refuses direct writes to mirrored objects with 409 on REST, GraphQL and the Kubernetes API; dry runs and local objects stay allowed', async () => {
    const [node] = await mirrorNodes();
    const rest = await mirror.request('POST', '/v1/taints', { nodes: [node], taints: ['x=y:NoSchedule'] });
    expect(rest.status).toBe(409);
    expect(rest.headers.get('content-type')).toContain('application/problem+json');
    expect(rest.body.detail).toContain('belongs to the mirrored cluster');
    expect((await mirror.request('DELETE', `/v1/nodes/${node}`)).status).toBe(409);
    const [pod] = await mirrorPods();
    const [ns, name] = pod.split('/');
    expect((await mirror.request('DELETE', `/v1/namespaces/${ns}/pods/${name}`)).status).toBe(409);
    const gql = await mirror.graphql(`mutation($n: String!) { cordonNode(name: $n) { changed } }`, { n: node });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const kube = await mirror.request('DELETE', `/api/v1/nodes/${node}`);
    expect(kube.status).toBe(409);
    expect(kube.body).toMatchObject({ kind: 'Status', status: 'Failure', code: 409 });
    // nothing half-applied: the node is as the cluster has it
    expect(
      (await mirror.request('GET', `/v1/nodes/${node}`)).body.taints.map((t: { key: string }) => t.key),
    ).not.toContain('x');
    // dry runs and decisions still work
    const dry = await mirror.request('POST', '/v1/taints', { nodes: [node], taints: ['x=y:NoExecute'], dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.dryRun).toBe(true);
    // what-if: a node created here is this service's, writable
    expect((await mirror.request('PUT', '/v1/nodes/what-if-1', { labels: {} })).status).toBe(201);
    expect(
      (await mirror.request('POST', '/v1/taints', { nodes: ['what-if-1'], taints: ['x=y:NoSchedule'] })).status,
    ).toBe(200);
  });

  it("refuses direct writes to the cluster's PodDisruptionBudgets with the same 409 on REST, GraphQL and the Kubernetes API; dry runs and local budgets stay allowed", async () => {
    const spec = { minAvailable: 1, selector: { matchLabels: { app: 'mirror-budget' } } };
    const path = '/v1/namespaces/default/poddisruptionbudgets/from-cluster';
    expect((await cluster.request('PUT', path, { spec }, asOperator())).status).toBe(201);
    await eventually(async () => expect((await mirror.request('GET', path)).status).toBe(200), WITHIN);
    const kubePath = '/apis/policy/v1/namespaces/default/poddisruptionbudgets/from-cluster';
    const kubeBody = {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'from-cluster', namespace: 'default' },
      spec: { ...spec, minAvailable: 2 },
    };

    // the same problem as for a mirrored node or pod
    const put = await mirror.request('PUT', path, { spec: { ...spec, minAvailable: 2 } });
    expect(put.status).toBe(409);
    expect(put.headers.get('content-type')).toContain('application/problem+json');
    expect(put.body.detail).toContain('poddisruptionbudgets "default/from-cluster" belongs to the mirrored cluster');
    expect(put.body.mirrored).toEqual({ nodes: [], pods: [], budgets: ['default/from-cluster'] });
    expect((await mirror.request('DELETE', path)).status).toBe(409);
    const gqlPut = await mirror.graphql(
      `mutation { putDisruptionBudget(namespace: "default", name: "from-cluster", budget: { minAvailable: "2" }) { name } }`,
    );
    expect(gqlPut.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const gqlDelete = await mirror.graphql(
      `mutation { deleteDisruptionBudget(namespace: "default", name: "from-cluster") }`,
    );
    expect(gqlDelete.body.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    const kubePut = await mirror.request('PUT', kubePath, kubeBody);
    expect(kubePut.status).toBe(409);
    expect(kubePut.body).toMatchObject({ kind: 'Status', status: 'Failure', code: 409 });
    const kubePatch = await mirror.request(
      'PATCH',
      kubePath,
      { spec: { minAvailable: 3 } },
      { 'content-type': 'application/merge-patch+json' },
    );
    expect(kubePatch.status).toBe(409);
    expect(kubePatch.body).toMatchObject({ kind: 'Status', status: 'Failure', code: 409 });
    expect((await mirror.request('DELETE', kubePath)).status).toBe(409);
    // nothing half-applied: the budget is as the cluster has it
    expect((await mirror.request('GET', path)).body.spec.minAvailable).toBe(1);

    // dry runs still answer
    const dryPut = await mirror.request('PUT', `${kubePath}?dryRun=All`, kubeBody);
    expect(dryPut.status).toBe(200);
    expect(dryPut.body.spec.minAvailable).toBe(2);
    expect((await mirror.request('DELETE', `${kubePath}?dryRun=All`)).status).toBe(200);
    expect((await mirror.request('GET', path)).body.spec.minAvailable).toBe(1);

    // a budget created here is this service's: writable and deletable
    const local = '/v1/namespaces/default/poddisruptionbudgets/what-if-budget';
    expect((await mirror.request('PUT', local, { spec })).status).toBe(201);
    expect((await mirror.request('PUT', local, { spec: { ...spec, minAvailable: 2 } })).status).toBe(200);
    expect((await mirror.request('DELETE', local)).status).toBe(204);
  });

  it("forecasts a NoExecute eviction with the cluster's evictAt and turns it Executed when the cluster evicts", async () => {
    const [node] = (await clusterNodes()).filter((n) => n !== 'fresh-node');
    const put = await cluster.request(
      'PUT',
      '/v1/namespaces/forecast/pods/short-lived',
      {
        tolerations: [
          { operator: 'Exists', effect: 'NoSchedule' },
          { key: 'drain', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 3 },
        ],
      },
      asOperator(),
    );
    expect(put.status).toBe(201);
    const bound = await cluster.request(
      'POST',
      '/v1/namespaces/forecast/pods/short-lived/binding',
      { nodeName: node, force: true },
      asOperator(),
    );
    expect(bound.status).toBe(200);
    await eventually(async () => {
      expect((await mirror.request('GET', '/v1/namespaces/forecast/pods/short-lived')).body.nodeName).toBe(node);
    }, WITHIN);
    const taint = await cluster.request(
      'POST',
      '/v1/taints',
      { nodes: [node], taints: ['drain=now:NoExecute'] },
      asOperator(),
    );
    expect(taint.status).toBe(200);
    const clusterRow = (
      await cluster.request('GET', '/v1/evictions?status=Scheduled&namespace=forecast', undefined, asAdmin())
    ).body.items[0];
    expect(clusterRow).toBeDefined();
    const forecast = await eventually(async () => {
      const items = (await mirror.request('GET', '/v1/evictions?status=Scheduled&namespace=forecast')).body.items;
      expect(items).toHaveLength(1);
      return items[0];
    }, WITHIN);
    expect(forecast).toMatchObject({ forecast: true, overdue: false, pod: { name: 'short-lived' } });
    // the same rule from the same inputs; the Kubernetes API carries times in whole seconds (metav1.Time)
    expect(Math.abs(Date.parse(forecast.evictAt) - Date.parse(clusterRow.evictAt))).toBeLessThan(1000);
    // the mirror never evicts a mirrored pod itself: the cluster does, and the row turns Executed
    const executed = await eventually(async () => {
      const items = (await mirror.request('GET', '/v1/evictions?status=Executed&namespace=forecast')).body.items;
      expect(items).toHaveLength(1);
      return items[0];
    }, 10_000);
    expect(executed.forecast).toBe(true);
    expect(typeof executed.forecastErrorMs).toBe('number');
    expect(Math.abs(executed.forecastErrorMs)).toBeLessThan(5000);
    expect((await mirror.request('GET', '/metrics')).text).toMatch(/taintwise_sync_forecast_error_seconds_count 1/);
    const gql = await mirror.graphql(
      `{ evictions(namespace: "forecast", status: Executed) { edges { node { forecast forecastErrorMs overdue status } } } }`,
    );
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.evictions.edges[0].node).toEqual({
      forecast: true,
      forecastErrorMs: executed.forecastErrorMs,
      overdue: null,
      status: 'Executed',
    });
  });

  it('writes taints, cordon and uncordon through to the cluster (SYNC_WRITE) and answers once the watch brought them back', async () => {
    const through = await startTestApp(mode, {
      env: { SYNC_KUBECONFIG: kubeconfig, SYNC_CONTEXT: 'the-cluster', SYNC_WRITE: 'true' },
    });
    try {
      await eventually(async () => expect((await through.request('GET', '/readyz')).status).toBe(200), 20_000);
      const [node] = (await clusterNodes()).filter((n) => n !== 'fresh-node');
      const tainted = await through.request('POST', '/v1/taints', {
        nodes: [node],
        taints: ['written=through:NoSchedule'],
      });
      expect(tainted.status).toBe(200);
      expect(tainted.body).toMatchObject({ writeThrough: true, dryRun: false });
      expect(tainted.body.evictions).toEqual({ immediate: 0, scheduled: 0, cancelled: 0, retimed: 0, held: 0 });
      // landed on the cluster, and already back in the mirror's inventory when the answer came
      const onCluster = await cluster.request('GET', `/v1/nodes/${node}`, undefined, asAdmin());
      expect(onCluster.body.taints).toContainEqual(expect.objectContaining({ key: 'written', value: 'through' }));
      const here = await through.request('GET', `/v1/nodes/${node}`);
      expect(here.body.taints).toContainEqual(expect.objectContaining({ key: 'written', value: 'through' }));
      // kubectl's refusals come from the same decision, before anything is sent
      const again = await through.request('POST', '/v1/taints', {
        nodes: [node],
        taints: ['written=other:NoSchedule'],
      });
      expect(again.status).toBe(409);
      const audit = await through.request('GET', `/v1/events/history?types=TaintsApplied&subjectName=${node}`);
      expect(audit.body.items.at(-1).data).toMatchObject({ writeThrough: true, operation: 'tainted' });
      // cordon and uncordon
      const cordoned = await through.request('POST', `/v1/nodes/${node}/cordon`);
      expect(cordoned.status).toBe(200);
      expect(cordoned.body.changed).toBe(true);
      expect((await cluster.request('GET', `/v1/nodes/${node}`, undefined, asAdmin())).body.unschedulable).toBe(true);
      expect((await through.request('GET', `/v1/nodes/${node}`)).body.unschedulable).toBe(true);
      expect((await through.request('POST', `/v1/nodes/${node}/uncordon`)).status).toBe(200);
      expect((await cluster.request('GET', `/v1/nodes/${node}`, undefined, asAdmin())).body.unschedulable).toBe(false);
      const removed = await through.request('POST', '/v1/taints', { nodes: [node], taints: ['written-'] });
      expect(removed.status).toBe(200);
      // other writes to mirrored objects stay 409 with write-through on
      expect((await through.request('DELETE', `/v1/nodes/${node}`)).status).toBe(409);
    } finally {
      await through.close();
    }
    // the kubeconfig's credentials are what the cluster judges: a viewer may list and watch, not patch (RBAC's 403)
    const readOnly = await startTestApp(mode, {
      env: {
        SYNC_KUBECONFIG: front.writeKubeconfig(keys.bearer.viewer.slice('Bearer '.length), 'viewer'),
        SYNC_CONTEXT: 'viewer',
        SYNC_WRITE: 'true',
      },
    });
    try {
      await eventually(async () => expect((await readOnly.request('GET', '/readyz')).status).toBe(200), 20_000);
      const [node] = (await clusterNodes()).filter((n) => n !== 'fresh-node');
      const refused = await readOnly.request('POST', '/v1/taints', { nodes: [node], taints: ['nope=x:NoSchedule'] });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toContain('the cluster refused the write-through');
      const onCluster = await cluster.request('GET', `/v1/nodes/${node}`, undefined, asAdmin());
      expect(onCluster.body.taints.map((t: { key: string }) => t.key)).not.toContain('nope');
    } finally {
      await readOnly.close();
    }
  });

  it('answers from its inventory while the cluster is down, and catches up (relisting after 410 Gone) when it is back on the same address', async () => {
    const before = await mirrorNodes();
    original = cluster;
    await cluster.app.close(); // the process stops; its storage stays for the restart
    const lost = await eventually(async () => {
      const r = await mirror.request('GET', '/readyz');
      expect(r.body.checks.sync.state).toBe('reconnecting');
      return r;
    }, 10_000);
    expect(lost.status).toBe(200);
    expect(await mirrorNodes()).toEqual(before);
    // the cluster comes back on its storage (a new process: its resourceVersions start a new epoch) and, before the
    // mirror reaches it, a node goes and another comes
    const restarted = await startTestApp(mode, { shareWith: cluster });
    cluster = restarted;
    expect((await cluster.request('DELETE', '/v1/nodes/fresh-node', undefined, asAdmin())).status).toBe(204);
    expect((await cluster.request('PUT', '/v1/nodes/after-restart', {}, asAdmin())).status).toBe(201);
    front.retarget(cluster.url);
    await eventually(async () => {
      const nodes = await mirrorNodes();
      expect(nodes).toContain('after-restart');
      expect(nodes).not.toContain('fresh-node');
      // the local what-if node is not the cluster's: a relist leaves it
      expect(nodes).toContain('what-if-1');
      // every resource (nodes, pods, budgets) caught up: watching again
      const r = await mirror.request('GET', '/readyz');
      expect(r.body.checks.sync.state).toBe('watching');
    }, 15_000);
    // SyncResumed is recorded in its own transaction right after the state turns `watching`: wait for its commit
    await eventually(async () => {
      const history = (await mirror.request('GET', '/v1/events/history?types=SyncLost,SyncResumed')).body.items;
      expect(history.map((e: { type: string }) => e.type)).toEqual(['SyncLost', 'SyncResumed']);
    }, 5_000);
    const metrics = (await mirror.request('GET', '/metrics')).text;
    expect(metrics).toMatch(/taintwise_sync_relists_total\{resource="nodes",reason="gone"\} [1-9]/);
    expect(metrics).toMatch(/taintwise_sync_reconnects_total\{resource="nodes"\} [1-9]/);
  });
});
