import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeManifests } from './decode';
import type { PodInput } from './inventory-input';
import { parseImportBody } from './import-manifests';
import { mapManifests } from './map-manifests';

const NOW = new Date('2025-03-10T12:30:00Z');
const FIXTURES = resolve(__dirname, '../../../test/fixtures/clusters');

const nodeObj = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  ...extra,
});
const podObj = (name: string, spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c' }], ...spec },
  ...extra,
});
const one = (item: unknown) => mapManifests([{ apiVersion: 'v1', kind: 'List', items: [item] }], NOW);
const onePod = (item: unknown): PodInput => {
  const result = one(item);
  expect(result.errors).toEqual([]);
  return result.pods[0];
};

describe('small-cluster fixtures (test/fixtures/clusters)', () => {
  const fromJson = decodeManifests(readFileSync(resolve(FIXTURES, 'small-cluster.json')));
  const fromYaml = decodeManifests(readFileSync(resolve(FIXTURES, 'small-cluster.yaml')), 'application/yaml');
  const result = mapManifests(fromJson.documents, NOW);
  const node = (name: string) => result.nodes.find((n) => n.name === name)!;
  const pod = (name: string) => result.pods.find((p) => p.name === name)!;

  it('-o json and -o yaml decode to the same List', () => {
    expect(fromJson.errors).toEqual([]);
    expect(fromYaml.errors).toEqual([]);
    expect(fromJson.format).toBe('json');
    expect(fromYaml.documents).toEqual(fromJson.documents);
    expect(mapManifests(fromYaml.documents, NOW)).toEqual(result);
  });

  it('imports 7 nodes and 21 pods without errors', () => {
    expect(result.errors).toEqual([]);
    expect(result.nodes.map((n) => n.name)).toEqual([
      'cp-1',
      'gpu-1',
      'gpu-2',
      'spot-1',
      'spot-2',
      'worker-1',
      'worker-2',
    ]);
    expect(result.pods).toHaveLength(21);
    expect(result.skipped).toEqual([]);
    expect(result.summary).toMatchObject({
      nodes: 7,
      pods: 21,
      podsByPhase: { Running: 18, Succeeded: 1, Pending: 2 },
      inactivePods: 1,
      unboundPods: 2,
      podAffinityDropped: 2,
    });
  });

  it('has the kubeadm control-plane taint, the GPU and spot pools and a cordoned worker', () => {
    expect(node('cp-1').taints).toEqual([
      { key: 'node-role.kubernetes.io/control-plane', value: '', effect: 'NoSchedule' },
    ]);
    for (const name of ['gpu-1', 'gpu-2']) {
      expect(node(name).taints).toEqual([{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }]);
      expect(node(name).allocatable?.['nvidia.com/gpu']).toBe('1');
    }
    for (const name of ['spot-1', 'spot-2']) {
      expect(node(name).taints).toEqual([
        { key: 'kubernetes.azure.com/scalesetpriority', value: 'spot', effect: 'NoSchedule' },
      ]);
      expect(node(name).labels['kubernetes.azure.com/scalesetpriority']).toBe('spot');
    }
    expect(node('worker-1')).toMatchObject({ taints: [], unschedulable: false });
    expect(node('worker-2')).toMatchObject({
      unschedulable: true,
      taints: [
        {
          key: 'node.kubernetes.io/unschedulable',
          value: '',
          effect: 'NoSchedule',
          timeAdded: new Date('2025-03-10T09:12:03Z'),
        },
      ],
    });
    expect(node('cp-1').conditions.find((c) => c.type === 'Ready')).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status',
      lastTransitionTime: new Date('2025-03-02T08:00:00Z'),
    });
  });

  it('has a kube-proxy DaemonSet pod on every node, with the DaemonSet tolerations', () => {
    const proxies = result.pods.filter((p) => p.owner?.kind === 'DaemonSet');
    expect(proxies.map((p) => p.nodeName).sort()).toEqual(result.nodes.map((n) => n.name).sort());
    for (const p of proxies) {
      expect(p.tolerations).toHaveLength(9);
      expect(p.tolerations.slice(0, 2)).toEqual([
        { key: 'CriticalAddonsOnly', operator: 'Exists' },
        { operator: 'Exists' },
      ]);
      expect(p.tolerations).toContainEqual({
        key: 'node.kubernetes.io/unschedulable',
        operator: 'Exists',
        effect: 'NoSchedule',
      });
      expect(p).toMatchObject({ hostNetwork: true, priority: 2000001000, resources: {} });
    }
  });

  it('has coredns with the 300 s defaults and its pod anti-affinity dropped', () => {
    const coredns = pod('coredns-7db6d8ff4d-5xk2p');
    expect(coredns.tolerations).toEqual([
      { key: 'CriticalAddonsOnly', operator: 'Exists' },
      { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    expect(coredns.affinity).toBeNull();
    expect(coredns).toMatchObject({
      owner: { kind: 'ReplicaSet', name: 'coredns-7db6d8ff4d' },
      boundAt: new Date('2025-03-02T08:05:31Z'),
    });
    // coredns-...-tq9wv runs on the cordoned worker-2: cordoning does not evict.
    expect(pod('coredns-7db6d8ff4d-tq9wv').nodeName).toBe('worker-2');
  });

  it('computes effective resources: init container max, native sidecar sum', () => {
    expect(pod('train-resnet-8g2xq')).toMatchObject({
      nodeName: 'gpu-1',
      owner: { kind: 'Job', name: 'train-resnet' },
      resources: {
        requests: { cpu: '4', memory: '32Gi', 'nvidia.com/gpu': '1' },
        limits: { memory: '48Gi', 'nvidia.com/gpu': '1' },
      },
    });
    expect(pod('web-5f8d9c7b6-k7vnm').resources).toEqual({
      requests: { cpu: '350m', memory: '384Mi' },
      limits: { memory: '640Mi' },
    });
  });

  it('has the pending pods unbound, one of them fitting nowhere', () => {
    expect(pod('web-5f8d9c7b6-pz4rt')).toMatchObject({ phase: 'Pending', nodeName: null, boundAt: null });
    const finetune = pod('finetune-llm-0');
    expect(finetune).toMatchObject({
      phase: 'Pending',
      nodeName: null,
      boundAt: null,
      owner: { kind: 'StatefulSet', name: 'finetune-llm' },
    });
    expect(finetune.resources.requests?.['nvidia.com/gpu']).toBe('2');
    expect(result.nodes.every((n) => Number(n.allocatable?.['nvidia.com/gpu'] ?? 0) < 2)).toBe(true);
    expect(pod('db-migrate-29034-vq8tn').phase).toBe('Succeeded');
    expect(result.notes).toContain(
      '1 pod(s) are neither Pending nor Running (1 Succeeded): imported as they are, but they hold no resources on their node',
    );
  });
});

describe('mapManifests: flattening and kinds', () => {
  it('takes the kind of kind-less items from their NodeList/PodList', () => {
    const result = mapManifests(
      [
        { kind: 'NodeList', apiVersion: 'v1', items: [{ metadata: { name: 'n1' } }] },
        { kind: 'PodList', apiVersion: 'v1', items: [{ metadata: { name: 'p1' }, spec: {} }] },
      ],
      NOW,
    );
    expect(result.errors).toEqual([]);
    expect(result.nodes.map((n) => n.name)).toEqual(['n1']);
    expect(result.pods.map((p) => `${p.namespace}/${p.name}`)).toEqual(['default/p1']);
  });

  it.each([
    ['spec.taints', { metadata: { name: 'n' }, spec: { taints: [] } }],
    ['status.nodeInfo', { metadata: { name: 'n' }, status: { nodeInfo: { kubeletVersion: 'v1.30.0' } } }],
    ['status.allocatable', { metadata: { name: 'n' }, status: { allocatable: { cpu: '1' } } }],
    ['spec.providerID', { metadata: { name: 'n' }, spec: { providerID: 'aws:///x' } }],
  ])('recognises a kind-less Node by %s', (_field, doc) => {
    const result = mapManifests([doc], NOW);
    expect(result.nodes.map((n) => n.name)).toEqual(['n']);
  });

  it('recognises a kind-less Pod by spec.containers', () => {
    expect(mapManifests([{ metadata: { name: 'p' }, spec: { containers: [] } }], NOW).pods.map((p) => p.name)).toEqual([
      'p',
    ]);
  });

  it('counts other kinds as skipped, in order of first appearance', () => {
    const result = mapManifests(
      [
        {
          kind: 'List',
          items: [
            { kind: 'Service', metadata: { name: 's' } },
            nodeObj('n'),
            { kind: 'Deployment', metadata: { name: 'd' } },
            { kind: 'Service', metadata: { name: 't' } },
          ],
        },
        { kind: 'EventList', items: [] },
        { kind: 'ReplicaSetList', apiVersion: 'apps/v1', items: [{ metadata: { name: 'rs' } }] },
      ],
      NOW,
    );
    expect(result.errors).toEqual([]);
    expect(result.skipped).toEqual([
      { kind: 'Service', count: 2 },
      { kind: 'Deployment', count: 1 },
      { kind: 'ReplicaSet', count: 1 },
    ]);
    expect(result.notes).toContain('skipped 4 object(s) of other kinds: 2 Service, 1 Deployment, 1 ReplicaSet');
  });

  it('accepts a top-level array and nested Lists', () => {
    const result = mapManifests(
      [
        [
          nodeObj('a'),
          { kind: 'List', items: [nodeObj('b'), { kind: 'PodList', items: [{ metadata: { name: 'p' } }] }] },
        ],
      ],
      NOW,
    );
    expect(result.errors).toEqual([]);
    expect(result.nodes.map((n) => n.name)).toEqual(['a', 'b']);
    expect(result.pods.map((p) => p.name)).toEqual(['p']);
  });

  it('reports an item it cannot place, and a non-object item, and imports the rest', () => {
    const result = mapManifests(
      [{ kind: 'List', items: [{ metadata: { name: 'mystery' } }, 'oops', nodeObj('ok')] }],
      NOW,
    );
    expect(result.nodes.map((n) => n.name)).toEqual(['ok']);
    expect(result.errors).toEqual([
      {
        index: 0,
        document: 0,
        kind: 'Unknown',
        field: 'items[0]',
        message:
          "cannot tell what this object is: it has no kind, is not in a NodeList or PodList, and has neither a Node's nor a Pod's fields",
      },
      { index: 1, document: 0, kind: 'Unknown', field: 'items[1]', message: 'expected an object, got a string "oops"' },
    ]);
  });

  it('reports a list whose items is not an array (when called without decodeManifests)', () => {
    const result = mapManifests([{ kind: 'PodList', items: 'x' }], NOW);
    expect(result.errors).toEqual([
      { index: 0, document: 0, kind: 'PodList', field: 'items', message: 'items must be an array, not a string "x"' },
    ]);
  });

  it('keeps the first of two objects with the same name and reports the second', () => {
    const result = mapManifests([{ kind: 'List', items: [nodeObj('n'), nodeObj('n'), podObj('p'), podObj('p')] }], NOW);
    expect(result.nodes).toHaveLength(1);
    expect(result.pods).toHaveLength(1);
    expect(result.errors.map((e) => e.message)).toEqual([
      'duplicate Node "n" (first seen as item 0); this one was left out',
      'duplicate Pod "default/p" (first seen as item 2); this one was left out',
    ]);
  });
});

describe('mapManifests: nodes', () => {
  it('maps the fields API.md names, with defaults', () => {
    const result = one(
      nodeObj('n1', {
        metadata: { name: 'n1', labels: { zone: 'a' }, annotations: { ignored: 'x' } },
        spec: {
          taints: [
            { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
            { key: 'maintenance', effect: 'NoExecute', timeAdded: '2025-03-01T10:00:00Z' },
            { key: 'legacy', value: null, effect: 'PreferNoSchedule', timeAdded: null },
          ],
        },
        status: {
          allocatable: { cpu: '4', memory: '16Gi', pods: 110 },
          conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2025-03-01T10:00:00Z' }],
        },
      }),
    );
    expect(result.errors).toEqual([]);
    expect(result.nodes[0]).toEqual({
      name: 'n1',
      labels: { zone: 'a' },
      taints: [
        { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
        { key: 'maintenance', value: '', effect: 'NoExecute', timeAdded: new Date('2025-03-01T10:00:00Z') },
        { key: 'legacy', value: '', effect: 'PreferNoSchedule' },
      ],
      unschedulable: false,
      conditions: [{ type: 'Ready', status: 'True' }],
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
    });
  });

  it('gives allocatable null, no taints and no labels for a bare node', () => {
    expect(one(nodeObj('bare')).nodes[0]).toEqual({
      name: 'bare',
      labels: {},
      taints: [],
      unschedulable: false,
      conditions: [],
      allocatable: null,
    });
  });

  it('passes semantically invalid taints through for the validators (empty key, unknown effect)', () => {
    const result = one(nodeObj('n', { spec: { taints: [{ key: '', effect: 'NoScheduled' }] } }));
    expect(result.errors).toEqual([]);
    expect(result.nodes[0].taints).toEqual([{ key: '', value: '', effect: 'NoScheduled' }]);
  });

  it.each([
    ['no name', { kind: 'Node', metadata: {} }, 'metadata.name', 'metadata.name: Required value'],
    [
      'taints not an array',
      nodeObj('n', { spec: { taints: { key: 'a' } } }),
      'items[0].spec.taints',
      'spec.taints: expected an array, got an object',
    ],
    [
      'a taint that is a string',
      nodeObj('n', { spec: { taints: ['a=b:NoSchedule'] } }),
      'items[0].spec.taints[0]',
      'spec.taints[0]: expected a taint object, got a string "a=b:NoSchedule"',
    ],
    [
      'a taint without key',
      nodeObj('n', { spec: { taints: [{ effect: 'NoSchedule' }] } }),
      'items[0].spec.taints[0].key',
      'spec.taints[0].key: Required value',
    ],
    [
      'a taint without effect',
      nodeObj('n', { spec: { taints: [{ key: 'a' }] } }),
      'items[0].spec.taints[0].effect',
      'spec.taints[0].effect: Required value',
    ],
    [
      'an effect of the wrong type',
      nodeObj('n', { spec: { taints: [{ key: 'a', effect: 1 }] } }),
      'items[0].spec.taints[0].effect',
      'spec.taints[0].effect: expected a string, got a number 1',
    ],
    [
      'a boolean taint value (unquoted YAML true)',
      nodeObj('n', { spec: { taints: [{ key: 'a', value: true, effect: 'NoSchedule' }] } }),
      'items[0].spec.taints[0].value',
      'spec.taints[0].value: expected a string, got a boolean true',
    ],
    [
      'a bad timeAdded',
      nodeObj('n', { spec: { taints: [{ key: 'a', effect: 'NoExecute', timeAdded: 'yesterday' }] } }),
      'items[0].spec.taints[0].timeAdded',
      'spec.taints[0].timeAdded: expected an RFC 3339 time such as "2024-05-01T12:00:00Z", got a string "yesterday"',
    ],
    [
      'a numeric label value',
      nodeObj('n', { metadata: { name: 'n', labels: { zone: 1 } } }),
      'items[0].metadata.labels["zone"]',
      'metadata.labels["zone"]: expected a string, got a number 1',
    ],
    [
      'unschedulable as a string',
      nodeObj('n', { spec: { unschedulable: 'true' } }),
      'items[0].spec.unschedulable',
      'spec.unschedulable: expected a boolean, got a string "true"',
    ],
    [
      'conditions not an array',
      nodeObj('n', { status: { conditions: {} } }),
      'items[0].status.conditions',
      'status.conditions: expected an array, got an object',
    ],
    [
      'a condition without status',
      nodeObj('n', { status: { conditions: [{ type: 'Ready' }] } }),
      'items[0].status.conditions[0].status',
      'status.conditions[0].status: Required value',
    ],
    [
      'an allocatable that is a list',
      nodeObj('n', { status: { allocatable: ['cpu'] } }),
      'items[0].status.allocatable',
      'status.allocatable: expected an object, got an array',
    ],
  ])('reports %s and imports the other items', (_label, bad, field, message) => {
    const result = mapManifests([{ kind: 'List', items: [bad, nodeObj('good')] }], NOW);
    expect(result.nodes.map((n) => n.name)).toEqual(['good']);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ index: 0, kind: 'Node', message });
    expect(result.errors[0].field).toBe(field === 'metadata.name' ? 'items[0].metadata.name' : field);
    expect(result.summary.errors).toBe(1);
  });

  it('names the node in its errors when it has a name', () => {
    const result = one(nodeObj('n9', { spec: { taints: 'x' } }));
    expect(result.errors[0]).toMatchObject({ kind: 'Node', name: 'n9' });
  });
});

describe('mapManifests: pods', () => {
  it('maps a minimal pod with the defaults', () => {
    expect(one({ kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } }).pods[0]).toEqual({
      namespace: 'default',
      name: 'p',
      labels: {},
      nodeName: null,
      phase: 'Pending',
      boundAt: null,
      tolerations: [],
      nodeSelector: {},
      affinity: null,
      priority: 0,
      owner: null,
      resources: {},
      hostNetwork: false,
    });
  });

  it('keeps the uid, an unknown phase as given, nodeSelector, priority and hostNetwork', () => {
    const p = onePod(
      podObj(
        'p',
        { nodeName: 'n1', nodeSelector: { disk: 'ssd' }, priority: 1000, hostNetwork: true },
        {
          metadata: { name: 'p', namespace: 'ns', uid: 'u-1', creationTimestamp: '2025-03-01T00:00:00Z' },
          status: { phase: 'Unknown' },
        },
      ),
    );
    expect(p).toMatchObject({
      namespace: 'ns',
      uid: 'u-1',
      nodeName: 'n1',
      phase: 'Unknown',
      nodeSelector: { disk: 'ssd' },
      priority: 1000,
      hostNetwork: true,
    });
  });

  describe('boundAt', () => {
    const scheduled = { type: 'PodScheduled', status: 'True', lastTransitionTime: '2025-03-01T10:00:01Z' };
    const status = (conditions: unknown[], startTime?: string) => ({
      phase: 'Running',
      conditions,
      ...(startTime ? { startTime } : {}),
    });
    const created = { name: 'p', namespace: 'default', creationTimestamp: '2025-03-01T09:59:00Z' };

    it.each([
      [
        'the PodScheduled condition when True',
        status([scheduled], '2025-03-01T10:00:05Z'),
        created,
        '2025-03-01T10:00:01Z',
      ],
      [
        'else startTime (PodScheduled not True)',
        status([{ ...scheduled, status: 'False' }], '2025-03-01T10:00:05Z'),
        created,
        '2025-03-01T10:00:05Z',
      ],
      ['else creationTimestamp', status([]), created, '2025-03-01T09:59:00Z'],
      ['else now (and say so)', status([]), { name: 'p' }, NOW.toISOString()],
    ])('is %s', (_label, podStatus, metadata, expected) => {
      const result = one(podObj('p', { nodeName: 'n1' }, { metadata, status: podStatus }));
      expect(result.pods[0].boundAt).toEqual(new Date(expected));
      expect(result.summary.boundAtDefaultedToNow).toBe(expected === NOW.toISOString() ? 1 : 0);
    });

    it('is null for an unbound pod, whatever its times', () => {
      expect(
        onePod(podObj('p', {}, { metadata: created, status: status([scheduled], '2025-03-01T10:00:05Z') })).boundAt,
      ).toBeNull();
    });
  });

  it('keeps tolerations in order with only the fields they had', () => {
    const tolerations = [
      { operator: 'Exists' },
      { key: 'a', operator: 'Equal', value: 'b', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'x', value: null, effect: '', tolerationSeconds: null, unknownField: 1 },
      { key: 'n', operator: 'Gt', value: '5', effect: 'NoExecute', tolerationSeconds: -1 },
    ];
    expect(onePod(podObj('p', { tolerations })).tolerations).toEqual([
      { operator: 'Exists' },
      { key: 'a', operator: 'Equal', value: 'b', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'x', effect: '' },
      { key: 'n', operator: 'Gt', value: '5', effect: 'NoExecute', tolerationSeconds: -1 },
    ]);
  });

  it('keeps only nodeAffinity and counts the pods whose pod (anti-)affinity was dropped', () => {
    const nodeAffinity = {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
      },
      preferredDuringSchedulingIgnoredDuringExecution: [
        { weight: 10, preference: { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n2'] }] } },
      ],
    };
    const podAffinity = { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname' }] };
    const result = mapManifests(
      [
        {
          kind: 'List',
          items: [
            podObj('both', { affinity: { nodeAffinity, podAffinity } }),
            podObj('pod-only', { affinity: { podAntiAffinity: podAffinity } }),
            podObj('node-only', { affinity: { nodeAffinity } }),
          ],
        },
      ],
      NOW,
    );
    expect(result.errors).toEqual([]);
    expect(result.pods.map((p) => p.affinity)).toEqual([{ nodeAffinity }, null, { nodeAffinity }]);
    expect(result.summary.podAffinityDropped).toBe(2);
  });

  it('takes the controlling owner reference, else the first', () => {
    const refs = (list: unknown[]) => onePod(podObj('p', {}, { metadata: { name: 'p', ownerReferences: list } })).owner;
    expect(
      refs([
        { kind: 'Foo', name: 'f' },
        { kind: 'ReplicaSet', name: 'rs', controller: true },
      ]),
    ).toEqual({ kind: 'ReplicaSet', name: 'rs' });
    expect(
      refs([
        { kind: 'Foo', name: 'f', apiVersion: 'x/v1', uid: 'u' },
        { kind: 'Bar', name: 'b' },
      ]),
    ).toEqual({ kind: 'Foo', name: 'f' });
    expect(refs([])).toBeNull();
  });

  describe('resources (component-helpers PodRequests / PodLimits)', () => {
    const c = (requests?: Record<string, string>, limits?: Record<string, string>, restartPolicy?: string) => ({
      name: 'c',
      resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
      ...(restartPolicy ? { restartPolicy } : {}),
    });

    it('sums containers, a limit standing in for a missing request', () => {
      expect(
        onePod(
          podObj('p', { containers: [c({ cpu: '100m', memory: '64Mi' }), c(undefined, { cpu: '1', memory: '1Gi' })] }),
        ).resources,
      ).toEqual({ requests: { cpu: '1100m', memory: '1088Mi' }, limits: { cpu: '1', memory: '1Gi' } });
    });

    it('takes the max with init containers, adds sidecars, and adds overhead (to limits only where set)', () => {
      const p = onePod(
        podObj('p', {
          initContainers: [
            c({ cpu: '2' }, { cpu: '2' }),
            c({ cpu: '100m', memory: '100Mi' }, { memory: '200Mi' }, 'Always'),
          ],
          containers: [c({ cpu: '500m', memory: '1Gi' }, { memory: '2Gi' })],
          overhead: { cpu: '250m', memory: '120Mi' },
        }),
      );
      // requests: cpu max(2, 0.5 + 0.1) + 0.25 overhead; memory 1Gi + 100Mi sidecar + 120Mi overhead.
      // limits: cpu max(2, 0) + 0.25 (a limit exists, so overhead is added); memory 2Gi + 200Mi + 120Mi.
      expect(p.resources).toEqual({
        requests: { cpu: '2250m', memory: '1244Mi' },
        limits: { cpu: '2250m', memory: '2368Mi' },
      });
    });

    it('lets pod-level resources replace the aggregate for cpu and memory', () => {
      const p = onePod(
        podObj('p', {
          resources: { requests: { cpu: '1' }, limits: { cpu: '2', memory: '4Gi' } },
          containers: [c({ cpu: '100m', memory: '1Gi', 'nvidia.com/gpu': '1' }, { 'nvidia.com/gpu': '1' })],
        }),
      );
      expect(p.resources).toEqual({
        requests: { cpu: '1', memory: '4Gi', 'nvidia.com/gpu': '1' },
        limits: { 'nvidia.com/gpu': '1', cpu: '2', memory: '4Gi' },
      });
    });

    it('accepts numeric quantities and rejects bad ones as item errors', () => {
      expect(
        onePod(podObj('p', { containers: [{ name: 'c', resources: { requests: { cpu: 2 } } }] })).resources,
      ).toEqual({ requests: { cpu: '2' } });
      const result = one(podObj('p', { containers: [c({ cpu: 'lots' })] }));
      expect(result.pods).toEqual([]);
      expect(result.errors).toEqual([
        expect.objectContaining({
          kind: 'Pod',
          name: 'default/p',
          field: 'items[0].spec.containers[0].resources.requests.cpu',
        }),
      ]);
      expect(result.errors[0].message).toMatch(
        /^spec\.containers\[0\]\.resources\.requests\.cpu: Invalid value: "lots"/,
      );
    });
  });

  it.each([
    [
      'no name',
      { kind: 'Pod', metadata: { namespace: 'x', generateName: 'p-' }, spec: {} },
      'metadata.name: Required value',
    ],
    [
      'tolerations not an array',
      podObj('p', { tolerations: { key: 'a' } }),
      'spec.tolerations: expected an array, got an object',
    ],
    [
      'a toleration that is a string',
      podObj('p', { tolerations: ['a'] }),
      'spec.tolerations[0]: expected a toleration object, got a string "a"',
    ],
    [
      'tolerationSeconds as a string',
      podObj('p', { tolerations: [{ key: 'a', effect: 'NoExecute', tolerationSeconds: '300' }] }),
      'spec.tolerations[0].tolerationSeconds: expected an integer, got a string "300"',
    ],
    [
      'tolerationSeconds with a fraction',
      podObj('p', { tolerations: [{ key: 'a', effect: 'NoExecute', tolerationSeconds: 1.5 }] }),
      'spec.tolerations[0].tolerationSeconds: expected an integer, got a number 1.5',
    ],
    [
      'a numeric toleration value',
      podObj('p', { tolerations: [{ key: 'a', value: 1 }] }),
      'spec.tolerations[0].value: expected a string, got a number 1',
    ],
    [
      'priority as a string',
      podObj('p', { priority: 'high' }),
      'spec.priority: expected an integer, got a string "high"',
    ],
    [
      'containers not an array',
      podObj('p', { containers: { name: 'c' } }),
      'spec.containers: expected an array, got an object',
    ],
    [
      'a nodeSelector value that is a number',
      podObj('p', { nodeSelector: { gpu: 1 } }),
      'spec.nodeSelector["gpu"]: expected a string, got a number 1',
    ],
    [
      'nodeSelectorTerms not an array',
      podObj('p', {
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: {} } } },
      }),
      'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: expected an array, got an object',
    ],
    [
      'an owner reference without kind',
      podObj('p', {}, { metadata: { name: 'p', ownerReferences: [{ name: 'x' }] } }),
      'metadata.ownerReferences[0].kind: Required value',
    ],
    [
      'a bad PodScheduled time',
      podObj(
        'p',
        { nodeName: 'n' },
        { status: { conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: 'then' }] } },
      ),
      'status.conditions[0].lastTransitionTime: expected an RFC 3339 time such as "2024-05-01T12:00:00Z", got a string "then"',
    ],
  ])('reports %s and imports the other items', (_label, bad, message) => {
    const result = mapManifests([{ kind: 'List', items: [bad, podObj('good')] }], NOW);
    expect(result.pods.map((p) => p.name)).toEqual(['good']);
    expect(result.errors.map((e) => e.message)).toEqual([message]);
    expect(result.errors[0]).toMatchObject({ index: 0, kind: 'Pod' });
  });
});

describe('parseImportBody', () => {
  it('answers ok with nodes, pods and all the notes', () => {
    const body = `${JSON.stringify({ kind: 'NodeList', items: [{ metadata: { name: 'n' } }] })}\nnot json any more`;
    const result = parseImportBody(body, 'application/json', NOW);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.format).toBe('json-stream');
    expect(result.nodes.map((n) => n.name)).toEqual(['n']);
    expect(result.notes).toEqual([expect.stringMatching(/^stopped at line 2/)]);
  });

  it('answers not ok with the decode errors', () => {
    expect(parseImportBody('{"kind":', undefined, NOW)).toEqual({
      ok: false,
      notes: [],
      errors: [
        expect.objectContaining({
          kind: 'Document',
          message: expect.stringMatching(/^invalid JSON at line 1, column 9/),
        }),
      ],
    });
  });
});

describe('mapManifests: odd documents', () => {
  it('numbers documents as given, even after a non-object one', () => {
    const result = mapManifests([42, { kind: 'NodeList', items: [{ metadata: {} }] }], NOW);
    expect(result.errors).toEqual([
      { index: 0, document: 0, kind: 'Document', message: 'document 1 is a number 42; expected a Kubernetes object' },
      expect.objectContaining({ index: 0, document: 1, kind: 'Node', field: 'items[0].metadata.name' }),
    ]);
  });

  it('reports a __proto__ label key instead of dropping it silently', () => {
    const result = mapManifests(
      JSON.parse('[{"kind":"Node","metadata":{"name":"n","labels":{"__proto__":"x"}}}]'),
      NOW,
    );
    expect(result.errors.map((e) => e.message)).toEqual([
      'metadata.labels["__proto__"]: Invalid value: not a valid key',
    ]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
