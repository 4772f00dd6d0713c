import type { SchedulingNode, Taint } from '../domain/types';
import { groupPendingPods, pendingImpact, type PendingPodSpec } from './pending-impact';

const node = (name: string, overrides: Partial<SchedulingNode> = {}): SchedulingNode => ({
  name,
  labels: {},
  taints: [],
  unschedulable: false,
  allocatable: null,
  requested: {},
  ...overrides,
});
const pod = (name: string, spec: Partial<PendingPodSpec> = {}) => ({
  name,
  tolerations: [],
  nodeSelector: {},
  affinity: null,
  requests: {},
  ...spec,
});
const noExecute: Taint[] = [{ key: 'maintenance', value: 'true', effect: 'NoExecute' }];
const options = { comparisonOperators: true };

describe('groupPendingPods', () => {
  it('one group per distinct scheduling spec (tolerations, nodeSelector, affinity, requests)', () => {
    const groups = groupPendingPods(
      [pod('a'), pod('b'), pod('c', { nodeSelector: { pool: 'x' } }), pod('d', { requests: { cpu: 100 } })],
      options,
    );
    expect(groups.map((g) => g.pods.map((p) => p.name))).toEqual([['a', 'b'], ['c'], ['d']]);
  });
});

describe('pendingImpact (API.md taint-impact: unschedulablePending / schedulablePending)', () => {
  const pool = [
    node('a', { labels: { pool: 'x' } }),
    node('b', { labels: { pool: 'x' } }),
    node('c', { labels: { pool: 'y' } }),
  ];
  const tainted = (names: string[], taints: Taint[]) =>
    new Map(pool.filter((n) => names.includes(n.name)).map((n) => [n.name, { ...n, taints }]));
  const untouched = (names: string[]) => new Map(pool.filter((n) => names.includes(n.name)).map((n) => [n.name, n]));

  it.each([
    {
      description: 'B.4.1 a pod held to the tainted pool loses its last node',
      pods: [pod('p', { nodeSelector: { pool: 'x' } })],
      lost: ['p'],
      gained: [],
    },
    {
      description: 'a pod that can go elsewhere (unchanged node c) loses nothing',
      pods: [pod('p')],
      lost: [],
      gained: [],
    },
    {
      description: 'B.1.1 a pod that tolerates the new taint loses nothing',
      pods: [pod('p', { nodeSelector: { pool: 'x' }, tolerations: [{ key: 'maintenance', operator: 'Exists' }] })],
      lost: [],
      gained: [],
    },
    {
      description: 'a pod that had nowhere to go before is not listed',
      pods: [pod('p', { nodeSelector: { pool: 'z' } })],
      lost: [],
      gained: [],
    },
  ])('$description', ({ pods, lost, gained }) => {
    const impact = pendingImpact(
      groupPendingPods(pods, options),
      pool,
      untouched(['a', 'b']),
      tainted(['a', 'b'], noExecute),
    );
    expect({ lost: impact.lost.map((p) => p.name), gained: impact.gained.map((p) => p.name) }).toEqual({
      lost,
      gained,
    });
  });

  it('B.3.2 a removal gives a pod its first feasible node', () => {
    const before = new Map([['a', { ...pool[0], taints: noExecute }]]);
    const after = new Map([['a', pool[0]]]);
    const nodes = [before.get('a')!, pool[1], pool[2]].map((n) =>
      n.name === 'b' || n.name === 'c' ? { ...n, unschedulable: true } : n,
    );
    const impact = pendingImpact(groupPendingPods([pod('p')], options), nodes, before, after);
    expect(impact.gained.map((p) => p.name)).toEqual(['p']);
  });

  it('no changed node: nothing to say', () => {
    expect(pendingImpact(groupPendingPods([pod('p')], options), pool, new Map(), new Map())).toEqual({
      lost: [],
      gained: [],
    });
  });
});
