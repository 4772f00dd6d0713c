import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startTestApp, testModes, type TestApp } from '../support/test-app';

// Issue 4 item 2: POST /v1/import — kubectl JSON/YAML and cluster-info dump streams upserted as the
// cluster has them (no admission defaults, taint times kept), per-item errors, one event, evictions.
const FIXTURES = resolve(__dirname, '../fixtures/clusters');
const REAL_CLUSTERS = process.env.TAINTWISE_REAL_CLUSTERS ?? resolve(__dirname, '../fixtures/real-clusters');

/** PROVENANCE.md: node and pod counts of each of the 14 real dumps. */
const REAL: Array<{ file: string; format: string; nodes: number; pods: number }> = [
  { file: 'honeycomb-eks-nodelist.json', format: 'json', nodes: 2, pods: 0 },
  { file: 'honeycomb-podlist.json', format: 'json', nodes: 0, pods: 11 },
  { file: 'cloudability-eks-podlist.json', format: 'json', nodes: 0, pods: 6 },
  { file: 'troubleshoot-k3s-kube-system-podlist.json', format: 'json', nodes: 0, pods: 7 },
  { file: 'troubleshoot-analyze-7node-nodelist.json', format: 'json', nodes: 7, pods: 0 },
  { file: 'epicapex-aks-nodelist.json', format: 'json', nodes: 1, pods: 0 },
  { file: 'epicapex-aks-kube-system-podlist.json', format: 'json', nodes: 0, pods: 10 },
  { file: 'edgexr-aks-3node-list.json', format: 'json', nodes: 3, pods: 0 },
  { file: 'edgexr-rke2-gpu-node-list.json', format: 'json', nodes: 1, pods: 0 },
  { file: 'slac-sdf-85node-cluster-info-dump.json', format: 'json-stream', nodes: 85, pods: 3 },
  { file: 'cka-kubeadm-notready-cluster-info-dump.json', format: 'json-stream', nodes: 3, pods: 13 },
  { file: 'openshift-gcp-master-0-node.json', format: 'json', nodes: 1, pods: 0 },
  { file: 'managedkube-gke-preemptible-node.json', format: 'json', nodes: 1, pods: 0 },
  { file: 'openshift-notready-unreachable-node.yaml', format: 'yaml', nodes: 1, pods: 0 },
];

const list = (...items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
const node = (name: string, spec: Record<string, unknown> = {}, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels },
  spec,
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
});
const pod = (
  namespace: string,
  name: string,
  spec: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace, name, ...extra },
  spec: { containers: [{ name: 'c' }], ...spec },
  status: { phase: spec.nodeName ? 'Running' : 'Pending', startTime: '2026-01-01T00:00:00Z' },
});

async function allItems(app: TestApp, path: string): Promise<any[]> {
  const items: any[] = [];
  let token: string | undefined;
  do {
    const r = await app.request(
      'GET',
      `${path}${path.includes('?') ? '&' : '?'}limit=5000${token ? `&continue=${token}` : ''}`,
    );
    items.push(...r.body.items);
    token = r.body.continue;
  } while (token);
  return items;
}

describe.each(testModes())('POST /v1/import (%s)', (mode) => {
  let app: TestApp;
  const post = (body: string, contentType = 'application/json') =>
    app.request('POST', '/v1/import', body, { 'content-type': contentType });

  beforeAll(async () => {
    app = await startTestApp(mode);
  });
  afterAll(async () => {
    await app?.close();
  });

  describe('the small-cluster fixture', () => {
    it('imports small-cluster.json: 7 nodes, 21 pods, taint times kept, no admission defaults', async () => {
      const r = await post(readFileSync(resolve(FIXTURES, 'small-cluster.json'), 'utf8'));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        format: 'json',
        nodes: { created: 7, updated: 0 },
        pods: { created: 21, updated: 0 },
        errors: [],
        skipped: [],
      });
      expect(r.body.summary).toMatchObject({ nodes: 7, pods: 21, unboundPods: 2, invalid: 0, podsOnUnknownNodes: 0 });
      expect(await allItems(app, '/v1/nodes')).toHaveLength(7);
      expect(await allItems(app, '/v1/pods')).toHaveLength(21);
      const worker2 = (await app.request('GET', '/v1/nodes/worker-2')).body;
      expect(worker2).toMatchObject({
        unschedulable: true,
        taints: [
          {
            key: 'node.kubernetes.io/unschedulable',
            value: '',
            effect: 'NoSchedule',
            timeAdded: '2025-03-10T09:12:03.000Z',
          },
        ],
      });
      expect((await app.request('GET', '/v1/namespaces/shop/pods/web-5f8d9c7b6-pz4rt')).body).toMatchObject({
        nodeName: null,
        phase: 'Pending',
        boundAt: null,
      });
      // Static pods carry only `Exists:NoExecute`: no DefaultTolerationSeconds was added on import.
      const kubeSystem = await allItems(app, '/v1/namespaces/kube-system/pods');
      const staticPod = kubeSystem.find((p) => p.owner?.kind === 'Node');
      expect(staticPod.tolerations).toEqual([{ operator: 'Exists', effect: 'NoExecute' }]);
      expect(staticPod).toMatchObject({ nodeName: 'cp-1', phase: 'Running' });
    });

    it('re-imports small-cluster.yaml as updates, keeping stored taint times and pod uids', async () => {
      const before = (await app.request('GET', '/v1/nodes/gpu-1')).body;
      const podBefore = (await app.request('GET', '/v1/namespaces/shop/pods/web-5f8d9c7b6-pz4rt')).body;
      const r = await post(readFileSync(resolve(FIXTURES, 'small-cluster.yaml'), 'utf8'), 'application/yaml');
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        format: 'yaml',
        nodes: { created: 0, updated: 7 },
        pods: { created: 0, updated: 21 },
        errors: [],
      });
      const after = (await app.request('GET', '/v1/nodes/gpu-1')).body;
      expect(after.taints).toEqual(before.taints); // no timeAdded in the dump: the stored time stays
      expect(Number(after.resourceVersion)).toBe(Number(before.resourceVersion) + 1);
      const podAfter = (await app.request('GET', '/v1/namespaces/shop/pods/web-5f8d9c7b6-pz4rt')).body;
      expect(podAfter.uid).toBe(podBefore.uid);
      expect(podAfter.resourceVersion).toBe('2');
    });

    it('records one ImportApplied event per import, not one per object', async () => {
      const history = await app.request('GET', '/v1/events/history?subjectKind=Import');
      expect(history.status).toBe(200);
      expect(history.body.items.map((e: { type: string }) => e.type)).toEqual(['ImportApplied', 'ImportApplied']);
      expect(history.body.items[0].data).toMatchObject({
        format: 'json',
        nodes: { created: 7, updated: 0 },
        pods: { created: 21, updated: 0 },
        errors: 0,
      });
      const perObject = await app.request(
        'GET',
        '/v1/events/history?types=NodeCreated,NodeReplaced,PodCreated,PodReplaced',
      );
      expect(perObject.body.items).toEqual([]);
    });
  });

  describe('the 14 real cluster dumps (PROVENANCE.md)', () => {
    it.each(REAL)('$file: $nodes node(s), $pods pod(s), no errors', async ({ file, format, nodes, pods }) => {
      const contentType = file.endsWith('.yaml') ? 'application/yaml' : 'application/json';
      const r = await post(readFileSync(resolve(REAL_CLUSTERS, file), 'utf8'), contentType);
      expect(r.status).toBe(200);
      expect(r.body.errors).toEqual([]);
      expect(r.body.format).toBe(format);
      expect(r.body.nodes.created + r.body.nodes.updated).toBe(nodes);
      expect(r.body.pods.created + r.body.pods.updated).toBe(pods);
    });

    it('keeps what the dumps say: the unreachable NoExecute taint with its timeAdded, dump-stream skipped kinds', async () => {
      const test = (await app.request('GET', '/v1/nodes/test')).body;
      expect(test.taints).toEqual([
        {
          key: 'node.kubernetes.io/unreachable',
          value: '',
          effect: 'NoSchedule',
          timeAdded: expect.stringMatching(/T09:54:54\.000Z$/),
        },
        {
          key: 'node.kubernetes.io/unreachable',
          value: '',
          effect: 'NoExecute',
          timeAdded: expect.stringMatching(/T09:55:00\.000Z$/),
        },
      ]);
      const slac = await post(readFileSync(resolve(REAL_CLUSTERS, 'slac-sdf-85node-cluster-info-dump.json'), 'utf8'));
      expect(slac.body.skipped).toEqual([
        { kind: 'Service', count: 2 },
        { kind: 'Deployment', count: 1 },
        { kind: 'ReplicaSet', count: 9 },
      ]);
      expect(slac.body.nodes).toEqual({ created: 0, updated: 85 });
      const gpu = (await app.request('GET', '/v1/nodes/sdfampere008')).body;
      expect(gpu.taints).toEqual([expect.objectContaining({ key: 'nvidia.com/gpu', value: '', effect: 'NoSchedule' })]);
      // The kubeadm dump's coredns pods are Pending and unbound.
      const coredns = (await allItems(app, '/v1/namespaces/kube-system/pods?phase=Pending')).filter((p) =>
        p.name.startsWith('coredns-'),
      );
      expect(coredns.length).toBeGreaterThanOrEqual(2);
      expect(coredns.every((p) => p.nodeName === null)).toBe(true);
    });

    it('imports a PodList without its nodes as bound to unknown nodes, with a note', async () => {
      const r = await post(readFileSync(resolve(REAL_CLUSTERS, 'cloudability-eks-podlist.json'), 'utf8'));
      expect(r.status).toBe(200);
      expect(r.body.summary.podsOnUnknownNodes).toBe(6);
      expect(r.body.notes).toEqual(
        expect.arrayContaining([
          expect.stringContaining(
            '6 pod(s) are bound to node(s) taintwise does not know (ip-172-26-67-126.ec2.internal)',
          ),
        ]),
      );
      const onNode = await allItems(app, '/v1/pods?nodeName=ip-172-26-67-126.ec2.internal');
      expect(onNode).toHaveLength(6);
    });
  });

  describe('per-item errors and bad bodies', () => {
    it("reports invalid items in Kubernetes' words and imports the rest", async () => {
      const body = list(
        node('ok-1'),
        node('bad-effect', { taints: [{ key: 'a', effect: 'NoScheduled' }] }),
        { apiVersion: 'v1', kind: 'Node', metadata: {}, spec: {} },
        pod('default', 'bad-op', { tolerations: [{ key: 'a', operator: 'Foo' }] }),
        pod('default', 'ok-pod'),
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' } },
      );
      const r = await post(body);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        nodes: { created: 1, updated: 0 },
        pods: { created: 1, updated: 0 },
        skipped: [{ kind: 'Service', count: 1 }],
      });
      expect(r.body.errors).toEqual([
        {
          index: 2,
          document: 0,
          kind: 'Node',
          field: 'items[2].metadata.name',
          message: 'metadata.name: Required value',
        },
        {
          kind: 'Node',
          name: 'bad-effect',
          field: 'taints[0].effect',
          message:
            'taints[0].effect: Unsupported value: "NoScheduled": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        },
        {
          kind: 'Pod',
          name: 'default/bad-op',
          field: 'tolerations[0].operator',
          message: 'tolerations[0].operator: Unsupported value: "Foo": supported values: "Equal", "Exists"',
        },
      ]);
      expect(r.body.summary).toMatchObject({ invalid: 2, errors: 3 });
      expect((await app.request('GET', '/v1/nodes/bad-effect')).status).toBe(404);
      expect((await app.request('GET', '/v1/namespaces/default/pods/bad-op')).status).toBe(404);
      expect((await app.request('GET', '/v1/namespaces/default/pods/ok-pod')).body.tolerations).toEqual([]);
    });

    it('answers 400 problem+json with the line and column for a body it cannot read, and changes nothing', async () => {
      const nodesBefore = (await allItems(app, '/v1/nodes')).length;
      const r = await post(
        '{"apiVersion": "v1", "kind": "List",\n  "items": [ {"kind": "Node", "metadata": {"name": "x"}} oops ]}',
      );
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body.detail).toMatch(/^the import body could not be read: line 2, column \d+: /);
      expect(r.body.importErrors[0]).toMatchObject({ kind: 'Document', position: { line: 2 } });
      expect(r.body.errors[0].message).toMatch(/^line 2, column \d+: /);
      const yaml = await post('kind: NodeList\nitems:\n  - metadata: {name: [unclosed\n', 'application/yaml');
      expect(yaml.status).toBe(400);
      expect(yaml.body.importErrors[0].position.line).toBeGreaterThan(0);
      const empty = await post('', 'application/json');
      expect(empty.status).toBe(400);
      expect((await allItems(app, '/v1/nodes')).length).toBe(nodesBefore);
    });

    it('refuses a new pod whose uid another pod holds; keeps the rest', async () => {
      const first = await post(list(pod('uids', 'a', {}, { uid: 'same-uid' })));
      expect(first.body.pods.created).toBe(1);
      const clash = await post(
        list(pod('uids', 'b', {}, { uid: 'same-uid' }), pod('uids', 'c', {}, { uid: 'other-uid' })),
      );
      expect(clash.status).toBe(200);
      expect(clash.body.pods).toEqual({ created: 1, updated: 0 });
      expect(clash.body.errors).toEqual([
        {
          kind: 'Pod',
          name: 'uids/b',
          field: 'metadata.uid',
          message: 'metadata.uid: Invalid value: "same-uid": already the uid of pod uids/a',
        },
      ]);
    });
  });

  describe('evictions implied by the imported state', () => {
    it('evicts pods that do not tolerate a NoExecute taint and schedules the tolerating ones', async () => {
      const r = await post(
        list(
          node('drain-me', {
            taints: [
              {
                key: 'maintenance',
                value: 'true',
                effect: 'NoExecute',
                timeAdded: new Date(Date.now() - 60_000).toISOString(),
              },
            ],
          }),
          pod('evict', 'intolerant', { nodeName: 'drain-me' }),
          pod('evict', 'patient', {
            nodeName: 'drain-me',
            tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 3600 }],
          }),
          pod('evict', 'forever', {
            nodeName: 'drain-me',
            tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute' }],
          }),
        ),
      );
      expect(r.status).toBe(200);
      expect(r.body.evictions).toEqual({ immediate: 1, scheduled: 1, cancelled: 0, retimed: 0, held: 0 });
      expect((await app.request('GET', '/v1/namespaces/evict/pods/intolerant')).body).toMatchObject({
        nodeName: null,
        phase: 'Evicted',
      });
      expect((await app.request('GET', '/v1/namespaces/evict/pods/patient')).body).toMatchObject({
        nodeName: 'drain-me',
        phase: 'Running',
      });
      // Importing the node again without the taint cancels the scheduled eviction.
      const cleared = await post(list(node('drain-me')));
      expect(cleared.body.evictions).toEqual({ immediate: 0, scheduled: 0, cancelled: 1, retimed: 0, held: 0 });
    });

    it('decides the imported pods bound to a stored NoExecute node the import does not name (and only them)', async () => {
      expect(
        (
          await app.request('PUT', '/v1/nodes/stored-drain', {
            taints: [{ key: 'maintenance', value: 'true', effect: 'NoExecute' }],
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await app.request('PUT', '/v1/namespaces/evict/pods/already-there', {
            nodeName: 'stored-drain',
            tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 600 }],
          })
        ).status,
      ).toBe(201);
      const r = await post(
        list(
          pod('evict', 'late-intolerant', { nodeName: 'stored-drain' }),
          pod('evict', 'late-patient', {
            nodeName: 'stored-drain',
            tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
          }),
        ),
      );
      // already-there keeps its own eviction untouched
      expect(r.body.evictions).toEqual({ immediate: 1, scheduled: 1, cancelled: 0, retimed: 0, held: 0 });
      expect((await app.request('GET', '/v1/namespaces/evict/pods/late-intolerant')).body.phase).toBe('Evicted');
      expect((await app.request('GET', '/v1/namespaces/evict/pods/already-there')).body).toMatchObject({
        nodeName: 'stored-drain',
        phase: 'Running',
        resourceVersion: '1',
      });
    });
  });

  it('accepts a 10 MB import', async () => {
    // kubectl output is mostly managedFields and status: ~2 KB of it per pod (fields kubectl prints that taintwise does
    // not keep), 5,000 pods.
    const managedFields = [
      {
        manager: 'kubelet',
        operation: 'Update',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:status': Object.fromEntries(
            Array.from({ length: 60 }, (_, i) => [`f:field-${i}`, { '.': {}, 'f:value': {} }]),
          ),
        },
      },
    ];
    const items: unknown[] = [node('big-0'), node('big-1')];
    for (let i = 0; i < 5000; i++)
      items.push(
        pod(
          'big',
          `pod-${i}`,
          { nodeName: `big-${i % 2}` },
          { managedFields, labels: { app: 'big', index: String(i) } },
        ),
      );
    const body = list(...items);
    expect(body.length).toBeGreaterThan(10 * 1024 * 1024);
    const started = Date.now();
    const r = await post(body);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      nodes: { created: 2, updated: 0 },
      pods: { created: 5000, updated: 0 },
      errors: [],
    });
    expect(await allItems(app, '/v1/pods?nodeName=big-1')).toHaveLength(2500);

    console.log(
      `${mode}: 10 MB import (${(body.length / 1e6).toFixed(1)} MB, 5,002 objects) in ${Date.now() - started} ms`,
    );
  });

  it('GraphQL importManifests takes the manifests as a string (YAML here)', async () => {
    const yaml =
      'apiVersion: v1\nkind: NodeList\nitems:\n- metadata: {name: gql-node}\n  spec: {taints: [{key: k, value: v, effect: NoSchedule}]}\n';
    const r = await app.graphql(
      'mutation($m: String!) { importManifests(manifests: $m, contentType: "application/yaml") { format nodes { created updated } pods { created } errors { kind name message } notes summary { nodes podsByPhase { key value } } } }',
      { m: yaml },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.importManifests).toEqual({
      format: 'yaml',
      nodes: { created: 1, updated: 0 },
      pods: { created: 0 },
      errors: [],
      notes: [],
      summary: { nodes: 1, podsByPhase: [] },
    });
    const bad = await app.graphql('mutation { importManifests(manifests: "{ nope") { format } }');
    expect(bad.body.errors![0].extensions.code).toBe('BAD_REQUEST');
    expect(bad.body.errors![0].extensions.importErrors[0].position.line).toBe(1);
  });
});
