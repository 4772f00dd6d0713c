import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { testKeys, type TestKeys } from '../support/api-keys';
import { kubectlFor, type Kubectl, tableRows } from './kubectl';

describe.each(testModes())('kubectl get nodes (%s)', (mode) => {
  let app: TestApp;
  let keys: TestKeys;
  let kubectl: Kubectl;
  let closeKubectl: () => Promise<void>;

  beforeAll(async () => {
    keys = testKeys();
    app = await startTestApp(mode, { env: { API_KEYS: keys.env, RATE_LIMIT_PER_MINUTE: '0' } });
    ({ kubectl, close: closeKubectl } = await kubectlFor(app, keys.bearer.operator));
    const nodes = [
      {
        name: 'cp-1',
        labels: { 'node-role.kubernetes.io/control-plane': '', zone: 'a' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
      { name: 'w-1', labels: { zone: 'a' }, conditions: [{ type: 'Ready', status: 'True' }] },
      {
        name: 'w-2',
        labels: { zone: 'b' },
        conditions: [{ type: 'Ready', status: 'False' }],
        unschedulable: true,
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      },
      { name: 'w-3', labels: { zone: 'b' } },
    ];
    for (const { name, ...body } of nodes) {
      const r = await app.request('PUT', `/v1/nodes/${name}`, body, keys.headers.admin);
      expect(r.status).toBe(201);
    }
  });
  afterAll(async () => {
    await closeKubectl();
    await app.close();
  });

  it('prints the server-side table: NAME, STATUS, ROLES, AGE, VERSION', async () => {
    const r = await kubectl.run(['get', 'nodes']);
    expect(r.stderr).toBe('');
    const rows = tableRows(r.stdout);
    expect(rows[0]).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
    expect(rows.slice(1).map((row) => row.slice(0, 3))).toEqual([
      ['cp-1', 'Ready', 'control-plane'],
      ['w-1', 'Ready', '<none>'],
      ['w-2', 'NotReady,SchedulingDisabled', '<none>'],
      ['w-3', 'Unknown', '<none>'],
    ]);
    expect(rows[1][3]).toMatch(/^\d+s$/);
  });

  it('-o wide adds the priority-1 columns', async () => {
    const r = await kubectl.run(['get', 'nodes', '-o', 'wide']);
    expect(tableRows(r.stdout)[0]).toEqual([
      'NAME',
      'STATUS',
      'ROLES',
      'AGE',
      'VERSION',
      'INTERNAL-IP',
      'EXTERNAL-IP',
      'OS-IMAGE',
      'KERNEL-VERSION',
      'CONTAINER-RUNTIME',
    ]);
  });

  it('-o json is a v1 List of core/v1 Nodes with taints and unschedulable in spec', async () => {
    const r = await kubectl.run(['get', 'nodes', '-o', 'json']);
    const list = JSON.parse(r.stdout);
    expect(list.kind).toBe('List');
    const w2 = list.items.find((n: any) => n.metadata.name === 'w-2');
    expect(w2).toMatchObject({
      kind: 'Node',
      apiVersion: 'v1',
      metadata: { labels: { zone: 'b' } },
      spec: { unschedulable: true },
    });
    expect(w2.spec.taints).toEqual([
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule', timeAdded: expect.any(String) },
    ]);
  });

  it('-o jsonpath, -l and --field-selector', async () => {
    const byLabel = await kubectl.run(['get', 'nodes', '-l', 'zone=b', '-o', 'jsonpath={.items[*].metadata.name}']);
    expect(byLabel.stdout).toBe('w-2 w-3');
    const byField = await kubectl.run(['get', 'nodes', '--field-selector', 'spec.unschedulable=true', '-o', 'name']);
    expect(byField.stdout.trim()).toBe('node/w-2');
    const byName = await kubectl.run(['get', 'nodes', '--field-selector', 'metadata.name!=w-1', '-o', 'name']);
    expect(byName.stdout.trim().split('\n')).toEqual(['node/cp-1', 'node/w-2', 'node/w-3']);
    const bad = await kubectl.run(['get', 'nodes', '--field-selector', 'spec.podCIDR=x']);
    // kubectl puts its own prefix before the server's message
    expect(bad.stderr.trim()).toBe(
      'Error from server (BadRequest): Unable to find "/v1, Resource=nodes" that match label selector "", ' +
        'field selector "spec.podCIDR=x": field label not supported: spec.podCIDR',
    );
  });

  it('--chunk-size pages with limit/continue and still lists every node', async () => {
    const r = await kubectl.run(['get', 'nodes', '--chunk-size=1', '-o', 'name', '-v=6']);
    expect(r.stdout.trim().split('\n')).toEqual(['node/cp-1', 'node/w-1', 'node/w-2', 'node/w-3']);
    expect((r.stderr.match(/GET .*\/api\/v1\/nodes\?.*limit=1/g) ?? []).length).toBeGreaterThanOrEqual(4);
  });

  it('a missing node is NotFound in kubectl words', async () => {
    const r = await kubectl.run(['get', 'node', 'nope']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe('Error from server (NotFound): nodes "nope" not found');
  });

  it('a wrong token is Unauthorized', async () => {
    const r = await kubectl.run(['get', 'nodes'], { token: 'not-a-key' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Unauthorized|must be logged in/);
  });
});
