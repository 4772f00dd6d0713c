import fc from 'fast-check';
import type { PodSpec, SchedulingNode, Taint, Toleration } from '../types';
import { anyFeasibleNode, passesFilters } from './any-feasible-node';
import { compilePod } from './compile-pod';
import { decideFeasibleNodes } from './feasible-nodes';

const node = (name: string, overrides: Partial<SchedulingNode> = {}): SchedulingNode => ({
  name,
  labels: {},
  taints: [],
  unschedulable: false,
  allocatable: null,
  requested: {},
  ...overrides,
});
const compiled = (spec: Partial<PodSpec> = {}, requests?: Record<string, number>) =>
  compilePod({ spec: { tolerations: [], ...spec }, ...(requests ? { requests } : {}) });
const gpu: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
const maintenance: Taint = { key: 'maintenance', effect: 'NoExecute' };

describe('passesFilters / anyFeasibleNode (B.4.3 filter plugins, yes/no)', () => {
  it.each([
    {
      description: 'B.4.2 a cordoned node fails unless the pod tolerates unschedulable',
      pod: compiled(),
      n: node('a', { unschedulable: true }),
      expected: false,
    },
    {
      description: 'B.4.2 tolerating node.kubernetes.io/unschedulable passes a cordoned node',
      pod: compiled({ tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' }] }),
      n: node('a', { unschedulable: true }),
      expected: true,
    },
    {
      description: 'B.4.1 an untolerated NoSchedule taint fails',
      pod: compiled(),
      n: node('a', { taints: [gpu] }),
      expected: false,
    },
    {
      description: 'B.4.1 an untolerated NoExecute taint fails',
      pod: compiled(),
      n: node('a', { taints: [maintenance] }),
      expected: false,
    },
    {
      description: 'B.4.1 PreferNoSchedule never filters',
      pod: compiled(),
      n: node('a', { taints: [{ key: 'spot', effect: 'PreferNoSchedule' }] }),
      expected: true,
    },
    {
      description: 'B.4.1 a tolerated taint passes',
      pod: compiled({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }),
      n: node('a', { taints: [gpu] }),
      expected: true,
    },
    {
      description: 'nodeSelector must match',
      pod: compiled({ nodeSelector: { zone: 'a' } }),
      n: node('a', { labels: { zone: 'b' } }),
      expected: false,
    },
    {
      description: 'insufficient cpu fails',
      pod: compiled({}, { cpu: 2000 }),
      n: node('a', { allocatable: { cpu: 1000 }, requested: {} }),
      expected: false,
    },
    {
      description: 'too many pods fails',
      pod: compiled(),
      n: node('a', { allocatable: { pods: 1 }, requested: { pods: 1 } }),
      expected: false,
    },
    {
      description: 'no allocatable: no resource limit (API.md)',
      pod: compiled({}, { cpu: 99_000 }),
      n: node('a'),
      expected: true,
    },
  ])('$description', ({ pod, n, expected }) => {
    expect(passesFilters(pod, n, new Map())).toBe(expected);
  });

  it.each([
    {
      description: 'B.4.1 one verdict per shared taint array: an untolerated array fails every node that shares it',
      tolerations: [] as Toleration[],
      expected: [false, false],
    },
    {
      description: 'B.4.1 one verdict per shared taint array: a tolerated array passes every node that shares it',
      tolerations: [{ key: 'dedicated', operator: 'Exists' }],
      expected: [true, true],
    },
  ])('$description', ({ tolerations, expected }) => {
    const shared = [gpu];
    const verdicts = new Map<readonly Taint[], boolean>();
    const pod = compiled({ tolerations });
    expect(
      [node('a', { taints: shared }), node('b', { taints: shared })].map((n) => passesFilters(pod, n, verdicts)),
    ).toEqual(expected);
    expect([...verdicts]).toEqual([[shared, expected[0]]]);
  });

  it('stops at the first feasible node and honours skip', () => {
    const seen: string[] = [];
    const nodes = [node('a', { taints: [gpu] }), node('b'), node('c')];
    const tracked = {
      *[Symbol.iterator]() {
        for (const n of nodes) {
          seen.push(n.name);
          yield n;
        }
      },
    };
    expect(anyFeasibleNode(compiled(), tracked)).toBe(true);
    expect(seen).toEqual(['a', 'b']);
    expect(anyFeasibleNode(compiled(), nodes, (n) => n.name !== 'a')).toBe(false);
  });

  it('agrees with decideFeasibleNodes(...).feasibleCount > 0 (property)', () => {
    const taintArb = fc.record({
      key: fc.constantFrom('a', 'b'),
      value: fc.constantFrom('', '1', '5'),
      effect: fc.constantFrom('NoSchedule', 'PreferNoSchedule', 'NoExecute'),
    }) as fc.Arbitrary<Taint>;
    const tolerationArb = fc.record({
      key: fc.constantFrom('a', 'b', ''),
      operator: fc.constantFrom('Equal', 'Exists', 'Gt', 'Lt'),
      value: fc.constantFrom('', '1', '3'),
      effect: fc.constantFrom('', 'NoSchedule', 'NoExecute', 'PreferNoSchedule'),
    }) as fc.Arbitrary<Toleration>;
    const nodeArb = fc.record({
      taints: fc.uniqueArray(taintArb, { selector: (t) => `${t.key}:${t.effect}`, maxLength: 3 }),
      unschedulable: fc.boolean(),
      zone: fc.constantFrom('x', 'y'),
      cpu: fc.option(fc.integer({ min: 0, max: 4000 })),
      used: fc.integer({ min: 0, max: 4000 }),
    });
    fc.assert(
      fc.property(
        fc.array(nodeArb, { maxLength: 6 }),
        fc.array(tolerationArb, { maxLength: 3 }),
        fc.option(fc.constantFrom('x', 'y')),
        fc.integer({ min: 0, max: 3000 }),
        (raw, tolerations, zone, cpu) => {
          const nodes = raw.map((r, i) =>
            node(`n${i}`, {
              taints: r.taints,
              unschedulable: r.unschedulable,
              labels: { zone: r.zone },
              allocatable: r.cpu === null ? null : { cpu: r.cpu },
              requested: { cpu: r.used, pods: 0 },
            }),
          );
          const pod = compiled({ tolerations, ...(zone ? { nodeSelector: { zone } } : {}) }, cpu ? { cpu } : {});
          expect(anyFeasibleNode(pod, nodes)).toBe(decideFeasibleNodes(pod, nodes).feasibleCount > 0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
