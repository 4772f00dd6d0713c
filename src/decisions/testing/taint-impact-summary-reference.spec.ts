import { summarizeTaintImpact } from './taint-impact-summary-reference';

const AT = new Date('2030-01-01T00:00:00Z');
const t = (s: number) => new Date(AT.getTime() + s * 1000);
const pod = (name: string, owner: { kind: string; name: string } | null = null, namespace = 'ns') => ({
  namespace,
  name,
  owner,
});
const rs = { kind: 'ReplicaSet', name: 'web' };

describe('summarizeTaintImpact', () => {
  it.each([
    {
      name: 'nothing bound: empty groups, null instants',
      evictions: [],
      tolerating: [],
      counts: { evictNow: 0, evictAfter: 0, tolerating: 0, earliestEvictAt: null, latestEvictAt: null },
      nodes: [],
      workloads: [],
    },
    {
      name: 'actions, earliest and latest per group; a pod without owner is its own workload',
      evictions: [
        { pod: pod('w1', rs), node: 'b', action: 'EvictAfter' as const, evictAt: t(300) },
        { pod: pod('w2', rs), node: 'a', action: 'EvictAfter' as const, evictAt: t(60) },
        { pod: pod('bare'), node: 'a', action: 'EvictNow' as const, evictAt: AT },
      ],
      tolerating: [{ pod: pod('d1', { kind: 'DaemonSet', name: 'agent' }), node: 'c' }],
      counts: { evictNow: 1, evictAfter: 2, tolerating: 1, earliestEvictAt: AT, latestEvictAt: t(300) },
      nodes: [
        ['a', 1, 1, 0, AT, t(60)],
        ['b', 0, 1, 0, t(300), t(300)],
        ['c', 0, 0, 1, null, null],
      ],
      workloads: [
        ['ns', 'DaemonSet', 'agent', 0, 0, 1, null, null],
        ['ns', 'Pod', 'bare', 1, 0, 0, AT, AT],
        ['ns', 'ReplicaSet', 'web', 0, 2, 0, t(60), t(300)],
      ],
    },
    {
      name: 'the same owner name in two namespaces is two workloads, sorted by namespace',
      evictions: [{ pod: pod('x', rs, 'z-ns'), node: 'a', action: 'EvictNow' as const, evictAt: AT }],
      tolerating: [{ pod: pod('y', rs, 'a-ns'), node: 'a' }],
      counts: { evictNow: 1, evictAfter: 0, tolerating: 1, earliestEvictAt: AT, latestEvictAt: AT },
      nodes: [['a', 1, 0, 1, AT, AT]],
      workloads: [
        ['a-ns', 'ReplicaSet', 'web', 0, 0, 1, null, null],
        ['z-ns', 'ReplicaSet', 'web', 1, 0, 0, AT, AT],
      ],
    },
  ])('$name', ({ evictions, tolerating, counts, nodes, workloads }) => {
    const s = summarizeTaintImpact(AT, evictions, tolerating, { unschedulable: 2, schedulable: 1 }, ['w']);
    expect(s.at).toBe(AT);
    expect(s.counts).toEqual({ ...counts, unschedulablePending: 2, schedulablePending: 1 });
    expect(
      s.byNode.map((n) => [n.node, n.evictNow, n.evictAfter, n.tolerating, n.earliestEvictAt, n.latestEvictAt]),
    ).toEqual(nodes);
    expect(
      s.byWorkload.map((w) => [
        w.namespace,
        w.kind,
        w.name,
        w.evictNow,
        w.evictAfter,
        w.tolerating,
        w.earliestEvictAt,
        w.latestEvictAt,
      ]),
    ).toEqual(workloads);
    expect(s.warnings).toEqual(['w']);
  });
});
