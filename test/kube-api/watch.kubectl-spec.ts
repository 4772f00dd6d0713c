import type { ChildProcess } from 'node:child_process';
import * as k8s from '@kubernetes/client-node';
import { startTestApp, testModes, eventually, type TestApp } from '../support/test-app';
import { testKeys, type TestKeys } from '../support/api-keys';
import { kubectlFor, type Kubectl } from './kubectl';
import { TlsFront } from './tls-front';

/** The lines a long-running kubectl has printed so far. */
function collect(child: ChildProcess): () => string[] {
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return () => out.split('\n').filter((l) => l.trim() !== '');
}

/** A raw watch stream read line by line (what client-go's reflector reads), ended by the caller. */
async function watchLines(app: TestApp, path: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(`${app.url}${path}`, { headers, signal: controller.signal });
  const lines: Array<{ type: string; object: any }> = [];
  const reader = response.body!.getReader();
  let buffer = '';
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      buffer += Buffer.from(value!).toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
    }
  })();
  return { response, lines, reading, stop: () => controller.abort() };
}

const nodeBody = {
  conditions: [{ type: 'Ready', status: 'True' }],
  allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
};

describe.each(testModes())('Kubernetes API watch (%s)', (mode) => {
  let app: TestApp;
  let keys: TestKeys;
  let kubectl: Kubectl;
  let front: TlsFront;
  let close: () => Promise<void>;

  beforeAll(async () => {
    keys = testKeys();
    app = await startTestApp(mode, {
      env: { API_KEYS: keys.env, RATE_LIMIT_PER_MINUTE: '0', KUBE_WATCH_BOOKMARK_SECONDS: '1' },
    });
    for (const name of ['n1', 'n2']) {
      expect((await app.request('PUT', `/v1/nodes/${name}`, nodeBody, keys.headers.admin)).status).toBe(201);
    }
    ({ kubectl, close } = await kubectlFor(app, keys.bearer.viewer));
    front = await TlsFront.start(app.url);
  });
  afterAll(async () => {
    await close();
    await front.close();
    await app.close();
  });

  it('kubectl get nodes -w prints the nodes, then changes made over REST as they commit', async () => {
    const child = kubectl.spawn(['get', 'nodes', '-w', '--output-watch-events']);
    const lines = collect(child);
    try {
      await eventually(() => expect(lines().filter((l) => l.startsWith('ADDED')).length).toBe(2), 20_000);
      expect((await app.request('POST', '/v1/nodes/n1/cordon', undefined, keys.headers.admin)).status).toBe(200);
      await eventually(
        () => expect(lines().some((l) => /^MODIFIED\s+n1\s+Ready,SchedulingDisabled/.test(l))).toBe(true),
        10_000,
      );
      expect((await app.request('PUT', '/v1/nodes/n3', nodeBody, keys.headers.admin)).status).toBe(201);
      expect((await app.request('DELETE', '/v1/nodes/n3', undefined, keys.headers.admin)).status).toBe(204);
      await eventually(() => expect(lines().some((l) => /^DELETED\s+n3\s/.test(l))).toBe(true), 10_000);
      expect(lines().some((l) => /^ADDED\s+n3\s/.test(l))).toBe(true);
    } finally {
      child.kill();
    }
  });

  it('an informer of @kubernetes/client-node (list + watch) follows nodes and pods changed over REST, and an eviction deletes the pod', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'tw', server: front.url, caData: Buffer.from(front.caPem).toString('base64') }],
      users: [{ name: 'tw', token: keys.bearer.viewer.replace(/^Bearer /, '') }],
      contexts: [{ name: 'tw', cluster: 'tw', user: 'tw' }],
      currentContext: 'tw',
    });
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const nodes = k8s.makeInformer(kc, '/api/v1/nodes', () => core.listNode());
    const pods = k8s.makeInformer(kc, '/api/v1/pods', () => core.listPodForAllNamespaces());
    const seen: string[] = [];
    nodes.on('update', (n) => seen.push(`update node ${n.metadata?.name} ${JSON.stringify(n.spec?.taints ?? [])}`));
    pods.on('add', (p) => seen.push(`add pod ${p.metadata?.namespace}/${p.metadata?.name}`));
    pods.on('delete', (p) => seen.push(`delete pod ${p.metadata?.namespace}/${p.metadata?.name}`));
    await nodes.start();
    await pods.start();
    try {
      expect(
        nodes
          .list()
          .map((n) => n.metadata?.name)
          .sort(),
      ).toEqual(['n1', 'n2']);

      const pod = { nodeName: 'n2', resources: { requests: { cpu: '100m' } } };
      expect((await app.request('PUT', '/v1/namespaces/shop/pods/web-1', pod, keys.headers.admin)).status).toBe(201);
      await eventually(() => expect(pods.get('web-1', 'shop')?.spec?.nodeName).toBe('n2'), 10_000);

      const taint = { nodes: ['n2'], taints: ['maintenance=true:NoExecute'] };
      expect((await app.request('POST', '/v1/taints', taint, keys.headers.admin)).status).toBe(200);
      await eventually(() => expect(seen).toContain('delete pod shop/web-1'), 15_000);
      expect(seen).toContain('add pod shop/web-1');
      expect(seen.some((s) => s.startsWith('update node n2') && s.includes('maintenance'))).toBe(true);
      expect(pods.get('web-1', 'shop')).toBeUndefined();
      expect(nodes.get('n2')?.spec?.taints).toEqual([
        expect.objectContaining({ key: 'maintenance', value: 'true', effect: 'NoExecute' }),
      ]);
    } finally {
      await nodes.stop();
      await pods.stop();
    }
  });

  it('a watch resumes from a list version; a version from before this process is 410 Expired; bookmarks when allowed', async () => {
    const list = await app.request('GET', '/api/v1/nodes', undefined, keys.headers.viewer);
    const version = list.body.metadata.resourceVersion;
    expect(version).toMatch(/^[0-9]+$/);

    const watch = await watchLines(
      app,
      `/api/v1/nodes?watch=1&resourceVersion=${version}&allowWatchBookmarks=true`,
      keys.headers.viewer,
    );
    try {
      expect(watch.response.status).toBe(200);
      expect((await app.request('POST', '/v1/nodes/n2/cordon', undefined, keys.headers.admin)).status).toBe(200);
      await eventually(() => expect(watch.lines.some((l) => l.type === 'MODIFIED')).toBe(true), 10_000);
      const seenAt = watch.lines.length;
      await eventually(() => expect(watch.lines.slice(seenAt).some((l) => l.type === 'BOOKMARK')).toBe(true), 10_000);
      // only what changed after the list: n2, modified, with a newer version
      const changes = watch.lines.filter((l) => l.type !== 'BOOKMARK');
      expect(changes.map((l) => [l.type, l.object.metadata.name])).toEqual([['MODIFIED', 'n2']]);
      expect(BigInt(changes[0].object.metadata.resourceVersion)).toBeGreaterThan(BigInt(version));
      const bookmark = watch.lines.slice(seenAt).find((l) => l.type === 'BOOKMARK')!;
      expect(bookmark.object).toMatchObject({ kind: 'Node', apiVersion: 'v1' });
      expect(BigInt(bookmark.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(
        BigInt(changes[0].object.metadata.resourceVersion),
      );
    } finally {
      watch.stop();
    }

    const old = await watchLines(app, '/api/v1/nodes?watch=1&resourceVersion=1', keys.headers.viewer);
    await old.reading;
    expect(old.lines).toEqual([
      {
        type: 'ERROR',
        object: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' }),
      },
    ]);
  });

  it('a write with a stale metadata.resourceVersion is 409 Conflict and changes nothing', async () => {
    const node = (await app.request('GET', '/api/v1/nodes/n1', undefined, keys.headers.viewer)).body;
    const stale = node.metadata.resourceVersion;
    expect((await app.request('POST', '/v1/nodes/n1/uncordon', undefined, keys.headers.admin)).status).toBe(200);
    const update = {
      ...node,
      metadata: { ...node.metadata, labels: { ...node.metadata.labels, team: 'a' }, resourceVersion: stale },
    };
    const r = await app.request('PUT', '/api/v1/nodes/n1', update, keys.headers.admin);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
    const after = (await app.request('GET', '/api/v1/nodes/n1', undefined, keys.headers.viewer)).body;
    expect(after.metadata.labels?.team).toBeUndefined();
    // the current version is accepted
    const current = { ...after, metadata: { ...after.metadata, labels: { ...after.metadata.labels, team: 'a' } } };
    expect((await app.request('PUT', '/api/v1/nodes/n1', current, keys.headers.admin)).status).toBe(200);
  });

  it('kubectl get pdb -w sees a budget whose status moves with its pods; get events -w sees a cordon', async () => {
    const budget = { spec: { minAvailable: 1, selector: { matchLabels: { app: 'db' } } } };
    const put = await app.request('PUT', '/v1/namespaces/shop/poddisruptionbudgets/db', budget, keys.headers.admin);
    expect(put.status).toBe(201);
    const pdbs = kubectl.spawn(['get', 'pdb', '-n', 'shop', '-w', '--output-watch-events']);
    const events = kubectl.spawn(['get', 'events', '-A', '-w']);
    const pdbLines = collect(pdbs);
    const eventLines = collect(events);
    try {
      // NAME, MIN AVAILABLE, MAX UNAVAILABLE, ALLOWED DISRUPTIONS, AGE
      await eventually(() => expect(pdbLines().some((l) => /^ADDED\s+db\s+1\s+N\/A\s+0\s/.test(l))).toBe(true), 20_000);
      for (const name of ['db-1', 'db-2']) {
        const pod = { nodeName: 'n1', labels: { app: 'db' } };
        const r = await app.request('PUT', `/v1/namespaces/shop/pods/${name}`, pod, keys.headers.admin);
        expect(r.status).toBe(201);
      }
      await eventually(
        () => expect(pdbLines().some((l) => /^MODIFIED\s+db\s+1\s+N\/A\s+1\s/.test(l))).toBe(true),
        10_000,
      ).catch((e) => {
        throw new Error(`${(e as Error).message}\n${pdbLines().join('\n')}`);
      });
      await eventually(() => expect(eventLines().length).toBeGreaterThan(0), 20_000);
      expect((await app.request('POST', '/v1/nodes/n1/cordon', undefined, keys.headers.admin)).status).toBe(200);
      await eventually(
        () => expect(eventLines().some((l) => /NodeNotSchedulable\s+node\/n1/.test(l))).toBe(true),
        10_000,
      );
    } finally {
      pdbs.kill();
      events.kill();
      await app.request('POST', '/v1/nodes/n1/uncordon', undefined, keys.headers.admin);
    }
  });

  it('kubectl label and patch a pod go through the pod use case; nodeName cannot change', async () => {
    const operator = keys.bearer.operator.replace(/^Bearer /, '');
    const pod = { nodeName: 'n1', resources: { requests: { cpu: '100m' } } };
    expect((await app.request('PUT', '/v1/namespaces/shop/pods/api-1', pod, keys.headers.admin)).status).toBe(201);

    const labelled = await kubectl.run(['label', 'pod', 'api-1', '-n', 'shop', 'tier=front'], { token: operator });
    expect(labelled.stdout.trim()).toBe('pod/api-1 labeled');
    const toleration =
      '[{"op":"add","path":"/spec/tolerations","value":[{"key":"maintenance","operator":"Exists","effect":"NoExecute"}]}]';
    const patched = await kubectl.run(['patch', 'pod', 'api-1', '-n', 'shop', '--type=json', '-p', toleration], {
      token: operator,
    });
    expect(patched.stdout.trim()).toBe('pod/api-1 patched');
    const stored = (await app.request('GET', '/v1/namespaces/shop/pods/api-1', undefined, keys.headers.viewer)).body;
    expect(stored.labels).toEqual({ tier: 'front' });
    // the patch replaced the list; admission adds its defaults again (DefaultTolerationSeconds, SEMANTICS B.7)
    expect(stored.tolerations).toContainEqual({ key: 'maintenance', operator: 'Exists', effect: 'NoExecute' });
    expect(stored.nodeName).toBe('n1');
    expect(stored.resources).toEqual({ requests: { cpu: '100m' } });

    const described = await kubectl.run(['describe', 'pod', 'api-1', '-n', 'shop']);
    expect(described.stderr).toBe('');
    expect(described.stdout).toMatch(/Node:\s+n1/);
    expect(described.stdout).toMatch(/Labels:\s+tier=front/);
    expect(described.stdout).toMatch(/Tolerations:\s+maintenance:NoExecute op=Exists/);
    expect(described.stdout).toMatch(/Normal\s+PodReplaced\s/);

    const moved = await kubectl.run(
      ['patch', 'pod', 'api-1', '-n', 'shop', '--type=merge', '-p', '{"spec":{"nodeName":"n2"}}'],
      { token: operator },
    );
    expect(moved.code).not.toBe(0);
    expect(moved.stderr).toContain('The Pod "api-1" is invalid: spec: Forbidden');
    const viewer = await kubectl.run(['label', 'pod', 'api-1', '-n', 'shop', 'tier=back', '--overwrite']);
    expect(viewer.stderr).toContain('Error from server (Forbidden)');
    const after = (await app.request('GET', '/v1/namespaces/shop/pods/api-1', undefined, keys.headers.viewer)).body;
    expect(after).toMatchObject({ nodeName: 'n1', labels: { tier: 'front' } });
  });
});
