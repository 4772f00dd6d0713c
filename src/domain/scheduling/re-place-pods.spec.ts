import fc from 'fast-check';
import { tolerationsTolerateTaint } from '../tolerations/tolerations-tolerate-taint';
import type { SchedulingNode, Taint, Toleration } from '../types';
import { compilePod } from './compile-pod';
import { buildNodeTable } from './node-table';
import { rePlacePods } from './re-place-pods';

const node = (name: string, over: Partial<SchedulingNode> = {}): SchedulingNode => ({
  name,
  labels: {},
  taints: [],
  unschedulable: false,
  allocatable: { cpu: 1000, memory: 1000, pods: 10 },
  requested: { pods: 0 },
  ...over,
});

const pod = (cpu: number, tolerations: Toleration[] = [], group = `cpu${cpu}`) => {
  const requests = { cpu };
  return { compiled: compilePod({ spec: { tolerations }, requests }), requests, group };
};

// docs/SEMANTICS.md B.9.5: pods placed one after another, each charged before the next.
describe('rePlacePods', () => {
  it('fills the best node, then the next, and reports the FitError when nothing fits', () => {
    const nodes = [node('a'), node('b', { requested: { cpu: 500, pods: 1 } })];
    const placed = rePlacePods([pod(600), pod(600), pod(600)], nodes);
    expect(placed).toEqual([
      { node: 'a' },
      { node: null, message: '0/2 nodes are available: 2 Insufficient cpu.' },
      { node: null, message: '0/2 nodes are available: 2 Insufficient cpu.' },
    ]);
  });

  it('places pods of one workload on the best node until it is full', () => {
    const nodes = [node('a'), node('b')];
    expect(rePlacePods([pod(400), pod(400), pod(400)], nodes).map((p) => p.node)).toEqual(['a', 'a', 'b']);
  });

  it('follows the score: a PreferNoSchedule taint the pod does not tolerate sends it elsewhere', () => {
    const soft: Taint = { key: 'soft', value: '', effect: 'PreferNoSchedule' };
    const nodes = [node('a', { taints: [soft] }), node('b')];
    expect(rePlacePods([pod(100)], nodes)).toEqual([{ node: 'b' }]);
  });

  it('never places on a node whose NoSchedule taint the pod does not tolerate', () => {
    const hard: Taint = { key: 'gpu', value: '', effect: 'NoSchedule' };
    const nodes = [node('a', { taints: [hard] })];
    expect(rePlacePods([pod(100)], nodes)).toEqual([
      { node: null, message: '0/1 nodes are available: 1 node(s) had untolerated taint {gpu: }.' },
    ]);
    expect(rePlacePods([pod(100, [{ key: 'gpu', operator: 'Exists' }], 'tolerant')], nodes)).toEqual([{ node: 'a' }]);
  });

  it('leaves the nodes it was given unchanged', () => {
    const nodes = [node('a'), node('b')];
    rePlacePods([pod(500), pod(600)], nodes, { sameNodesAs: buildNodeTable(nodes) });
    expect(nodes.map((n) => n.requested)).toEqual([{ pods: 0 }, { pods: 0 }]);
  });

  it('property: never overfills a node and never places where a filter taint is not tolerated', () => {
    const taintArb = fc.record({
      key: fc.constantFrom('a', 'b'),
      value: fc.constantFrom('', '1'),
      effect: fc.constantFrom('NoSchedule', 'PreferNoSchedule', 'NoExecute'),
    }) as fc.Arbitrary<Taint>;
    const tolerationArb = fc.record({
      key: fc.constantFrom('a', 'b'),
      operator: fc.constantFrom('Equal', 'Exists'),
      value: fc.constantFrom('', '1'),
      effect: fc.constantFrom('', 'NoSchedule', 'NoExecute'),
    }) as fc.Arbitrary<Toleration>;
    const nodeArb = fc.record({
      taints: fc.uniqueArray(taintArb, { selector: (t) => `${t.key}:${t.effect}`, maxLength: 2 }),
      unschedulable: fc.boolean(),
      cpu: fc.integer({ min: 0, max: 2000 }),
      used: fc.integer({ min: 0, max: 2000 }),
      pods: fc.integer({ min: 0, max: 4 }),
    });
    const podArb = fc.record({
      cpu: fc.integer({ min: 0, max: 900 }),
      tolerations: fc.array(tolerationArb, { maxLength: 2 }),
    });
    fc.assert(
      fc.property(fc.array(nodeArb, { minLength: 1, maxLength: 6 }), fc.array(podArb, { maxLength: 12 }), (ns, ps) => {
        const nodes = ns.map((n, i) =>
          node(`n${i}`, {
            taints: n.taints,
            unschedulable: n.unschedulable,
            allocatable: { cpu: n.cpu, pods: n.pods },
            requested: { cpu: Math.min(n.used, n.cpu), pods: 0 },
          }),
        );
        const pods = ps.map((p) => pod(p.cpu, p.tolerations, JSON.stringify(p)));
        const placed = rePlacePods(pods, nodes);
        // the same answer with another table's label caches (same nodes, other taints and resources)
        const other = buildNodeTable(nodes.map((n) => ({ ...n, taints: [], requested: {} })));
        expect(rePlacePods(pods, nodes, { sameNodesAs: other })).toEqual(placed);
        const cpu = new Map(nodes.map((n) => [n.name, n.requested.cpu ?? 0]));
        const count = new Map(nodes.map((n) => [n.name, 0]));
        placed.forEach((p, i) => {
          if (p.node === null) return;
          const target = nodes.find((n) => n.name === p.node)!;
          expect(target.unschedulable).toBe(false);
          for (const taint of target.taints) {
            if (taint.effect === 'PreferNoSchedule') continue;
            expect(tolerationsTolerateTaint(ps[i].tolerations, taint)).toBe(true);
          }
          cpu.set(target.name, cpu.get(target.name)! + ps[i].cpu);
          count.set(target.name, count.get(target.name)! + 1);
        });
        for (const n of nodes) {
          expect(cpu.get(n.name)!).toBeLessThanOrEqual(Math.max(n.allocatable!.cpu, n.requested.cpu ?? 0));
          expect(count.get(n.name)!).toBeLessThanOrEqual(n.allocatable!.pods);
        }
      }),
      { numRuns: 300 },
    );
  });
});
