import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { testKeys, type TestKeys } from '../support/api-keys';
import { kubectlFor, type Kubectl, tableRows } from './kubectl';

const podYaml = (name: string, node?: string, extra = '') => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: shop
spec:
${node ? `  nodeName: ${node}\n` : ''}  containers:
  - name: app
    image: nginx
    resources:
      requests: { cpu: 100m, memory: 64Mi }
${extra}`;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.each(testModes())('kubectl and pods (%s)', (mode) => {
  let app: TestApp;
  let keys: TestKeys;
  let kubectl: Kubectl;
  let close: () => Promise<void>;

  beforeAll(async () => {
    keys = testKeys();
    app = await startTestApp(mode, { env: { API_KEYS: keys.env, RATE_LIMIT_PER_MINUTE: '0' } });
    for (const name of ['n1', 'n2']) {
      const body = {
        conditions: [{ type: 'Ready', status: 'True' }],
        allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      };
      expect((await app.request('PUT', `/v1/nodes/${name}`, body, keys.headers.admin)).status).toBe(201);
    }
    ({ kubectl, close } = await kubectlFor(app, keys.bearer.operator));
  });
  afterAll(async () => {
    await close();
    await app.close();
  });

  it('create -f with default validation, then get, -A and -o wide with NODE', async () => {
    const created = await kubectl.run(['create', '-f', '-'], { stdin: podYaml('web-1', 'n1') });
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe('pod/web-1 created');
    expect((await kubectl.run(['create', '-f', '-'], { stdin: podYaml('web-2', 'n2') })).code).toBe(0);
    expect((await kubectl.run(['create', '-f', '-'], { stdin: podYaml('pending-1') })).code).toBe(0);

    const wide = tableRows((await kubectl.run(['get', 'pods', '-n', 'shop', '-o', 'wide'])).stdout);
    expect(wide[0]).toEqual([
      'NAME',
      'READY',
      'STATUS',
      'RESTARTS',
      'AGE',
      'IP',
      'NODE',
      'NOMINATED NODE',
      'READINESS GATES',
    ]);
    expect(wide.slice(1).map((r) => [r[0], r[1], r[2], r[6]])).toEqual([
      ['pending-1', '0/1', 'Pending', '<none>'],
      ['web-1', '1/1', 'Running', 'n1'],
      ['web-2', '1/1', 'Running', 'n2'],
    ]);
    const all = tableRows((await kubectl.run(['get', 'pods', '-A'])).stdout);
    expect(all[0].slice(0, 2)).toEqual(['NAMESPACE', 'NAME']);
    expect(all.slice(1).map((r) => `${r[0]}/${r[1]}`)).toEqual(['shop/pending-1', 'shop/web-1', 'shop/web-2']);
    const json = JSON.parse((await kubectl.run(['get', 'pod', 'web-1', '-n', 'shop', '-o', 'json'])).stdout);
    expect(json).toMatchObject({ kind: 'Pod', spec: { nodeName: 'n1' }, status: { phase: 'Running' } });
    expect(json.spec.containers[0].resources).toEqual({ requests: { cpu: '100m', memory: '64Mi' } });
  });

  it('--field-selector spec.nodeName (as kubectl drain lists) and namespaces', async () => {
    const onN1 = await kubectl.run(['get', 'pods', '-A', '--field-selector', 'spec.nodeName=n1', '-o', 'name']);
    expect(onN1.stdout.trim()).toBe('pod/web-1');
    const pending = await kubectl.run([
      'get',
      'pods',
      '-n',
      'shop',
      '--field-selector',
      'status.phase=Pending',
      '-o',
      'name',
    ]);
    expect(pending.stdout.trim()).toBe('pod/pending-1');
    const ns = await kubectl.run(['get', 'namespaces', '-o', 'name']);
    expect(ns.stdout.trim().split('\n')).toEqual(['namespace/default', 'namespace/shop']);
  });

  it('the binding subresource binds a pending pod', async () => {
    const r = await app.request(
      'POST',
      '/api/v1/namespaces/shop/pods/pending-1/binding',
      { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'pending-1' }, target: { kind: 'Node', name: 'n2' } },
      keys.headers.operator,
    );
    expect(r.status).toBe(201);
    const got = await kubectl.run([
      'get',
      'pod',
      'pending-1',
      '-n',
      'shop',
      '-o',
      'jsonpath={.spec.nodeName} {.status.phase}',
    ]);
    expect(got.stdout).toBe('n2 Running');
  });

  it('a NoExecute taint from kubectl evicts on the durable clock; the pod is gone from the Kubernetes API', async () => {
    expect((await kubectl.run(['taint', 'node', 'n1', 'outage=true:NoExecute'])).code).toBe(0);
    // The taint manager deletes an evicted pod; taintwise keeps the record (REST), the Kubernetes API no longer
    // shows it (SEMANTICS A.5), which is what kubectl drain waits for.
    const gone = await until(
      () => kubectl.run(['get', 'pod', 'web-1', '-n', 'shop']),
      (r) => r.code !== 0,
    );
    expect(gone.stderr.trim()).toBe('Error from server (NotFound): pods "web-1" not found');
    const listed = tableRows((await kubectl.run(['get', 'pods', '-n', 'shop', '--no-headers'])).stdout);
    expect(listed.map((r) => r[0])).not.toContain('web-1');
    const rest = await app.request('GET', '/v1/namespaces/shop/pods/web-1', undefined, keys.headers.viewer);
    expect(rest.body).toMatchObject({ phase: 'Evicted', nodeName: null });
    const rows = await app.request('GET', '/v1/evictions?namespace=shop', undefined, keys.headers.viewer);
    expect(rows.body.items.map((e: any) => `${e.pod.name}:${e.status}`)).toContain('web-1:Executed');
  });

  it('describe node and get events tell the story (TaintManagerEviction)', async () => {
    const node = await kubectl.run(['describe', 'node', 'n1']);
    expect(node.stderr).toBe('');
    expect(node.stdout).toMatch(/Taints:\s+outage=true:NoExecute/);
    // the PATCH is a node write (NodeService), recorded as NodeReplaced with the taints before and after
    expect(node.stdout).toMatch(
      /Normal\s+NodeReplaced\s+\S+\s+taintwise\s+taints: outage=true:NoExecute \(were <none>\)/,
    );
    const events = tableRows((await kubectl.run(['get', 'events', '-n', 'shop'])).stdout);
    expect(events[0]).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(events.map((r) => `${r[2]} ${r[3]}`)).toContain('TaintManagerEviction pod/web-1');
    const forPod = await kubectl.run([
      'get',
      'events',
      '-n',
      'shop',
      '--field-selector',
      'involvedObject.name=web-1',
      '-o',
      'jsonpath={.items[*].message}',
    ]);
    expect(forPod.stdout).toContain('Marking for deletion Pod shop/web-1');
  });

  it('delete, a missing pod and an existing one', async () => {
    expect((await kubectl.run(['delete', 'pod', 'web-2', '-n', 'shop'])).stdout.trim()).toBe('pod "web-2" deleted');
    expect((await kubectl.run(['get', 'pod', 'web-2', '-n', 'shop'])).stderr.trim()).toBe(
      'Error from server (NotFound): pods "web-2" not found',
    );
    const again = await kubectl.run(['create', '-f', '-'], { stdin: podYaml('pending-1') });
    expect(again.stderr.trim()).toBe(
      'Error from server (AlreadyExists): error when creating "STDIN": pods "pending-1" already exists',
    );
  });
});

describe.each(testModes())('kubectl create/delete -f with default validation (%s)', (mode) => {
  let app: TestApp;
  let keys: TestKeys;
  let kubectl: Kubectl;
  let close: () => Promise<void>;

  beforeAll(async () => {
    keys = testKeys();
    app = await startTestApp(mode, { env: { API_KEYS: keys.env, RATE_LIMIT_PER_MINUTE: '0' } });
    ({ kubectl, close } = await kubectlFor(app, keys.bearer.operator));
  });
  afterAll(async () => {
    await close();
    await app.close();
  });

  it('a Node and a Pod manifest: created with server-side strict validation, deleted with -f', async () => {
    const manifest = `apiVersion: v1
kind: Node
metadata:
  name: file-node
  labels: { zone: c }
spec:
  taints:
  - { key: dedicated, value: db, effect: NoSchedule }
---
${podYaml('file-pod', undefined, '  tolerations:\n  - { key: dedicated, operator: Equal, value: db, effect: NoSchedule }\n')}`;
    const created = await kubectl.run(['create', '-f', '-', '-v=6'], { stdin: manifest });
    expect(created.stdout.trim().split('\n')).toEqual(['node/file-node created', 'pod/file-pod created']);
    expect(created.stderr).toMatch(/POST \S+\/api\/v1\/nodes\?fieldManager=kubectl-create&fieldValidation=Strict 201/);
    expect(created.stderr).not.toMatch(/openapi\/v2/);
    const node = await app.request('GET', '/v1/nodes/file-node', undefined, keys.headers.viewer);
    expect(node.body).toMatchObject({
      labels: { zone: 'c' },
      taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }],
    });
    const deleted = await kubectl.run(['delete', '-f', '-'], { stdin: manifest });
    expect(deleted.stdout.trim().split('\n')).toEqual(['node "file-node" deleted', 'pod "file-pod" deleted']);
  });

  it('an unknown field is refused by the strict server-side validation', async () => {
    const r = await kubectl.run(['create', '-f', '-'], { stdin: podYaml('typo', undefined, '  tolerashuns: []\n') });
    expect(r.stderr.trim()).toBe(
      'Error from server (BadRequest): error when creating "STDIN": Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.tolerashuns"',
    );
  });

  it('quantities written as YAML numbers (cpu: 1) are read as their decimal text, as the API server reads them', async () => {
    const manifest = podYaml('numbers').replace('{ cpu: 100m, memory: 64Mi }', '{ cpu: 1, memory: 1048576 }');
    const created = await kubectl.run(['create', '-f', '-'], { stdin: manifest });
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe('pod/numbers created');
    const pod = await app.request('GET', '/v1/namespaces/shop/pods/numbers', undefined, keys.headers.viewer);
    expect(pod.body.resources).toEqual({ requests: { cpu: '1', memory: '1048576' } });
  });

  it('requests of the wrong JSON type are a decode error (BadRequest), as the API server words it', async () => {
    const r = await kubectl.run(['create', '-f', '-'], {
      stdin: podYaml('typed').replace('{ cpu: 100m, memory: 64Mi }', '[ 100m ]'),
    });
    expect(r.stderr.trim()).toBe(
      'Error from server (BadRequest): error when creating "STDIN": Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal array into Go struct field ResourceRequirements.spec.containers.resources.requests of type v1.ResourceList',
    );
    const pod = await app.request('GET', '/v1/namespaces/shop/pods/typed', undefined, keys.headers.viewer);
    expect(pod.status).toBe(404);
  });

  it('an invalid toleration is Invalid with its field path', async () => {
    const r = await kubectl.run(['create', '-f', '-'], {
      stdin: podYaml('bad', undefined, '  tolerations:\n  - { key: k, operator: Sometimes }\n'),
    });
    expect(r.stderr.trim()).toMatch(
      /^The Pod "bad" is invalid: spec\.tolerations\[0\]\.operator: Unsupported value: "Sometimes"/,
    );
  });
});
