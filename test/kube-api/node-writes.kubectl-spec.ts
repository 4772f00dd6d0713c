import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { testKeys, type TestKeys } from '../support/api-keys';
import { kubectlFor, type Kubectl } from './kubectl';

describe.each(testModes())('kubectl taint, cordon and node writes (%s)', (mode) => {
  let app: TestApp;
  let keys: TestKeys;
  let kubectl: Kubectl;
  let viewer: Kubectl;
  const closers: Array<() => Promise<void>> = [];

  const taintsOf = async (name: string) =>
    (await app.request('GET', `/v1/nodes/${name}`, undefined, keys.headers.viewer)).body.taints.map(
      (t: any) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`,
    );

  beforeAll(async () => {
    keys = testKeys();
    app = await startTestApp(mode, { env: { API_KEYS: keys.env, RATE_LIMIT_PER_MINUTE: '0' } });
    for (const [name, zone] of [
      ['n1', 'a'],
      ['n2', 'a'],
      ['n3', 'b'],
    ]) {
      expect((await app.request('PUT', `/v1/nodes/${name}`, { labels: { zone } }, keys.headers.admin)).status).toBe(
        201,
      );
    }
    const op = await kubectlFor(app, keys.bearer.operator);
    const view = await kubectlFor(app, keys.bearer.viewer);
    kubectl = op.kubectl;
    viewer = view.kubectl;
    closers.push(op.close, view.close);
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await app.close();
  });

  it('taint: add, --overwrite, remove', async () => {
    expect((await kubectl.run(['taint', 'nodes', 'n1', 'dedicated=gpu:NoSchedule'])).stdout.trim()).toBe(
      'node/n1 tainted',
    );
    expect(await taintsOf('n1')).toEqual(['dedicated=gpu:NoSchedule']);
    const again = await kubectl.run(['taint', 'nodes', 'n1', 'dedicated=cpu:NoSchedule']);
    expect(again.stderr.trim()).toBe(
      'error: node n1 already has dedicated taint(s) with same effect(s) and --overwrite is false',
    );
    expect((await kubectl.run(['taint', 'nodes', 'n1', 'dedicated=cpu:NoSchedule', '--overwrite'])).code).toBe(0);
    expect(await taintsOf('n1')).toEqual(['dedicated=cpu:NoSchedule']);
    expect((await kubectl.run(['taint', 'nodes', 'n1', 'dedicated:NoSchedule-'])).stdout.trim()).toBe(
      'node/n1 untainted',
    );
    expect(await taintsOf('n1')).toEqual([]);
  });

  it('taint -l and --all, and --dry-run=server writes nothing', async () => {
    const dry = await kubectl.run([
      'taint',
      'nodes',
      '--all',
      'maint=yes:PreferNoSchedule',
      '--dry-run=server',
      '-v=6',
    ]);
    // kubectl 1.32's taint prints no "(server dry run)" suffix; the PATCH carries dryRun=All
    expect(dry.stdout.trim().split('\n')).toEqual(['node/n1 tainted', 'node/n2 tainted', 'node/n3 tainted']);
    expect(dry.stderr.match(/PATCH \S+\/api\/v1\/nodes\/n\d\?dryRun=All/g)).toHaveLength(3);
    expect(await taintsOf('n1')).toEqual([]);
    expect((await kubectl.run(['taint', 'nodes', '-l', 'zone=a', 'maint=yes:PreferNoSchedule'])).code).toBe(0);
    expect([await taintsOf('n1'), await taintsOf('n2'), await taintsOf('n3')]).toEqual([
      ['maint=yes:PreferNoSchedule'],
      ['maint=yes:PreferNoSchedule'],
      [],
    ]);
    // removing with --all fails on n3, which lacks the taint (kubectl's own check), so remove by label
    expect((await kubectl.run(['taint', 'nodes', '-l', 'zone=a', 'maint:PreferNoSchedule-'])).code).toBe(0);
  });

  it('cordon and uncordon set spec.unschedulable with the lifecycle taint, as POST /v1/nodes/{name}/cordon does', async () => {
    expect((await kubectl.run(['cordon', 'n3'])).stdout.trim()).toBe('node/n3 cordoned');
    const node = (await app.request('GET', '/v1/nodes/n3', undefined, keys.headers.viewer)).body;
    expect(node.unschedulable).toBe(true);
    expect(await taintsOf('n3')).toEqual(['node.kubernetes.io/unschedulable:NoSchedule']);
    const table = await kubectl.run(['get', 'node', 'n3', '--no-headers']);
    expect(table.stdout).toMatch(/^n3\s+Unknown,SchedulingDisabled/);
    expect((await kubectl.run(['uncordon', 'n3'])).stdout.trim()).toBe('node/n3 uncordoned');
    expect(await taintsOf('n3')).toEqual([]);
  });

  it('an invalid taint is Invalid with the field path, in kubectl words, and nothing changes', async () => {
    const r = await kubectl.run([
      'patch',
      'node',
      'n2',
      '--type=merge',
      '-p',
      '{"spec":{"taints":[{"key":"k","effect":"Sometimes"}]}}',
    ]);
    expect(r.stderr.trim()).toBe(
      'The Node "n2" is invalid: spec.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    );
    expect(await taintsOf('n2')).toEqual([]);
  });

  it('a JSON patch and a strategic merge patch of labels', async () => {
    const json = await kubectl.run([
      'patch',
      'node',
      'n2',
      '--type=json',
      '-p',
      '[{"op":"add","path":"/metadata/labels/tier","value":"gold"}]',
    ]);
    expect(json.stdout.trim()).toBe('node/n2 patched');
    const smp = await kubectl.run(['label', 'node', 'n2', 'tier-']);
    expect(smp.stdout.trim()).toBe('node/n2 unlabeled');
    const labels = (await app.request('GET', '/v1/nodes/n2', undefined, keys.headers.viewer)).body.labels;
    expect(labels).toEqual({ zone: 'a' });
  });

  it('a viewer token is refused a write (Forbidden) and may read', async () => {
    const r = await viewer.run(['taint', 'nodes', 'n1', 'x=y:NoSchedule']);
    expect(r.stderr.trim()).toMatch(
      /^Error from server \(Forbidden\): nodes "n1" is forbidden: User "viewer" cannot patch resource "nodes" in API group "" at the cluster scope/,
    );
    expect((await viewer.run(['get', 'nodes', '-o', 'name'])).stdout.trim().split('\n')).toEqual([
      'node/n1',
      'node/n2',
      'node/n3',
    ]);
  });

  it('delete a node; a second delete is NotFound', async () => {
    expect((await kubectl.run(['delete', 'node', 'n3'])).stdout.trim()).toBe('node "n3" deleted');
    expect((await kubectl.run(['delete', 'node', 'n3'])).stderr.trim()).toBe(
      'Error from server (NotFound): nodes "n3" not found',
    );
  });
});
