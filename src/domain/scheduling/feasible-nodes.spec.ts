import fc from 'fast-check';
import { decideFeasibleNodes, type FeasibleNodesDecision, type FeasibleNodesOptions } from './feasible-nodes';
import { compilePod, type PodToPlace } from './compile-pod';
import { UNSCHEDULABLE_TAINT } from './node-unschedulable';
import type { PodSpec, SchedulingNode, Taint, Toleration } from '../types';
import { toleratesTaint } from '../tolerations/tolerates-taint';
import { compileRequiredNodeAffinity, compilePreferredNodeAffinity, preferredAffinityWeight } from './node-affinity';
import { compileRequests, insufficientResources } from './node-resources-fit';
import { defaultNormalizeScore, totalScore } from './normalize-score';

const GI = 2 ** 30;
const node = (name: string, overrides: Partial<SchedulingNode> = {}): SchedulingNode => ({
  name,
  labels: {},
  taints: [],
  unschedulable: false,
  allocatable: null,
  requested: {},
  ...overrides,
});
const pod = (spec: Partial<PodSpec> = {}, requests?: Record<string, number>): PodToPlace => ({
  spec: { tolerations: [], ...spec },
  ...(requests ? { requests } : {}),
});
const gpu: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
const maintenance: Taint = { key: 'maintenance', effect: 'NoExecute' };
const spot: Taint = { key: 'spot', effect: 'PreferNoSchedule' };
const spot2: Taint = { key: 'spot2', effect: 'PreferNoSchedule' };
const summary = (d: FeasibleNodesDecision) => d.nodes.map((n) => (n.feasible ? `${n.name}:${n.score}` : `${n.name}:x`));

const cases: Array<{
  description: string;
  pod: PodToPlace;
  nodes: SchedulingNode[];
  options?: FeasibleNodesOptions;
  expected: Partial<FeasibleNodesDecision> & { order?: string[] };
}> = [
  {
    description: 'A.2 no nodes: 0/0',
    pod: pod(),
    nodes: [],
    expected: { totalNodes: 0, feasibleCount: 0, message: '0/0 nodes are available.', nodes: [] },
  },
  {
    description: 'B.4.1 all untainted: every node scores 100 and the message has no reasons',
    pod: pod(),
    nodes: [node('b'), node('a')],
    expected: {
      totalNodes: 2,
      feasibleCount: 2,
      message: '2/2 nodes are available.',
      nodes: [
        { name: 'a', feasible: true, score: 100, scores: { TaintToleration: 100, NodeAffinity: 0 } },
        { name: 'b', feasible: true, score: 100, scores: { TaintToleration: 100, NodeAffinity: 0 } },
      ],
    },
  },
  {
    description: 'A.2/B.4.3 the API example: taint and cordon failures, feasible first',
    pod: pod(),
    nodes: [
      node('n1'),
      node('n2'),
      node('n3', { unschedulable: true }),
      node('n4', { taints: [gpu] }),
      node('n5', { taints: [gpu] }),
    ],
    expected: {
      totalNodes: 5,
      feasibleCount: 2,
      message:
        '2/5 nodes are available: 1 node(s) were unschedulable, 2 node(s) had untolerated taint {dedicated: gpu}.',
      nodes: [
        { name: 'n1', feasible: true, score: 100, scores: { TaintToleration: 100, NodeAffinity: 0 } },
        { name: 'n2', feasible: true, score: 100, scores: { TaintToleration: 100, NodeAffinity: 0 } },
        {
          name: 'n3',
          feasible: false,
          reasons: [{ plugin: 'NodeUnschedulable', message: 'node(s) were unschedulable' }],
        },
        {
          name: 'n4',
          feasible: false,
          reasons: [
            { plugin: 'TaintToleration', message: 'node(s) had untolerated taint {dedicated: gpu}', taint: gpu },
          ],
        },
        {
          name: 'n5',
          feasible: false,
          reasons: [
            { plugin: 'TaintToleration', message: 'node(s) had untolerated taint {dedicated: gpu}', taint: gpu },
          ],
        },
      ],
    },
  },
  {
    description: 'A.2/B.8.11 a cordoned and tainted node lists every failure but counts once, by NodeUnschedulable',
    pod: pod({ nodeSelector: { zone: 'a' } }, { cpu: 2000 }),
    nodes: [
      node('n1', {
        unschedulable: true,
        taints: [UNSCHEDULABLE_TAINT, gpu],
        allocatable: { cpu: 1000, pods: 1 },
        requested: { pods: 1 },
      }),
    ],
    expected: {
      feasibleCount: 0,
      message: '0/1 nodes are available: 1 node(s) were unschedulable.',
      nodes: [
        {
          name: 'n1',
          feasible: false,
          reasons: [
            { plugin: 'NodeUnschedulable', message: 'node(s) were unschedulable' },
            {
              plugin: 'TaintToleration',
              message: 'node(s) had untolerated taint {node.kubernetes.io/unschedulable: }',
              taint: UNSCHEDULABLE_TAINT,
            },
            { plugin: 'NodeAffinity', message: "node(s) didn't match Pod's node affinity/selector" },
            { plugin: 'NodeResourcesFit', message: 'Too many pods', resource: 'pods' },
            { plugin: 'NodeResourcesFit', message: 'Insufficient cpu', resource: 'cpu' },
          ],
        },
      ],
    },
  },
  {
    description: 'B.4.2 tolerating the unschedulable taint passes both NodeUnschedulable and the taint',
    pod: pod({ tolerations: [{ key: UNSCHEDULABLE_TAINT.key, operator: 'Exists', effect: 'NoSchedule' }] }),
    nodes: [node('n1', { unschedulable: true, taints: [UNSCHEDULABLE_TAINT] })],
    expected: { feasibleCount: 1, message: '1/1 nodes are available.' },
  },
  {
    description: 'B.4.3 resources as first failure: every insufficient resource counts',
    pod: pod({}, { cpu: 2000, memory: 2 * GI }),
    nodes: [
      node('n1', { allocatable: { cpu: 1000, memory: GI } }),
      node('n2', { allocatable: { cpu: 4000, memory: GI } }),
      node('n3', { taints: [gpu], allocatable: { cpu: 0 } }),
    ],
    expected: {
      feasibleCount: 0,
      message:
        '0/3 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient memory.',
    },
  },
  {
    description: 'B.4.3 too many pods is counted under its own wording',
    pod: pod(),
    nodes: [node('n1', { allocatable: { pods: 2 }, requested: { pods: 2 } })],
    expected: { feasibleCount: 0, message: '0/1 nodes are available: 1 Too many pods.' },
  },
  {
    description: 'API.md a node without allocatable has no resource limit',
    pod: pod({}, { cpu: 1e6, 'nvidia.com/gpu': 8 }),
    nodes: [node('n1')],
    expected: { feasibleCount: 1 },
  },
  {
    description: 'B.4.1 PreferNoSchedule never filters but lowers the score (1 of max 2 → 50)',
    pod: pod(),
    nodes: [node('a', { taints: [spot] }), node('b', { taints: [spot, spot2] }), node('c')],
    expected: {
      feasibleCount: 3,
      order: ['c:100', 'a:50', 'b:0'],
    },
  },
  {
    description: 'B.4.1 scores normalise over the FEASIBLE nodes only',
    pod: pod(),
    nodes: [node('a', { taints: [spot] }), node('b', { taints: [spot, spot2, gpu] }), node('c')],
    expected: { feasibleCount: 2, order: ['c:100', 'a:0', 'b:x'] },
  },
  {
    description: 'B.8.10 a NoSchedule toleration does not soften PreferNoSchedule',
    pod: pod({ tolerations: [{ key: 'spot', operator: 'Exists', effect: 'NoSchedule' }] }),
    nodes: [node('a', { taints: [spot] }), node('b')],
    expected: { order: ['b:100', 'a:0'] },
  },
  {
    description: 'B.4.1 NodeAffinity preferences weigh 2 of 5 with TaintToleration 3 of 5',
    pod: pod({
      affinity: {
        nodeAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 10, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
          ],
        },
      },
    }),
    nodes: [
      node('x', { labels: { zone: 'a' }, taints: [spot] }),
      node('y', { labels: { zone: 'b' } }),
      node('z', { labels: { zone: 'a' } }),
    ],
    expected: {
      nodes: [
        { name: 'z', feasible: true, score: 100, scores: { TaintToleration: 100, NodeAffinity: 100 } },
        { name: 'y', feasible: true, score: 60, scores: { TaintToleration: 100, NodeAffinity: 0 } },
        { name: 'x', feasible: true, score: 40, scores: { TaintToleration: 0, NodeAffinity: 100 } },
      ],
    },
  },
  {
    description: 'NodeAffinity: required affinity filters, counted by its reason',
    pod: pod({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['b'] }] }],
          },
        },
      },
    }),
    nodes: [node('a'), node('b'), node('c')],
    expected: {
      feasibleCount: 1,
      message: "1/3 nodes are available: 2 node(s) didn't match Pod's node affinity/selector.",
      order: ['b:100', 'a:x', 'c:x'],
    },
  },
  {
    description: 'A.2 redacted: upstream wording and no taint field',
    pod: pod(),
    nodes: [node('n1', { taints: [gpu] })],
    options: { redactTaints: true },
    expected: {
      message: '0/1 nodes are available: 1 node(s) had untolerated taint(s).',
      nodes: [
        {
          name: 'n1',
          feasible: false,
          reasons: [{ plugin: 'TaintToleration', message: 'node(s) had untolerated taint(s)' }],
        },
      ],
    },
  },
  {
    description: 'API.md limit caps nodes, never the counts or the message',
    pod: pod(),
    nodes: [node('a'), node('b', { taints: [gpu] }), node('c')],
    options: { limit: 1 },
    expected: {
      totalNodes: 3,
      feasibleCount: 2,
      message: '2/3 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}.',
      order: ['a:100'],
    },
  },
  {
    description: 'API.md limit reaching into the infeasible nodes',
    pod: pod(),
    nodes: [node('a', { taints: [gpu] }), node('b', { taints: [maintenance] }), node('c')],
    options: { limit: 2 },
    expected: { order: ['c:100', 'a:x'] },
  },
  {
    description: 'API.md limit 0 returns no nodes',
    pod: pod(),
    nodes: [node('a'), node('b', { taints: [gpu] })],
    options: { limit: 0 },
    expected: { feasibleCount: 1, nodes: [] },
  },
  {
    description: 'API.md a NaN limit is no limit',
    pod: pod(),
    nodes: [node('a'), node('b', { taints: [gpu] })],
    options: { limit: NaN },
    expected: { order: ['a:100', 'b:x'] },
  },
  {
    description: 'API.md unsorted input is still answered by score then name',
    pod: pod(),
    nodes: [
      node('d', { taints: [gpu] }),
      node('c'),
      node('b', { taints: [spot] }),
      node('a', { taints: [gpu] }),
      node('e'),
    ],
    expected: { order: ['c:100', 'e:100', 'b:0', 'a:x', 'd:x'] },
  },
  {
    description: 'API.md duplicate names in unsorted input keep their input order',
    pod: pod(),
    nodes: [
      node('b'),
      node('a', { taints: [spot] }),
      node('a'),
      node('c', { taints: [gpu] }),
      node('a', { taints: [gpu] }),
    ],
    expected: { order: ['a:100', 'b:100', 'a:0', 'a:x', 'c:x'] },
  },
  {
    description: 'A.1 gate off: a Gt toleration tolerates nothing',
    pod: pod({ tolerations: [{ key: 'sla', operator: 'Gt', value: '900' }] }),
    nodes: [node('n1', { taints: [{ key: 'sla', value: '950', effect: 'NoSchedule' }] })],
    options: { matchOptions: { comparisonOperators: false } },
    expected: { feasibleCount: 0 },
  },
  {
    description: 'B.8.1 gate on (default): a Gt toleration tolerates a larger taint value',
    pod: pod({ tolerations: [{ key: 'sla', operator: 'Gt', value: '900' }] }),
    nodes: [node('n1', { taints: [{ key: 'sla', value: '950', effect: 'NoSchedule' }] })],
    expected: { feasibleCount: 1 },
  },
  {
    description: 'PodRequests: requests default to the spec resources (limits stand in for requests)',
    pod: pod({ resources: { limits: { cpu: '2' } } }),
    nodes: [node('a', { allocatable: { cpu: 1000 } }), node('b', { allocatable: { cpu: 2000 } })],
    expected: { feasibleCount: 1, message: '1/2 nodes are available: 1 Insufficient cpu.' },
  },
];

describe('decideFeasibleNodes (SEMANTICS B.4, A.2; API.md feasible-nodes)', () => {
  it.each(cases)('$description', ({ pod: p, nodes, options, expected }) => {
    const decision = decideFeasibleNodes(p, nodes, options);
    const { order, ...rest } = expected;
    expect(decision).toMatchObject(rest);
    if (order) expect(summary(decision)).toEqual(order);
  });

  it('B.4 a compiled pod gives the same answer and keeps its own match options', () => {
    const p = pod({ tolerations: [{ key: 'sla', operator: 'Lt', value: '9' }] });
    const nodes = [node('a', { taints: [{ key: 'sla', value: '5', effect: 'NoSchedule' }] })];
    expect(
      decideFeasibleNodes(compilePod(p, { comparisonOperators: false }), nodes, {
        matchOptions: { comparisonOperators: true },
      }).feasibleCount,
    ).toBe(0);
    expect(decideFeasibleNodes(compilePod(p), nodes)).toEqual(decideFeasibleNodes(p, nodes));
  });
});

// ---------------------------------------------------------------------------------------------
// 5,000 nodes, a realistic mix, checked against a naive per-node reference built from the
// plugins one by one (no caching, no counting sort).

const ZONES = ['a', 'b', 'c'];
const TAINT_SETS: Taint[][] = [
  [],
  [],
  [],
  [],
  [gpu],
  [spot],
  [spot, spot2],
  [maintenance],
  [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }],
  [gpu, spot],
  [{ key: 'sla', value: '950', effect: 'NoSchedule' }],
  [UNSCHEDULABLE_TAINT],
];

function realisticNodes(count: number, seed: number): SchedulingNode[] {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const nodes: SchedulingNode[] = [];
  for (let i = 0; i < count; i++) {
    const taints = TAINT_SETS[Math.floor(random() * TAINT_SETS.length)]; // interned: shared arrays
    const cordoned = random() < 0.03;
    nodes.push({
      name: `node-${String(i).padStart(5, '0')}`,
      labels: {
        zone: ZONES[i % 3],
        'node.kubernetes.io/instance-type': random() < 0.5 ? 'm5.large' : 'm5.xlarge',
        cores: String(2 + (i % 7) * 2),
      },
      taints: cordoned ? [UNSCHEDULABLE_TAINT, ...taints] : taints,
      unschedulable: cordoned,
      allocatable: random() < 0.05 ? null : { cpu: 4000, memory: 16 * GI, pods: 110 },
      requested: {
        cpu: Math.floor(random() * 4000),
        memory: Math.floor(random() * 16) * GI,
        pods: Math.floor(random() * 112),
      },
    });
  }
  return nodes;
}

const realisticPod: PodToPlace = {
  spec: {
    tolerations: [
      { key: 'spot', operator: 'Exists', effect: 'PreferNoSchedule' },
      { key: 'sla', operator: 'Gt', value: '900' },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ],
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] },
            { matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['10'] }] },
          ],
        },
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 50,
            preference: {
              matchExpressions: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m5.xlarge'] }],
            },
          },
          { weight: 20, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
        ],
      },
    },
  },
  requests: { cpu: 500, memory: GI },
};

/** Straightforward reference: plugin by plugin, node by node. */
function referenceDecision(p: PodToPlace, nodes: SchedulingNode[]) {
  const tolerations = p.spec.tolerations;
  const options = { comparisonOperators: true };
  const tolerated = (taint: Taint, subset: Toleration[]) => subset.some((t) => toleratesTaint(t, taint, options));
  const required = compileRequiredNodeAffinity(p.spec);
  const preferred = compilePreferredNodeAffinity(p.spec);
  const requests = compileRequests(p.requests ?? {});
  const feasible: Array<{ name: string; tt: number; na: number }> = [];
  const firstFailures: string[] = [];
  for (const n of nodes) {
    const failures: string[] = [];
    if (n.unschedulable && !tolerated(UNSCHEDULABLE_TAINT, tolerations)) failures.push('node(s) were unschedulable');
    const untolerated = n.taints.find((t) => t.effect !== 'PreferNoSchedule' && !tolerated(t, tolerations));
    if (untolerated) failures.push(`node(s) had untolerated taint {${untolerated.key}: ${untolerated.value ?? ''}}`);
    if (required && !required(n)) failures.push("node(s) didn't match Pod's node affinity/selector");
    const short = insufficientResources(requests, n);
    if (short.length) failures.push(short.map((r) => (r === 'pods' ? 'Too many pods' : `Insufficient ${r}`)).join('|'));
    if (failures.length) firstFailures.push(...failures[0].split('|'));
    else {
      const preferTolerations = tolerations.filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
      feasible.push({
        name: n.name,
        tt: n.taints.filter((t) => t.effect === 'PreferNoSchedule' && !tolerated(t, preferTolerations)).length,
        na: preferredAffinityWeight(preferred, n),
      });
    }
  }
  const tt = defaultNormalizeScore(
    feasible.map((f) => f.tt),
    true,
  );
  const na = defaultNormalizeScore(
    feasible.map((f) => f.na),
    false,
  );
  const ranked = feasible
    .map((f, i) => ({ name: f.name, score: totalScore(tt[i], na[i], preferred.length > 0) }))
    .sort((x, y) => y.score - x.score || (x.name < y.name ? -1 : 1));
  const counts = new Map<string, number>();
  for (const reason of firstFailures) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return { ranked, counts };
}

describe('decideFeasibleNodes over 5,000 nodes', () => {
  const nodes = realisticNodes(5000, 42);

  it('B.4 a realistic mix agrees with the plugin-by-plugin reference', () => {
    const decision = decideFeasibleNodes(realisticPod, nodes);
    const { ranked, counts } = referenceDecision(realisticPod, nodes);
    expect(decision.totalNodes).toBe(5000);
    expect(decision.feasibleCount).toBe(ranked.length);
    expect(ranked.length).toBeGreaterThan(500);
    expect(decision.feasibleCount).toBeLessThan(4500);
    expect(
      decision.nodes.slice(0, ranked.length).map((n) => ({ name: n.name, score: (n as { score: number }).score })),
    ).toEqual(ranked);
    expect(decision.nodes.slice(ranked.length).every((n) => !n.feasible)).toBe(true);
    const infeasibleNames = decision.nodes.slice(ranked.length).map((n) => n.name);
    expect(infeasibleNames).toEqual([...infeasibleNames].sort());
    const histogram = [...counts]
      .map(([reason, n]) => `${n} ${reason}`)
      .sort()
      .join(', ');
    expect(decision.message).toBe(`${ranked.length}/5000 nodes are available: ${histogram}.`);
    expect(new Set(decision.nodes.map((n) => n.name)).size).toBe(5000);
  });

  it('B.4 the limit keeps the best nodes of the full answer', () => {
    const full = decideFeasibleNodes(realisticPod, nodes);
    const limited = decideFeasibleNodes(realisticPod, nodes, { limit: 100 });
    expect(limited.nodes).toEqual(full.nodes.slice(0, 100));
    expect(limited.message).toBe(full.message);
  });

  it('B.4 reversing the input order (unsorted names) changes nothing', () => {
    expect(decideFeasibleNodes(realisticPod, [...nodes].reverse())).toEqual(decideFeasibleNodes(realisticPod, nodes));
  });

  it('B.4 non-interned taint arrays (a copy per node) change nothing', () => {
    const copies = nodes.map((n) => ({ ...n, taints: [...n.taints] }));
    expect(decideFeasibleNodes(realisticPod, copies)).toEqual(decideFeasibleNodes(realisticPod, nodes));
  });
});

// ---------------------------------------------------------------------------------------------
// Properties.

const effectArb = fc.constantFrom('NoSchedule', 'PreferNoSchedule', 'NoExecute') as fc.Arbitrary<Taint['effect']>;
const taintArb: fc.Arbitrary<Taint> = fc.record({
  key: fc.constantFrom('a', 'b', 'c', 'sla'),
  value: fc.constantFrom('', 'x', '5', '950'),
  effect: effectArb,
});
const tolerationArb: fc.Arbitrary<Toleration> = fc.record(
  {
    key: fc.constantFrom(undefined, '', 'a', 'b', 'sla', UNSCHEDULABLE_TAINT.key),
    operator: fc.constantFrom(undefined, 'Equal', 'Exists', 'Gt', 'Lt'),
    value: fc.constantFrom(undefined, '', 'x', '5', '900'),
    effect: fc.constantFrom(undefined, '', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'),
  },
  { requiredKeys: [] },
);
const nodeArb: fc.Arbitrary<SchedulingNode> = fc.record({
  name: fc.string({ minLength: 1, maxLength: 4 }),
  labels: fc.dictionary(fc.constantFrom('zone', 'cores', 'gpu'), fc.constantFrom('a', 'b', '4', '16')),
  taints: fc.array(taintArb, { maxLength: 4 }),
  unschedulable: fc.boolean(),
  allocatable: fc.option(fc.record({ cpu: fc.nat(4000), pods: fc.nat(4) }), { nil: null }),
  requested: fc.record({ cpu: fc.nat(4000), pods: fc.nat(4) }),
});
const podArb: fc.Arbitrary<PodToPlace> = fc.record({
  spec: fc.record({
    tolerations: fc.array(tolerationArb, { maxLength: 4 }),
    nodeSelector: fc.dictionary(fc.constantFrom('zone', 'gpu'), fc.constantFrom('a', 'b'), { maxKeys: 1 }),
    affinity: fc.constant({
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 7, preference: { matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['8'] }] } },
        ],
      },
    }),
  }),
  requests: fc.record({ cpu: fc.nat(2000) }),
});

describe('decideFeasibleNodes properties', () => {
  it('B.1.1 adding a toleration never makes a feasible node infeasible', () => {
    fc.assert(
      fc.property(podArb, fc.array(nodeArb, { maxLength: 8 }), tolerationArb, fc.boolean(), (p, nodes, extra, gate) => {
        const matchOptions = { comparisonOperators: gate };
        const before = decideFeasibleNodes(p, nodes, { matchOptions });
        const after = decideFeasibleNodes(
          { ...p, spec: { ...p.spec, tolerations: [...p.spec.tolerations, extra] } },
          nodes,
          { matchOptions },
        );
        const feasibleAfter = new Set(after.nodes.filter((n) => n.feasible).map((n) => n.name));
        for (const n of before.nodes) if (n.feasible) expect(feasibleAfter.has(n.name)).toBe(true);
        expect(after.feasibleCount).toBeGreaterThanOrEqual(before.feasibleCount);
      }),
    );
  });

  it('B.8.5 an empty-key Exists toleration makes every taint filter pass', () => {
    fc.assert(
      fc.property(podArb, fc.array(nodeArb, { maxLength: 8 }), (p, nodes) => {
        const decision = decideFeasibleNodes(
          { ...p, spec: { ...p.spec, tolerations: [...p.spec.tolerations, { operator: 'Exists' }] } },
          nodes,
        );
        for (const n of decision.nodes) {
          if (!n.feasible)
            expect(n.reasons.map((r) => r.plugin)).not.toEqual(
              expect.arrayContaining(['TaintToleration', 'NodeUnschedulable']),
            );
          else expect(n.scores.TaintToleration).toBe(100);
        }
      }),
    );
  });

  it('B.4.1 score is always an integer in 0..100, and the order is score desc then name', () => {
    fc.assert(
      fc.property(podArb, fc.array(nodeArb, { maxLength: 12 }), (p, nodes) => {
        const decision = decideFeasibleNodes(p, nodes);
        const feasible = decision.nodes.filter((n) => n.feasible);
        expect(decision.nodes.slice(0, feasible.length)).toEqual(feasible);
        for (const n of feasible) {
          for (const s of [n.score, n.scores.TaintToleration, n.scores.NodeAffinity]) {
            expect(Number.isInteger(s)).toBe(true);
            expect(s).toBeGreaterThanOrEqual(0);
            expect(s).toBeLessThanOrEqual(100);
          }
        }
        for (let i = 1; i < feasible.length; i++) {
          const [a, b] = [feasible[i - 1], feasible[i]];
          expect(a.score > b.score || (a.score === b.score && a.name <= b.name)).toBe(true);
        }
        expect(decision.feasibleCount + decision.nodes.filter((n) => !n.feasible).length).toBe(nodes.length);
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The bench's inventory shape (bench/generate-inventory.ts): node pools with one interned taint set
// each, ~14 labels per node including a unique hostname, allocatable with cpu, memory, pods,
// ephemeral-storage, hugepages and GPUs, cordoned nodes, nodes without allocatable or without a pod
// limit; pods reading several label key sets, extended resources, and metadata.name. The whole
// answer (every node's reasons and scores) is checked against a plugin-by-plugin reference.

const POOLS: Array<{ name: string; taints: Taint[]; labels: Record<string, string>; gpus?: number }> = [
  { name: 'general', taints: [], labels: {} },
  { name: 'general', taints: [], labels: {} },
  { name: 'general', taints: [], labels: {} },
  { name: 'system', taints: [{ key: 'CriticalAddonsOnly', value: 'true', effect: 'NoSchedule' }], labels: {} },
  {
    name: 'gpu',
    taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
    labels: { 'cloud.google.com/gke-accelerator': 'nvidia-tesla-a100' },
    gpus: 8,
  },
  {
    name: 'spot',
    taints: [{ key: 'cloud.google.com/gke-spot', value: 'true', effect: 'PreferNoSchedule' }],
    labels: { 'cloud.google.com/gke-spot': 'true' },
  },
  {
    name: 'payments',
    taints: [{ key: 'dedicated', value: 'payments', effect: 'NoSchedule' }],
    labels: { dedicated: 'payments' },
  },
  {
    name: 'batch',
    taints: [
      { key: 'dedicated', value: 'batch', effect: 'NoSchedule' },
      { key: 'spot', effect: 'PreferNoSchedule' },
    ],
    labels: { dedicated: 'batch' },
  },
  {
    name: 'not-ready',
    taints: [
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
    ],
    labels: {},
  },
];

function benchLikeNodes(count: number, seed: number): SchedulingNode[] {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const cordonedTaints = new Map<Taint[], Taint[]>();
  const nodes: SchedulingNode[] = [];
  for (let i = 0; i < count; i++) {
    const pool = POOLS[Math.floor(random() * POOLS.length)];
    const name = `gke-prod-${pool.name}-${(i * 7919).toString(36).padStart(6, '0')}`;
    const cordoned = random() < 0.03;
    let taints = pool.taints;
    if (cordoned) {
      if (!cordonedTaints.has(pool.taints)) cordonedTaints.set(pool.taints, [UNSCHEDULABLE_TAINT, ...pool.taints]);
      taints = cordonedTaints.get(pool.taints)!;
    }
    const zone = ZONES[Math.floor(random() * 3)];
    const big = random() < 0.5;
    const shape = random();
    const allocatable =
      shape < 0.03
        ? null
        : {
            cpu: big ? 31850 : 15890,
            memory: (big ? 120 : 58) * GI,
            'ephemeral-storage': 100 * GI,
            'hugepages-2Mi': 0,
            ...(shape < 0.06 ? {} : { pods: 110 }),
            ...(pool.gpus ? { 'nvidia.com/gpu': pool.gpus } : {}),
          };
    nodes.push({
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': random() < 0.02 ? 'windows' : 'linux',
        'kubernetes.io/arch': 'amd64',
        'topology.kubernetes.io/zone': zone,
        'topology.kubernetes.io/region': 'r1',
        'node.kubernetes.io/instance-type': big ? 'n2-standard-32' : 'n2-standard-16',
        pool: pool.name,
        'cloud.google.com/gke-nodepool': pool.name,
        cores: String(big ? 32 : 16),
        ...pool.labels,
      },
      taints,
      unschedulable: cordoned,
      allocatable,
      requested: {
        cpu: Math.floor(random() * (big ? 32000 : 16000)),
        memory: Math.floor(random() * 64) * GI,
        pods: Math.floor(random() * 112),
        ...(random() < 0.3 ? { 'ephemeral-storage': Math.floor(random() * 100) * GI } : {}),
        ...(pool.gpus ? { 'nvidia.com/gpu': Math.floor(random() * 9) } : {}),
      },
    });
  }
  return nodes;
}

const DEFAULT_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

function benchLikePods(nodes: SchedulingNode[]): Array<{ name: string; pod: PodToPlace }> {
  const someNode = nodes[Math.floor(nodes.length / 3)].name;
  return [
    {
      name: 'web: os selector, anti-spot required, preferred zone',
      pod: {
        spec: {
          tolerations: DEFAULT_TOLERATIONS,
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'cloud.google.com/gke-spot', operator: 'DoesNotExist' }] },
                ],
              },
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 50,
                  preference: {
                    matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['b'] }],
                  },
                },
              ],
            },
          },
        },
        requests: { cpu: 250, memory: GI / 4 },
      },
    },
    {
      name: 'GPU trainer: toleration, selector, extended resource',
      pod: {
        spec: {
          tolerations: [...DEFAULT_TOLERATIONS, { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
          nodeSelector: { 'cloud.google.com/gke-accelerator': 'nvidia-tesla-a100' },
        },
        requests: { cpu: 8000, memory: 32 * GI, 'nvidia.com/gpu': 2 },
      },
    },
    {
      name: 'DaemonSet: tolerates all NoSchedule, matchFields metadata.name',
      pod: {
        spec: {
          tolerations: [
            { operator: 'Exists', effect: 'NoSchedule' },
            { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
          ],
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [someNode] }] }],
              },
            },
          },
        },
        requests: { cpu: 50, memory: 64 * 2 ** 20 },
      },
    },
    {
      name: 'name and labels mixed: NotIn metadata.name AND zone, or Gt cores; preferred hostnames',
      pod: {
        spec: {
          tolerations: [{ operator: 'Exists' }],
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  {
                    matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: [someNode] }],
                    matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'NotIn', values: ['c'] }],
                  },
                  { matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['20'] }] },
                ],
              },
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 30,
                  preference: {
                    matchExpressions: [
                      { key: 'kubernetes.io/hostname', operator: 'In', values: nodes.slice(0, 400).map((n) => n.name) },
                    ],
                  },
                },
                {
                  weight: 70,
                  preference: { matchExpressions: [{ key: 'pool', operator: 'In', values: ['spot', 'batch'] }] },
                },
              ],
            },
          },
        },
        requests: { cpu: 100 },
      },
    },
    {
      name: 'spot-friendly batch: PreferNoSchedule toleration, hugepages and ephemeral-storage',
      pod: {
        spec: {
          tolerations: [
            { key: 'cloud.google.com/gke-spot', operator: 'Equal', value: 'true', effect: 'PreferNoSchedule' },
            { key: 'dedicated', operator: 'Equal', value: 'batch' },
          ],
          affinity: {
            nodeAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                {
                  weight: 100,
                  preference: {
                    matchExpressions: [{ key: 'cloud.google.com/gke-spot', operator: 'In', values: ['true'] }],
                  },
                },
              ],
            },
          },
        },
        requests: { cpu: 1000, memory: GI, 'ephemeral-storage': 20 * GI, 'hugepages-2Mi': 2 ** 21 },
      },
    },
    {
      name: 'bare pod, ignored resources',
      pod: { spec: { tolerations: [] }, requests: { cpu: 100, 'example.com/ignored': 5, pods: 3 } },
    },
    {
      name: 'large pod with a zone selector',
      pod: {
        spec: {
          tolerations: DEFAULT_TOLERATIONS,
          nodeSelector: { 'topology.kubernetes.io/zone': 'a', pool: 'general' },
        },
        requests: { cpu: 12000, memory: 48 * GI },
      },
    },
    {
      name: 'unparsable and empty terms never match',
      pod: {
        spec: {
          tolerations: [],
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['x'] }] },
                  {},
                  { matchExpressions: [{ key: 'pool', operator: 'In', values: ['general'] }] },
                ],
              },
            },
          },
        },
      },
    },
  ];
}

/** The whole answer, plugin by plugin and node by node, from the plugins' own functions. */
function naiveDecision(p: PodToPlace, nodes: SchedulingNode[], redact = false): FeasibleNodesDecision {
  const tolerations = p.spec.tolerations;
  const options = { comparisonOperators: true };
  const tolerated = (taint: Taint, subset: Toleration[]) => subset.some((t) => toleratesTaint(t, taint, options));
  const required = compileRequiredNodeAffinity(p.spec);
  const preferred = compilePreferredNodeAffinity(p.spec);
  const requests = compileRequests(p.requests ?? {});
  const preferTolerations = tolerations.filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
  const sorted = [...nodes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const feasible: Array<{ name: string; tt: number; na: number }> = [];
  const infeasible: Array<{ name: string; feasible: false; reasons: Array<Record<string, unknown>> }> = [];
  const counts = new Map<string, number>();
  for (const n of sorted) {
    const failures: Array<Array<Record<string, unknown>>> = [];
    if (n.unschedulable && !tolerated(UNSCHEDULABLE_TAINT, tolerations))
      failures.push([{ plugin: 'NodeUnschedulable', message: 'node(s) were unschedulable' }]);
    const untolerated = n.taints.find((t) => t.effect !== 'PreferNoSchedule' && !tolerated(t, tolerations));
    if (untolerated) {
      failures.push([
        redact
          ? { plugin: 'TaintToleration', message: 'node(s) had untolerated taint(s)' }
          : {
              plugin: 'TaintToleration',
              message: `node(s) had untolerated taint {${untolerated.key}: ${untolerated.value ?? ''}}`,
              taint: untolerated,
            },
      ]);
    }
    if (required && !required(n))
      failures.push([{ plugin: 'NodeAffinity', message: "node(s) didn't match Pod's node affinity/selector" }]);
    const short = insufficientResources(requests, n);
    if (short.length)
      failures.push(
        short.map((r) => ({
          plugin: 'NodeResourcesFit',
          message: r === 'pods' ? 'Too many pods' : `Insufficient ${r}`,
          resource: r,
        })),
      );
    if (failures.length === 0) {
      feasible.push({
        name: n.name,
        tt: n.taints.filter((t) => t.effect === 'PreferNoSchedule' && !tolerated(t, preferTolerations)).length,
        na: preferredAffinityWeight(preferred, n),
      });
      continue;
    }
    for (const reason of failures[0])
      counts.set(reason.message as string, (counts.get(reason.message as string) ?? 0) + 1);
    infeasible.push({ name: n.name, feasible: false, reasons: failures.flat() });
  }
  const tt = defaultNormalizeScore(
    feasible.map((f) => f.tt),
    true,
  );
  const na = defaultNormalizeScore(
    feasible.map((f) => f.na),
    false,
  );
  const ranked = feasible
    .map((f, i) => ({
      name: f.name,
      feasible: true as const,
      score: totalScore(tt[i], na[i], preferred.length > 0),
      scores: { TaintToleration: tt[i], NodeAffinity: na[i] },
    }))
    .sort((x, y) => y.score - x.score || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  const histogram = [...counts].map(([reason, n]) => `${n} ${reason}`).sort();
  const head = `${feasible.length}/${nodes.length} nodes are available`;
  return {
    totalNodes: nodes.length,
    feasibleCount: feasible.length,
    message: histogram.length ? `${head}: ${histogram.join(', ')}.` : `${head}.`,
    nodes: [...ranked, ...infeasible] as FeasibleNodesDecision['nodes'],
  };
}

describe('decideFeasibleNodes over a bench-like inventory (5,000 nodes)', () => {
  const nodes = benchLikeNodes(5000, 7);
  const pods = benchLikePods(nodes);

  it('has the shape it claims: unique hostnames, pools, cordoned nodes, odd allocatables', () => {
    expect(new Set(nodes.map((n) => n.labels['kubernetes.io/hostname'])).size).toBe(5000);
    expect(nodes.filter((n) => n.unschedulable).length).toBeGreaterThan(50);
    expect(nodes.filter((n) => n.allocatable === null).length).toBeGreaterThan(50);
    expect(nodes.filter((n) => n.allocatable && n.allocatable.pods === undefined).length).toBeGreaterThan(50);
  });

  it.each(pods)('$name: the whole answer agrees with the plugin-by-plugin reference', ({ pod: p }) => {
    const expected = naiveDecision(p, nodes);
    expect(expected.feasibleCount).toBeGreaterThan(0);
    expect(expected.feasibleCount).toBeLessThan(5000);
    expect(decideFeasibleNodes(p, nodes)).toEqual(expected);
    expect(decideFeasibleNodes(p, nodes, { limit: 37 })).toEqual({ ...expected, nodes: expected.nodes.slice(0, 37) });
    expect(decideFeasibleNodes(p, nodes, { redactTaints: true })).toEqual(naiveDecision(p, nodes, true));
  });

  it('shuffled input gives the same answer', () => {
    const shuffled = [...nodes].sort((a, b) =>
      a.labels.cores + a.name.slice(-3) < b.labels.cores + b.name.slice(-3) ? -1 : 1,
    );
    for (const { pod: p } of pods.slice(0, 3))
      expect(decideFeasibleNodes(p, shuffled)).toEqual(decideFeasibleNodes(p, nodes));
  });
});

// re-place-pods.ts narrows its later rankings to these nodes: everything but the resources must pass.
describe('onResourceOnlyCandidates', () => {
  const nodes = [
    node('a', { allocatable: { cpu: 1000, pods: 10 } }),
    node('b', { allocatable: { cpu: 100, pods: 10 } }),
    node('c', { taints: [gpu], allocatable: { cpu: 1000, pods: 10 } }),
    node('d', { unschedulable: true, allocatable: { cpu: 1000, pods: 10 } }),
    node('e', { labels: { zone: 'x' }, allocatable: { cpu: 0, pods: 10 } }),
    node('f', { taints: [spot], allocatable: { cpu: 1000, pods: 0 } }),
  ];
  const p = pod({}, { cpu: 500 });
  const rowsOf = (options: FeasibleNodesOptions = {}) => {
    let rows: number[] = [];
    decideFeasibleNodes(p, nodes, { ...options, onResourceOnlyCandidates: (r) => (rows = [...r]) });
    return rows;
  };

  it('lists the feasible nodes and those NodeResourcesFit alone refused, as table rows in name order', () => {
    expect(rowsOf()).toEqual([0, 1, 4, 5]);
  });

  it('keeps to the candidates it was given, and the same best node over them', () => {
    const candidates = Int32Array.from([1, 2, 4, 5]);
    expect(rowsOf({ candidates })).toEqual([1, 4, 5]);
    const narrowed = decideFeasibleNodes(p, nodes, { candidates: Int32Array.from(rowsOf()), limit: 1 });
    expect(narrowed.nodes[0]).toEqual(decideFeasibleNodes(p, nodes, { limit: 1 }).nodes[0]);
  });
});
