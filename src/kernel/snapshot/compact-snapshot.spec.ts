import { buildStoredInventory } from '../../../bench/ceiling';
import { generateInventory } from '../../../bench/generate-inventory';
import { decideFeasibleNodes } from '../../domain/scheduling/feasible-nodes';
import { isActivePhase, type StoredNode, type StoredPod } from '../model/stored-objects';
import { InventorySnapshot } from './inventory-snapshot';

/**
 * The snapshot keeps pods in columns (pod-store.ts, names and uids as bytes: pod-keys.ts) and nodes as compact
 * records (node-records.ts). This compares it, on the bench's generated inventory, with the plain object model
 * it replaced: every active pod as stored, the pods per node in the same order, the pending pods, each node's
 * summed requests, and feasible-nodes answers; then again after a series of changes (rebinds, phase changes,
 * deletes, new specs); and every node as stored, before and after one changes.
 */
type Reference = Map<string, StoredPod>;
const key = (p: { namespace: string; name: string }) => `${p.namespace}/${p.name}`;

function reference(pods: readonly StoredPod[]): Reference {
  const ref: Reference = new Map();
  for (const p of pods) if (isActivePhase(p.phase)) ref.set(key(p), p);
  return ref;
}

function expectSame(snapshot: InventorySnapshot, ref: Reference, nodeNames: string[]): void {
  expect(snapshot.podCount).toBe(ref.size);
  for (const p of ref.values()) expect(snapshot.pod(p.namespace, p.name)).toEqual(p);
  const refPods = [...ref.values()];
  for (const node of nodeNames) {
    const expected = refPods.filter((p) => p.nodeName === node);
    expect(snapshot.podsOn(node).map(key).sort()).toEqual(expected.map(key).sort());
    // the light views taint-impact reads: the same pods, in the same order, with the stored values
    const views = snapshot.boundPodViews(node);
    expect(views.map(key)).toEqual(snapshot.podsOn(node).map(key));
    for (const view of views) {
      const p = ref.get(key(view))!;
      const { slot, ...read } = view;
      expect(read).toEqual({
        namespace: p.namespace,
        name: p.name,
        labels: p.labels,
        phase: p.phase,
        owner: p.owner,
        tolerations: p.tolerations,
        boundAt: p.boundAt ?? p.createdAt,
      });
      expect(snapshot.storedPod(view)).toEqual(p);
      expect(typeof slot).toBe('number');
    }
    const requested: Record<string, number> = { pods: expected.length };
    for (const p of expected)
      for (const [r, v] of Object.entries(p.requests)) if (r !== 'pods') requested[r] = (requested[r] ?? 0) + v;
    const actual = Object.fromEntries(
      Object.entries(snapshot.schedulingNode(node)!.requested).filter(([, v]) => v !== 0),
    );
    expect(actual).toEqual(Object.fromEntries(Object.entries(requested).filter(([, v]) => v !== 0)));
  }
  expect(snapshot.namespaces()).toEqual([...new Set(refPods.map((p) => p.namespace))].sort());
  expect(snapshot.pending().map(key).sort()).toEqual(
    refPods
      .filter((p) => p.nodeName === null)
      .map(key)
      .sort(),
  );
}

describe('the compact snapshot against the object model, on the bench inventory', () => {
  const inv = generateInventory({ nodes: 120, pods: 3000, seed: 7, drainSeconds: 30 });
  const { nodes, pods } = buildStoredInventory(inv);
  const nodeNames = nodes.map((n) => n.name);

  it('holds every active pod as stored, per node and pending, with the same requested sums', () => {
    const snapshot = new InventorySnapshot();
    snapshot.load(nodes, pods);
    expectSame(snapshot, reference(pods), nodeNames);
  });

  it('stays equal through rebinds, phase changes, deletes and pods with new specs', () => {
    const snapshot = new InventorySnapshot();
    snapshot.load(nodes, pods);
    const ref = reference(pods);
    const later = new Date('2031-02-03T04:05:06.789Z');
    pods.forEach((p, i) => {
      let next: StoredPod | undefined;
      if (i % 7 === 0)
        next = {
          ...p,
          nodeName: nodeNames[(i * 13) % nodeNames.length],
          phase: 'Running',
          boundAt: later,
          resourceVersion: String(1000 + i),
          updatedAt: later,
        };
      else if (i % 11 === 0) next = { ...p, phase: 'Succeeded', updatedAt: later };
      else if (i % 13 === 0)
        next = {
          ...p,
          nodeName: null,
          phase: 'Pending',
          boundAt: null,
          tolerations: [{ key: `k${i}`, operator: 'Exists' }],
          requests: { cpu: i, pods: 1 },
        };
      else if (i % 17 === 0) {
        snapshot.removePod(p.namespace, p.name);
        ref.delete(key(p));
        return;
      }
      if (!next) return;
      snapshot.upsertPod(next);
      if (isActivePhase(next.phase)) ref.set(key(next), next);
      else ref.delete(key(next));
    });
    for (let i = 0; i < 50; i++) {
      const p: StoredPod = {
        ...pods[i],
        name: `new-${i}`,
        uid: `uid-new-${i}`,
        owner: { kind: 'Job', name: `job-${i % 3}` },
        resourceVersion: i % 2 ? 'not-a-number' : '42',
      };
      snapshot.upsertPod(p);
      if (isActivePhase(p.phase)) ref.set(key(p), p);
    }
    expectSame(snapshot, ref, nodeNames);

    // A snapshot loaded from the same pods as objects answers feasible-nodes the same.
    const fresh = new InventorySnapshot();
    fresh.load(nodes, [...ref.values()]);
    const pod = { spec: { tolerations: [], nodeSelector: {} }, requests: { cpu: 500, memory: 2 ** 30 } };
    expect(decideFeasibleNodes(pod, snapshot.schedulingNodes(), { limit: 50 })).toEqual(
      decideFeasibleNodes(pod, fresh.schedulingNodes(), { limit: 50 }),
    );
  });

  it('gives back every node as stored, and shares the taint lists and allocatable lists nodes have in common', () => {
    const snapshot = new InventorySnapshot();
    snapshot.load(nodes, pods);
    const expectNode = (node: StoredNode) => {
      const read = snapshot.node(node.name)!;
      expect(read).toEqual(node);
      expect(JSON.stringify(read)).toBe(JSON.stringify(node));
      expect(snapshot.nodeTaints(node.name)).toEqual(node.taints);
      expect(snapshot.nodeResourceVersion(node.name)).toBe(node.resourceVersion);
    };
    nodes.forEach(expectNode);
    expect([...snapshot.allNodes()].sort((a, b) => (a.name < b.name ? -1 : 1))).toEqual(
      [...nodes].sort((a, b) => (a.name < b.name ? -1 : 1)),
    );

    const byTaints = new Map<string, StoredNode>();
    const byAllocatable = new Map<string, StoredNode>();
    let shared = 0;
    for (const node of nodes) {
      const taintsText = JSON.stringify(node.taints);
      const first = byTaints.get(taintsText);
      if (first && node.taints.length > 0) {
        expect(snapshot.nodeTaints(node.name)).toBe(snapshot.nodeTaints(first.name));
        shared++;
      } else byTaints.set(taintsText, node);
      const allocatableText = JSON.stringify(node.allocatable);
      const firstAllocatable = byAllocatable.get(allocatableText);
      if (firstAllocatable && node.allocatable !== null) {
        expect(snapshot.node(node.name)!.allocatable).toBe(snapshot.node(firstAllocatable.name)!.allocatable);
        expect(snapshot.schedulingNode(node.name)!.allocatable).toBe(
          snapshot.schedulingNode(firstAllocatable.name)!.allocatable,
        );
      } else byAllocatable.set(allocatableText, node);
    }
    expect(shared).toBeGreaterThan(0);

    // Changed taints (a new timeAdded), conditions and version: the record is rebuilt, the others untouched.
    const changed: StoredNode = {
      ...nodes[0],
      taints: [{ key: 'k', value: 'v', effect: 'NoExecute', timeAdded: new Date('2031-01-01T00:00:00.123Z') }],
      conditions: [
        { type: 'Ready', status: 'False', reason: 'KubeletNotReady', lastTransitionTime: new Date(1_900_000_000_000) },
        { type: 'DiskPressure', status: 'Unknown' },
      ],
      unschedulable: true,
      resourceVersion: '987654',
      updatedAt: new Date('2031-01-01T00:00:01.000Z'),
    };
    snapshot.upsertNode(changed);
    expectNode(changed);
    expect(snapshot.schedulingNode(changed.name)!.taints).toEqual([{ key: 'k', value: 'v', effect: 'NoExecute' }]);
    expect(snapshot.schedulingNode(changed.name)!.unschedulable).toBe(true);
    nodes.slice(1).forEach(expectNode);
  });
});
