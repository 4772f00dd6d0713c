import { decideFeasibleNodes } from '../../domain/scheduling/feasible-nodes';
import { projectLabels, resourceFree } from '../../domain/scheduling/node-table';
import type { StoredNode, StoredPod } from '../model/stored-objects';
import { InventorySnapshot } from './inventory-snapshot';

const at = new Date('2026-01-01T00:00:00Z');
const node = (name: string, over: Partial<StoredNode> = {}): StoredNode => ({
  name,
  labels: { zone: 'a' },
  taints: [],
  unschedulable: false,
  conditions: [],
  allocatable: { cpu: '1', memory: '8Gi', pods: '110', 'nvidia.com/gpu': '2' },
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
  requests: { cpu: 600 },
  hostNetwork: false,
  resourceVersion: '1',
  createdAt: at,
  updatedAt: at,
  ...over,
});
const wants = (cpu: number) => ({ spec: { tolerations: [] }, requests: { cpu } });

describe('InventorySnapshot.schedulingTable (scheduling-view.ts)', () => {
  it('is built once and kept while nothing changes', () => {
    const s = new InventorySnapshot();
    s.load([node('b'), node('a')], []);
    const table = s.schedulingTable();
    expect(table.names).toEqual(['a', 'b']);
    expect(s.schedulingTable()).toBe(table);
    expect(table.nodes).toBe(s.schedulingNodes());
  });

  it('a pod change recomputes the resources of its node only, sharing taint classes and label groups', () => {
    const s = new InventorySnapshot();
    s.load([node('a'), node('b')], []);
    const before = s.schedulingTable();
    const zones = projectLabels(before, { labels: ['zone'], name: false });
    resourceFree(before, 'nvidia.com/gpu');
    s.upsertPod(pod('p1', { nodeName: 'b', phase: 'Running', requests: { cpu: 600, 'nvidia.com/gpu': 1 } }));
    const after = s.schedulingTable();
    expect(after).not.toBe(before);
    expect([...after.cpuFree]).toEqual([1000, 400]);
    expect([...resourceFree(after, 'nvidia.com/gpu')]).toEqual([2, 1]);
    expect([...before.cpuFree]).toEqual([1000, 1000]); // tables are immutable
    expect(after.taintClassOf).toBe(before.taintClassOf);
    expect(projectLabels(after, { labels: ['zone'], name: false })).toBe(zones);
    expect(after.nodes).toBe(before.nodes);
    s.removePod('default', 'p1');
    expect([...s.schedulingTable().cpuFree]).toEqual([1000, 1000]);
  });

  it('a node change rebuilds it (labels, taints, cordon, new and removed nodes)', () => {
    const s = new InventorySnapshot();
    s.load([node('a'), node('b')], []);
    const before = s.schedulingTable();
    s.upsertNode(
      node('b', {
        labels: { zone: 'b' },
        unschedulable: true,
        taints: [{ key: 'k', value: '', effect: 'NoSchedule' }],
      }),
    );
    const after = s.schedulingTable();
    expect(after.labelCaches).not.toBe(before.labelCaches);
    expect([...after.unschedulable]).toEqual([0, 1]);
    expect([...after.taintClassOf]).toEqual([0, 1]);
    expect(projectLabels(after, { labels: ['zone'], name: false }).classCount).toBe(2);
    s.upsertNode(node('0'));
    s.removeNode('a');
    expect(s.schedulingTable().names).toEqual(['0', 'b']);
  });

  it('decisions over schedulingNodes() use the table and see every change (cache invalidation)', () => {
    const s = new InventorySnapshot();
    s.load([node('a'), node('b')], [pod('p1', { nodeName: 'a', phase: 'Running' })]);
    const nodes = s.schedulingNodes();
    expect(decideFeasibleNodes(wants(500), nodes).feasibleCount).toBe(1);
    s.upsertPod(pod('p2', { nodeName: 'b', phase: 'Running' }));
    expect(s.schedulingNodes()).toBe(nodes); // pod changes keep the node array
    expect(decideFeasibleNodes(wants(500), s.schedulingNodes()).message).toBe(
      '0/2 nodes are available: 2 Insufficient cpu.',
    );
    s.removePod('default', 'p1');
    expect(decideFeasibleNodes(wants(500), s.schedulingNodes()).nodes.map((n) => n.name)).toEqual(['a', 'b']);
    s.upsertNode(node('c', { allocatable: null }));
    const fresh = s.schedulingNodes();
    expect(fresh).not.toBe(nodes);
    expect(decideFeasibleNodes(wants(500), fresh).feasibleCount).toBe(2);
    // The old array is no longer attached to the current table: it gets a table of its own.
    expect(decideFeasibleNodes(wants(500), nodes).totalNodes).toBe(2);
  });

  it('answers like a fresh snapshot after a series of changes', () => {
    const s = new InventorySnapshot();
    s.load([node('a'), node('b'), node('c')], []);
    s.schedulingTable();
    s.upsertPod(pod('p1', { nodeName: 'a', phase: 'Running' }));
    s.schedulingTable();
    s.upsertPod(pod('p2', { nodeName: 'c', phase: 'Running' }));
    s.upsertPod(pod('p1', { nodeName: 'b', phase: 'Running' }));
    s.upsertPod(pod('p3', { nodeName: 'b', phase: 'Succeeded' }));
    const fresh = new InventorySnapshot();
    fresh.load(
      [node('a'), node('b'), node('c')],
      [pod('p1', { nodeName: 'b', phase: 'Running' }), pod('p2', { nodeName: 'c', phase: 'Running' })],
    );
    for (const cpu of [100, 400, 500, 1000])
      expect(decideFeasibleNodes(wants(cpu), s.schedulingTable())).toEqual(
        decideFeasibleNodes(wants(cpu), fresh.schedulingTable()),
      );
  });
});
