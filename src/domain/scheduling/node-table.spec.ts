import type { ResourceVector, SchedulingNode, Taint } from '../types';
import { decideFeasibleNodes } from './feasible-nodes';
import {
  attachNodeTable,
  buildNodeTable,
  nodeIndex,
  nodeTableOf,
  projectLabels,
  resourceFree,
  withNodeResources,
  withLabelCachesOf,
  withRefreshedResources,
} from './node-table';

const node = (name: string, overrides: Partial<SchedulingNode> = {}): SchedulingNode => ({
  name,
  labels: {},
  taints: [],
  unschedulable: false,
  allocatable: null,
  requested: {},
  ...overrides,
});
const gpu: Taint[] = [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }];

describe('buildNodeTable', () => {
  it('orders nodes by name (code units), equal names keeping their input order', () => {
    const first = node('b', { labels: { n: '1' } });
    const second = node('b', { labels: { n: '2' } });
    const table = buildNodeTable([node('c'), first, node('B'), second, node('a')]);
    expect(table.names).toEqual(['B', 'a', 'b', 'b', 'c']);
    expect(table.nodes[2]).toBe(first);
    expect(table.nodes[3]).toBe(second);
    expect(table.count).toBe(5);
  });

  it('keeps an already sorted array as is', () => {
    const nodes = [node('a'), node('b')];
    expect(buildNodeTable(nodes).nodes).toBe(nodes);
  });

  it('gives each distinct taint array one class; class 0 is every empty list', () => {
    const copy = [...gpu];
    const table = buildNodeTable([
      node('a', { taints: gpu }),
      node('b'),
      node('c', { taints: gpu }),
      node('d', { taints: copy }),
      node('e', { taints: [] }),
    ]);
    expect([...table.taintClassOf]).toEqual([1, 0, 1, 2, 0]);
    expect(table.taintClasses[0]).toEqual([]);
    expect(table.taintClasses[1]).toBe(gpu);
    expect(table.taintClasses[2]).toBe(copy);
  });

  it('marks cordoned nodes', () => {
    expect([...buildNodeTable([node('a', { unschedulable: true }), node('b')]).unschedulable]).toEqual([1, 0]);
  });

  it('NodeResourcesFit columns: allocatable − requested, a missing resource counting 0, Infinity without allocatable', () => {
    const table = buildNodeTable([
      node('a', {
        allocatable: { cpu: 4000, memory: 100, pods: 3, 'ephemeral-storage': 50 },
        requested: { cpu: 1500, pods: 2 },
      }),
      node('b', { allocatable: { cpu: 1000 }, requested: { memory: 10, pods: 500 } }), // no pods limit
      node('c', { allocatable: null, requested: { cpu: 1e9, pods: 1e9 } }),
      node('d', { allocatable: { pods: 2 }, requested: { pods: 2 } }),
    ]);
    expect([...table.cpuFree]).toEqual([2500, 1000, Infinity, 0]);
    expect([...table.memoryFree]).toEqual([100, -10, Infinity, 0]);
    expect([...table.ephemeralStorageFree]).toEqual([50, 0, Infinity, 0]);
    expect([...table.tooManyPods]).toEqual([0, 0, 0, 1]);
  });

  it('other resources get a column on first use, cached', () => {
    const table = buildNodeTable([
      node('a', { allocatable: { 'nvidia.com/gpu': 8 }, requested: { 'nvidia.com/gpu': 6 } }),
      node('b', { allocatable: { cpu: 1 } }),
      node('c'),
    ]);
    const column = resourceFree(table, 'nvidia.com/gpu');
    expect([...column]).toEqual([2, 0, Infinity]);
    expect(resourceFree(table, 'nvidia.com/gpu')).toBe(column);
    expect(resourceFree(table, 'cpu')).toBe(table.cpuFree);
  });

  it('finds the first node of a name', () => {
    const table = buildNodeTable([node('b'), node('a'), node('b')]);
    expect(nodeIndex(table, 'a')).toBe(0);
    expect(nodeIndex(table, 'b')).toBe(1);
    expect(nodeIndex(table, 'zz')).toBeUndefined();
  });
});

describe('projectLabels', () => {
  const nodes = [
    node('n1', { labels: { zone: 'a', os: 'linux', host: 'n1' } }),
    node('n2', { labels: { zone: 'b', os: 'linux', host: 'n2' } }),
    node('n3', { labels: { zone: 'a', os: 'linux', host: 'n3' } }),
    node('n4', { labels: { os: 'linux', host: 'n4' } }),
    node('n5', { labels: { zone: '', os: 'windows', host: 'n5' } }),
  ];

  it('groups nodes agreeing on every key; absent and empty values differ', () => {
    const table = buildNodeTable(nodes);
    const zones = projectLabels(table, { labels: ['zone'], name: false });
    expect(zones.classCount).toBe(4);
    expect([...zones.classOf]).toEqual([0, 1, 0, 2, 3]);
    expect(zones.representatives.map((n) => n.name)).toEqual(['n1', 'n2', 'n4', 'n5']);
    const zoneAndOs = projectLabels(table, { labels: ['os', 'zone'], name: false });
    expect(zoneAndOs.classCount).toBe(4);
  });

  it('a key no node has, or no key at all, makes one group', () => {
    const table = buildNodeTable(nodes);
    expect(projectLabels(table, { labels: ['absent'], name: false }).classCount).toBe(1);
    expect([...projectLabels(table, { labels: [], name: false }).classOf]).toEqual([0, 0, 0, 0, 0]);
    expect(projectLabels(buildNodeTable([]), { labels: ['zone'], name: false }).classCount).toBe(0);
  });

  it('inherited properties are not label values (a key like "constructor" is absent)', () => {
    const table = buildNodeTable([node('a'), node('b', { labels: { constructor: 'x' } })]);
    expect([...projectLabels(table, { labels: ['constructor'], name: false }).classOf]).toEqual([0, 1]);
  });

  it('unique values (hostname) and the metadata.name pseudo-key give one group per node', () => {
    const table = buildNodeTable(nodes);
    expect(projectLabels(table, { labels: ['host'], name: false }).classCount).toBe(5);
    const byName = projectLabels(table, { labels: [], name: true });
    expect(byName.classCount).toBe(5);
    expect(byName.representatives).toEqual(table.nodes);
  });

  it('is cached per key set (an LRU of 64)', () => {
    const table = buildNodeTable(nodes);
    const zones = projectLabels(table, { labels: ['zone'], name: false });
    expect(projectLabels(table, { labels: ['zone'], name: false })).toBe(zones);
    expect(projectLabels(table, { labels: ['zone'], name: true })).not.toBe(zones);
    for (let k = 0; k < 64; k++) projectLabels(table, { labels: [`k${k}`], name: false });
    expect(projectLabels(table, { labels: ['zone'], name: false })).not.toBe(zones);
  });
});

describe('derived tables', () => {
  const nodes = [
    node('a', { labels: { zone: 'x' }, allocatable: { cpu: 1000, pods: 2 }, requested: { cpu: 900, pods: 2 } }),
    node('b', { labels: { zone: 'y' }, allocatable: { cpu: 1000, pods: 2 }, requested: { cpu: 100, pods: 0 } }),
  ];

  it('withLabelCachesOf shares label caches only between the same names and labels objects', () => {
    const table = buildNodeTable(nodes);
    const tainted = buildNodeTable(nodes.map((n) => ({ ...n, taints: gpu, requested: {} })));
    const shared = withLabelCachesOf(tainted, table);
    expect(shared.labelCaches).toBe(table.labelCaches);
    expect(shared.taintClassOf).toBe(tainted.taintClassOf);
    expect([...shared.cpuFree]).toEqual([...tainted.cpuFree]);
    const relabelled = buildNodeTable([nodes[0], { ...nodes[1], labels: { zone: 'y' } }]);
    expect(withLabelCachesOf(relabelled, table)).toBe(relabelled);
    expect(withLabelCachesOf(buildNodeTable([nodes[0]]), table).labelCaches).not.toBe(table.labelCaches);
  });

  it("withNodeResources replaces one node's resources and shares the rest", () => {
    const table = buildNodeTable(nodes);
    resourceFree(table, 'example.com/x');
    const derived = withNodeResources(table, 0, { ...nodes[0], requested: { cpu: 400, pods: 1 } });
    expect([...derived.cpuFree]).toEqual([600, 900]);
    expect([...derived.tooManyPods]).toEqual([0, 0]);
    expect([...table.cpuFree]).toEqual([100, 900]);
    expect([...table.tooManyPods]).toEqual([1, 0]);
    expect(derived.labelCaches).toBe(table.labelCaches);
    expect(derived.taintClassOf).toBe(table.taintClassOf);
    expect(resourceFree(derived, 'example.com/x')).not.toBe(resourceFree(table, 'example.com/x'));
  });

  it('withRefreshedResources re-reads the rows whose vectors changed in place', () => {
    const mutable = nodes.map((n) => ({ ...n, requested: { ...n.requested } }));
    const table = buildNodeTable(mutable);
    mutable[1].requested.cpu = 1000;
    const refreshed = withRefreshedResources(table, [1]);
    expect([...refreshed.cpuFree]).toEqual([100, 0]);
    expect([...table.cpuFree]).toEqual([100, 900]);
    expect(refreshed.nodes).toBe(table.nodes);
  });

  it('nodeTableOf uses an attached table only while it is the table of that very array', () => {
    const array = [...nodes];
    const table = buildNodeTable(array);
    attachNodeTable(array, () => table);
    expect(nodeTableOf(array)).toBe(table);
    const other = [...nodes];
    attachNodeTable(other, () => table);
    expect(nodeTableOf(other)).not.toBe(table);
    expect(nodeTableOf(other).names).toEqual(['a', 'b']);
  });

  it('decideFeasibleNodes over a table with candidates equals deciding over those nodes', () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      node(`n${String(i).padStart(2, '0')}`, {
        labels: { zone: `z${i % 3}` },
        taints: i % 4 === 0 ? gpu : [],
        allocatable: { cpu: 1000, pods: 10 },
        requested: { cpu: (i * 37) % 1000, pods: i % 11 },
      }),
    );
    const table = buildNodeTable(many);
    const pick = [1, 2, 5, 8, 13, 21, 34];
    const pod = {
      spec: {
        tolerations: [],
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 5, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }] } },
            ],
          },
        },
      },
      requests: { cpu: 300 },
    };
    const subset = decideFeasibleNodes(pod, table, { candidates: Int32Array.from(pick) });
    expect(subset).toEqual(
      decideFeasibleNodes(
        pod,
        pick.map((i) => many[i]),
      ),
    );
    expect(subset.totalNodes).toBe(7);
  });
});

describe('node table edge rows (B.4.3 NodeResourcesFit columns, NodeAffinity groups)', () => {
  it.each([
    {
      description: 'B.4.3 a pods limit with no pods requested yet: one more fits',
      allocatable: { pods: 1 },
      requested: {},
      tooManyPods: 0,
    },
    {
      description: 'B.4.3 a pods limit of 0 with no pods requested: Too many pods',
      allocatable: { pods: 0 },
      requested: {},
      tooManyPods: 1,
    },
    {
      description: 'B.4.3 no pods limit in allocatable: never too many',
      allocatable: { cpu: 1 },
      requested: { pods: 1e6 },
      tooManyPods: 0,
    },
    {
      description: 'B.4.3 no allocatable at all: never too many',
      allocatable: null,
      requested: { pods: 1e6 },
      tooManyPods: 0,
    },
  ] as Array<{
    description: string;
    allocatable: ResourceVector | null;
    requested: ResourceVector;
    tooManyPods: number;
  }>)('$description', ({ allocatable, requested, tooManyPods }) => {
    expect([...buildNodeTable([node('a', { allocatable, requested })]).tooManyPods]).toEqual([tooManyPods]);
  });

  it.each([
    {
      description: 'the metadata.name column is built once and shared by later key sets',
      keys: [
        { labels: [], name: true },
        { labels: ['zone'], name: true },
      ],
      classCounts: [3, 3],
    },
    {
      description: 'duplicate names share one metadata.name group',
      keys: [{ labels: [], name: true }],
      classCounts: [3],
    },
  ])('$description', ({ keys, classCounts }) => {
    const table = buildNodeTable([
      node('a', { labels: { zone: 'x' } }),
      node('b', { labels: { zone: 'x' } }),
      node('b', { labels: { zone: 'x' } }),
      node('c', { labels: { zone: 'x' } }),
    ]);
    const projections = keys.map((k) => projectLabels(table, k));
    expect(projections.map((p) => p.classCount)).toEqual(classCounts);
    expect([...projections[0].classOf]).toEqual([0, 1, 1, 2]);
  });

  it.each([
    { description: 'label columns keep at most 256 keys, dropping the oldest first', others: 256, zoneKept: false },
    { description: 'label columns below the cap are all kept', others: 100, zoneKept: true },
  ])('$description', ({ others, zoneKept }) => {
    const table = buildNodeTable([node('a', { labels: { zone: 'x' } }), node('b', { labels: { zone: 'y' } })]);
    const first = projectLabels(table, { labels: ['zone'], name: false });
    const zoneColumn = table.labelCaches.columns.get('zone');
    for (let k = 0; k < others; k++) projectLabels(table, { labels: [`key-${k}`], name: false });
    expect(table.labelCaches.columns.size).toBe(Math.min(256, others + 1));
    expect(table.labelCaches.columns.get('zone') === zoneColumn).toBe(zoneKept);
    for (let k = 0; k < 64; k++) projectLabels(table, { labels: [`key-${k}`, 'pad'], name: false }); // push the cached projection out
    const again = projectLabels(table, { labels: ['zone'], name: false });
    expect(again).not.toBe(first);
    expect([...again.classOf]).toEqual([...first.classOf]);
  });
});
