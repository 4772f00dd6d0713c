import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { testKeys, type TestKeys } from '../support/api-keys';
import { kubectlFor, type Kubectl, tableRows } from './kubectl';

const pdbYaml = (name: string, spec: string) => `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: ${name}
  namespace: shop
spec:
${spec}`;

// Issues 12 and 13 through the real kubectl: policy/v1 PodDisruptionBudgets (create -f with default
// validation, get with the usual columns, replace, delete), the pods/eviction subresource, and
// `kubectl drain --ignore-daemonsets --delete-emptydir-data` blocked by a budget, then allowed.
describe.each(testModes())('kubectl, disruption budgets and drain (%s)', (mode) => {
  let app: TestApp;
  let keys: TestKeys;
  let kubectl: Kubectl;
  let close: () => Promise<void>;
  const pod = (name: string, owner: { kind: string; name: string }, labels: Record<string, string>) =>
    app.request(
      'PUT',
      `/v1/namespaces/shop/pods/${name}`,
      { nodeName: 'd1', phase: 'Running', owner, labels },
      keys.headers.admin,
    );

  beforeAll(async () => {
    keys = testKeys();
    app = await startTestApp(mode, { env: { API_KEYS: keys.env, RATE_LIMIT_PER_MINUTE: '0' } });
    const node = { conditions: [{ type: 'Ready', status: 'True' }], allocatable: { cpu: '4', pods: '110' } };
    for (const name of ['d1', 'd2'])
      expect((await app.request('PUT', `/v1/nodes/${name}`, node, keys.headers.admin)).status).toBe(201);
    for (const name of ['web-a', 'web-b'])
      expect((await pod(name, { kind: 'ReplicaSet', name: 'web-rs' }, { app: 'web' })).status).toBe(201);
    expect((await pod('agent-d1', { kind: 'DaemonSet', name: 'agent' }, { app: 'agent' })).status).toBe(201);
    ({ kubectl, close } = await kubectlFor(app, keys.bearer.operator));
  });
  afterAll(async () => {
    await close();
    await app.close();
  });

  it('create -f a PodDisruptionBudget with default validation; get pdb prints its columns', async () => {
    const created = await kubectl.run(['create', '-f', '-'], {
      stdin: pdbYaml('web', '  minAvailable: 2\n  selector:\n    matchLabels: { app: web }\n'),
    });
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe('poddisruptionbudget.policy/web created');
    const rows = tableRows((await kubectl.run(['get', 'pdb', '-n', 'shop'])).stdout);
    expect(rows[0]).toEqual(['NAME', 'MIN AVAILABLE', 'MAX UNAVAILABLE', 'ALLOWED DISRUPTIONS', 'AGE']);
    expect(rows[1].slice(0, 4)).toEqual(['web', '2', 'N/A', '0']);
    const json = JSON.parse((await kubectl.run(['get', 'pdb', 'web', '-n', 'shop', '-o', 'json'])).stdout);
    expect(json.status).toMatchObject({ expectedPods: 2, currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 0 });
    const all = tableRows((await kubectl.run(['get', 'pdb', '-A', '--no-headers'])).stdout);
    expect(all.map((r) => r.slice(0, 2))).toEqual([['shop', 'web']]);
  });

  it('an invalid budget is refused in Kubernetes words', async () => {
    const r = await kubectl.run(['create', '-f', '-'], {
      stdin: pdbYaml('bad', '  minAvailable: 1\n  maxUnavailable: 1\n'),
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The PodDisruptionBudget "bad" is invalid: spec: Invalid value:');
    expect(r.stderr).toContain('minAvailable and maxUnavailable cannot be both set');
  });

  it('drain is blocked by the budget (429 from the eviction subresource), and nothing is evicted', async () => {
    const r = await kubectl.run(['drain', 'd1', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=4s']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(r.stdout + r.stderr).toContain('Warning: ignoring DaemonSet-managed Pods: shop/agent-d1');
    const pods = await app.request('GET', '/v1/namespaces/shop/pods', undefined, keys.headers.viewer);
    expect(pods.body.items.filter((p: any) => p.phase === 'Evicted')).toEqual([]);
    // drain cordoned the node before it tried to evict
    const node = await app.request('GET', '/v1/nodes/d1', undefined, keys.headers.viewer);
    expect(node.body.unschedulable).toBe(true);
  });

  it('after kubectl replace relaxes the budget, drain evicts through the budget and completes', async () => {
    const replaced = await kubectl.run(['replace', '-f', '-'], {
      stdin: pdbYaml('web', '  minAvailable: 0\n  selector:\n    matchLabels: { app: web }\n'),
    });
    expect(replaced.stderr).toBe('');
    expect(replaced.stdout.trim()).toBe('poddisruptionbudget.policy/web replaced');
    const r = await kubectl.run(['drain', 'd1', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=30s']);
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pod/web-a evicted');
    expect(r.stdout).toContain('pod/web-b evicted');
    expect(r.stdout).toContain('node/d1 drained');
    // Evicted pods are gone from the Kubernetes API, as a cluster deletes them; REST keeps the record.
    const gone = await kubectl.run(['get', 'pod', 'web-a', '-n', 'shop']);
    expect(gone.stderr.trim()).toBe('Error from server (NotFound): pods "web-a" not found');
    const rest = await app.request('GET', '/v1/namespaces/shop/pods/web-a', undefined, keys.headers.viewer);
    expect(rest.body).toMatchObject({ phase: 'Evicted', nodeName: null });
    const history = await app.request('GET', '/v1/evictions?namespace=shop', undefined, keys.headers.viewer);
    expect(history.body.items.map((e: any) => `${e.pod.name}:${e.reason}`).sort()).toEqual([
      'web-a:evicted through the Eviction API',
      'web-b:evicted through the Eviction API',
    ]);
    // the DaemonSet pod stays
    const agent = await kubectl.run(['get', 'pod', 'agent-d1', '-n', 'shop', '-o', 'jsonpath={.spec.nodeName}']);
    expect(agent.stdout).toBe('d1');
  });

  it('a pod evicted by taintwise can be created again with kubectl, and deleted; a viewer may not evict', async () => {
    const yaml = `apiVersion: v1
kind: Pod
metadata: { name: web-a, namespace: shop, labels: { app: web } }
spec:
  nodeName: d2
  containers: [{ name: app, image: nginx }]
`;
    const again = await kubectl.run(['create', '-f', '-'], { stdin: yaml });
    expect(again.stderr).toBe('');
    expect(again.stdout.trim()).toBe('pod/web-a created');
    const viewer = await app.request(
      'POST',
      '/api/v1/namespaces/shop/pods/web-a/eviction',
      { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-a', namespace: 'shop' } },
      keys.headers.viewer,
    );
    expect(viewer.status).toBe(403);
    expect(viewer.body).toMatchObject({ kind: 'Status', reason: 'Forbidden' });
    const deleted = await kubectl.run(['delete', 'pdb', 'web', '-n', 'shop']);
    expect(deleted.stdout.trim()).toBe('poddisruptionbudget.policy "web" deleted');
    expect((await kubectl.run(['get', 'pdb', '-n', 'shop'])).stderr.trim()).toBe(
      'No resources found in shop namespace.',
    );
  });
});
