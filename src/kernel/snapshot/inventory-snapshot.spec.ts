import type { StoredNode, StoredPod } from '../model/stored-objects';
import { InventorySnapshot } from './inventory-snapshot';

const at = new Date('2026-01-01T00:00:00Z');
const node = (name: string, over: Partial<StoredNode> = {}): StoredNode => ({
  name,
  labels: {},
  taints: [],
  unschedulable: false,
  conditions: [],
  allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
  resourceVersion: '1',
  createdAt: at,
  updatedAt: at,
  ...over,
});
const pod = (name: string, over: Partial<StoredPod> = {}): StoredPod => ({
  namespace: 'default',
  name,
  uid: `uid-${name}`,
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
  requests: { cpu: 100, memory: 1024 },
  hostNetwork: false,
  resourceVersion: '1',
  createdAt: at,
  updatedAt: at,
  ...over,
});

describe('InventorySnapshot', () => {
  it('lists the nodes with a label value by name, and follows the nodes as they change', () => {
    const s = new InventorySnapshot();
    s.load(
      [
        node('c', { labels: { pool: 'search' } }),
        node('a', { labels: { pool: 'search', zone: 'x' } }),
        node('b', { labels: { pool: 'batch' } }),
        node('d', { labels: {} }),
      ],
      [],
    );
    const names = (key: string, value: string) => s.nodesLabelled(key, value).map((n) => n.name);
    expect(names('pool', 'search')).toEqual(['a', 'c']);
    expect(names('pool', 'none')).toEqual([]);
    expect(names('zone', 'x')).toEqual(['a']);
    s.upsertNode(node('b', { labels: { pool: 'search' } }));
    s.upsertNode(node('e', { labels: { pool: 'search' } }));
    s.removeNode('c');
    expect(names('pool', 'search')).toEqual(['a', 'b', 'e']);
    expect(names('pool', 'batch')).toEqual([]);
    // the same node views as schedulingNodes
    expect(s.nodesLabelled('pool', 'search')[0]).toBe(s.schedulingNode('a'));
  });

  it('sorts nodes by name and interns identical taint sets into one array', () => {
    const s = new InventorySnapshot();
    const gpu = [{ key: 'gpu', value: 'true', effect: 'NoSchedule' as const, timeAdded: at }];
    s.load([node('b', { taints: gpu }), node('a', { taints: [{ ...gpu[0], timeAdded: new Date(0) }] }), node('c')], []);
    const nodes = s.schedulingNodes();
    expect(nodes.map((n) => n.name)).toEqual(['a', 'b', 'c']);
    expect(nodes[0].taints).toBe(nodes[1].taints);
    expect(nodes[0].taints[0]).toEqual({ key: 'gpu', value: 'true', effect: 'NoSchedule' });
    expect(nodes[2].taints).toHaveLength(0);
  });

  it('parses allocatable once into canonical units', () => {
    const s = new InventorySnapshot();
    s.load([node('a')], []);
    expect(s.schedulingNode('a')?.allocatable).toEqual({ cpu: 4000, memory: 8 * 1024 ** 3, pods: 110 });
  });

  it('sums requests of active bound pods, moves them on rebind and forgets them on delete', () => {
    const s = new InventorySnapshot();
    s.load(
      [node('a'), node('b')],
      [pod('p1', { nodeName: 'a', phase: 'Running' }), pod('p2', { nodeName: 'a', phase: 'Succeeded' }), pod('p3')],
    );
    expect(s.schedulingNode('a')?.requested).toEqual({ pods: 1, cpu: 100, memory: 1024 });
    expect(s.pending().map((p) => p.name)).toEqual(['p3']);
    s.upsertPod(pod('p3', { nodeName: 'b', phase: 'Running' }));
    expect(s.pending()).toHaveLength(0);
    expect(s.schedulingNode('b')?.requested).toEqual({ pods: 1, cpu: 100, memory: 1024 });
    s.upsertPod(pod('p1', { nodeName: 'b', phase: 'Running' }));
    expect(s.schedulingNode('a')?.requested).toEqual({ pods: 0, cpu: 0, memory: 0 });
    expect(
      s
        .podsOn('b')
        .map((p) => p.name)
        .sort(),
    ).toEqual(['p1', 'p3']);
    s.removePod('default', 'p1');
    expect(s.schedulingNode('b')?.requested).toEqual({ pods: 1, cpu: 100, memory: 1024 });
    expect(s.podCount).toBe(1); // p2 (Succeeded) is not kept
  });

  it('keeps the requests of bound pods when their node is replaced or arrives after them', () => {
    const s = new InventorySnapshot();
    s.load([], [pod('p1', { nodeName: 'late', phase: 'Running' })]);
    s.upsertNode(node('late'));
    expect(s.schedulingNode('late')?.requested.pods).toBe(1);
    s.upsertNode(node('late', { labels: { zone: 'a' } }));
    expect(s.schedulingNode('late')?.requested.pods).toBe(1);
    expect(s.schedulingNode('late')?.labels).toEqual({ zone: 'a' });
  });

  it('bumps changeCount on every change and re-sorts after a node is added or removed', () => {
    const s = new InventorySnapshot();
    s.load([node('b')], []);
    const before = s.changeCount;
    s.upsertNode(node('a'));
    expect(s.schedulingNodes().map((n) => n.name)).toEqual(['a', 'b']);
    s.removeNode('b');
    expect(s.schedulingNodes().map((n) => n.name)).toEqual(['a']);
    expect(s.changeCount).toBe(before + 2);
    expect(s.node('a')?.name).toBe('a');
    expect([...s.allNodes()].map((n) => n.name)).toEqual(['a']);
  });
});

describe('InventorySnapshot: values kept in compact form', () => {
  const daemonAffinity = (nodeName: string): NonNullable<StoredPod['affinity']> => ({
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
      },
    },
  });

  it('reads back every affinity equal to the one stored, also after more distinct ones were read than it keeps revived', () => {
    const s = new InventorySnapshot();
    const names = Array.from({ length: 600 }, (_, i) => `n-${i}`);
    s.load(
      names.map((n) => node(n)),
      names.map((n) => pod(`ds-${n}`, { nodeName: n, phase: 'Running', affinity: daemonAffinity(n) })),
    );
    for (const round of [0, 1])
      for (const n of names) {
        expect(s.pod('default', `ds-${n}`)!.affinity).toEqual(daemonAffinity(n));
        expect(s.podColumns().affinityOf(s.boundSlots(n)[0])).toEqual(daemonAffinity(n));
        if (round === 1) expect(s.podsOn(n).map((p) => p.name)).toEqual([`ds-${n}`]);
      }
  });

  it('lists a node’s bound pods first bound first, through removals and re-binding', () => {
    const s = new InventorySnapshot();
    s.load(
      [node('a'), node('b')],
      ['p1', 'p2', 'p3'].map((n) => pod(n, { nodeName: 'a', phase: 'Running' })),
    );
    s.removePod('default', 'p1');
    s.upsertPod(pod('p1', { nodeName: 'a', phase: 'Running' }));
    s.upsertPod(pod('p2', { nodeName: 'b', phase: 'Running' }));
    expect(s.podsOn('a').map((p) => p.name)).toEqual(['p3', 'p1']);
    expect(s.podsOn('b').map((p) => p.name)).toEqual(['p2']);
    expect(s.podsOn('none')).toEqual([]);
    s.upsertPod(pod('p3', { nodeName: null, phase: 'Pending' }));
    expect(s.podsOn('a').map((p) => p.name)).toEqual(['p1']);
    expect(s.pending().map((p) => p.name)).toEqual(['p3']);
  });
});
