import type { PodResources, Toleration } from '../types';
import {
  addDaemonSetTolerations,
  addDefaultTolerationSeconds,
  addExtendedResourceTolerations,
  addMemoryPressureToleration,
  isExtendedResourceName,
} from './admission-tolerations';
import type { PodQosClass } from './pod-qos-class';

const NR = 'node.kubernetes.io/not-ready';
const UR = 'node.kubernetes.io/unreachable';
const notReady300: Toleration = { key: NR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable300: Toleration = { key: UR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const user: Toleration = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };

const dtsCases: Array<{ description: string; tolerations: Toleration[]; expected: Toleration[] }> = [
  {
    description: 'B.6.1 no tolerations: both appended with 300 s',
    tolerations: [],
    expected: [notReady300, unreachable300],
  },
  {
    description: "B.6.1 appended after the pod's own",
    tolerations: [user],
    expected: [user, notReady300, unreachable300],
  },
  {
    description: 'B.6.1 an existing not-ready toleration is kept as is',
    tolerations: [{ key: NR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }],
    expected: [{ key: NR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }, unreachable300],
  },
  {
    description: 'B.8.15 an Equal value=x not-ready toleration counts as already tolerating',
    tolerations: [{ key: NR, operator: 'Equal', value: 'x', effect: 'NoExecute' }],
    expected: [{ key: NR, operator: 'Equal', value: 'x', effect: 'NoExecute' }, unreachable300],
  },
  {
    description: 'B.8.15 empty effect counts',
    tolerations: [{ key: UR, operator: 'Exists' }],
    expected: [{ key: UR, operator: 'Exists' }, notReady300],
  },
  {
    description: 'B.8.15 empty key (any operator) counts for both',
    tolerations: [{ operator: 'Equal', value: 'x', effect: 'NoExecute' }],
    expected: [{ operator: 'Equal', value: 'x', effect: 'NoExecute' }],
  },
  {
    description: 'B.8.15 an unreachable toleration with its own seconds counts (kept, not re-timed)',
    tolerations: [{ key: UR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }],
    expected: [{ key: UR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }, notReady300],
  },
  {
    description: 'B.8.15 an empty-key Exists NoExecute toleration with seconds counts for both',
    tolerations: [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 }],
    expected: [{ operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 }],
  },
  {
    description: 'B.8.15 an unknown operator on the key still counts (operator not examined)',
    tolerations: [{ key: NR, operator: 'Gt', value: '1', effect: 'NoExecute' }],
    expected: [{ key: NR, operator: 'Gt', value: '1', effect: 'NoExecute' }, unreachable300],
  },
  {
    description: 'B.6.1 a PreferNoSchedule empty-key toleration does not count',
    tolerations: [{ operator: 'Exists', effect: 'PreferNoSchedule' }],
    expected: [{ operator: 'Exists', effect: 'PreferNoSchedule' }, notReady300, unreachable300],
  },
  {
    description: 'B.6.1 a NoSchedule not-ready toleration does not count',
    tolerations: [{ key: NR, operator: 'Exists', effect: 'NoSchedule' }],
    expected: [{ key: NR, operator: 'Exists', effect: 'NoSchedule' }, notReady300, unreachable300],
  },
];

describe('addDefaultTolerationSeconds (SEMANTICS B.6.1)', () => {
  it.each(dtsCases)('$description', ({ tolerations, expected }) => {
    expect(addDefaultTolerationSeconds(tolerations, 300, 300)).toEqual(expected);
  });

  it('B.6.1 seconds are configurable', () => {
    expect(addDefaultTolerationSeconds([], 60, 120).map((t) => t.tolerationSeconds)).toEqual([60, 120]);
  });
});

const daemon = (key: string, effect: string): Toleration => ({
  key: `node.kubernetes.io/${key}`,
  operator: 'Exists',
  effect,
});
const daemonDefaults = [
  daemon('not-ready', 'NoExecute'),
  daemon('unreachable', 'NoExecute'),
  daemon('disk-pressure', 'NoSchedule'),
  daemon('memory-pressure', 'NoSchedule'),
  daemon('pid-pressure', 'NoSchedule'),
  daemon('unschedulable', 'NoSchedule'),
];

const dsCases: Array<{ description: string; tolerations: Toleration[]; hostNetwork: boolean; expected: Toleration[] }> =
  [
    {
      description: 'B.6.2 the six DaemonSet tolerations, in upstream order',
      tolerations: [],
      hostNetwork: false,
      expected: daemonDefaults,
    },
    {
      description: 'B.6.2 hostNetwork adds network-unavailable',
      tolerations: [],
      hostNetwork: true,
      expected: [...daemonDefaults, daemon('network-unavailable', 'NoSchedule')],
    },
    {
      description: 'B.6.2 a user not-ready 60s Exists NoExecute is replaced by the forever one, in place',
      tolerations: [user, { key: NR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
      hostNetwork: false,
      expected: [user, daemon('not-ready', 'NoExecute'), ...daemonDefaults.slice(1)],
    },
    {
      description: 'B.6.2 a different-identity not-ready toleration is kept beside it',
      tolerations: [{ key: NR, operator: 'Exists', tolerationSeconds: 60 }],
      hostNetwork: false,
      expected: [{ key: NR, operator: 'Exists', tolerationSeconds: 60 }, ...daemonDefaults],
    },
  ];

describe('addDaemonSetTolerations (SEMANTICS B.6.2)', () => {
  it.each(dsCases)('$description', ({ tolerations, hostNetwork, expected }) => {
    expect(addDaemonSetTolerations(tolerations, hostNetwork)).toEqual(expected);
  });
});

const mpCases: Array<{ description: string; tolerations: Toleration[]; qos: PodQosClass; expected: Toleration[] }> = [
  { description: 'B.6.3 BestEffort gets nothing', tolerations: [user], qos: 'BestEffort', expected: [user] },
  {
    description: 'B.6.3 Burstable gets memory-pressure',
    tolerations: [user],
    qos: 'Burstable',
    expected: [user, daemon('memory-pressure', 'NoSchedule')],
  },
  {
    description: 'B.6.3 Guaranteed gets memory-pressure once',
    tolerations: [daemon('memory-pressure', 'NoSchedule')],
    qos: 'Guaranteed',
    expected: [daemon('memory-pressure', 'NoSchedule')],
  },
];

describe('addMemoryPressureToleration (SEMANTICS B.6.3)', () => {
  it.each(mpCases)('$description', ({ tolerations, qos, expected }) => {
    expect(addMemoryPressureToleration(tolerations, qos)).toEqual(expected);
  });
});

const extendedNameCases = [
  { description: 'B.7 vendor resource is extended', name: 'nvidia.com/gpu', expected: true },
  { description: 'B.7 no slash: native (cpu)', name: 'cpu', expected: false },
  { description: 'B.7 kubernetes.io/ namespace is native', name: 'kubernetes.io/foo', expected: false },
  {
    description: 'B.7 any *.kubernetes.io/ is native (contains, not prefix)',
    name: 'node.kubernetes.io/foo',
    expected: false,
  },
  { description: 'B.7 hugepages-2Mi is native', name: 'hugepages-2Mi', expected: false },
  { description: 'B.7 requests.-prefixed is not extended', name: 'requests.example.com/foo', expected: false },
  { description: 'B.7 requests.<name> must be a qualified name', name: 'example.com/Bad Name', expected: false },
  {
    description: 'B.7 upper-case prefix fails requests.<name> qualification',
    name: 'Example.com/foo',
    expected: false,
  },
];

describe('isExtendedResourceName (SEMANTICS B.7)', () => {
  it.each(extendedNameCases)('$description', ({ name, expected }) => {
    expect(isExtendedResourceName(name)).toBe(expected);
  });
});

const ext = (key: string): Toleration => ({ key, operator: 'Exists', effect: 'NoSchedule' });
const extCases: Array<{
  description: string;
  tolerations: Toleration[];
  resources: PodResources | null;
  expected: Toleration[];
}> = [
  { description: 'B.7 no resources: nothing added', tolerations: [user], resources: null, expected: [user] },
  {
    description: 'B.7 only native resources: nothing added',
    tolerations: [],
    resources: { requests: { cpu: '1', memory: '1Gi' } },
    expected: [],
  },
  {
    description: 'B.7 extended resources added in sorted order',
    tolerations: [],
    resources: { requests: { 'z.example.com/b': '1', 'nvidia.com/gpu': '2', cpu: '1' } },
    expected: [ext('nvidia.com/gpu'), ext('z.example.com/b')],
  },
  {
    description: 'B.7 limits-only extended resources count (defaulting)',
    tolerations: [],
    resources: { limits: { 'example.com/fpga': '1' } },
    expected: [ext('example.com/fpga')],
  },
  {
    description: 'B.7 an identical toleration is not duplicated',
    tolerations: [ext('nvidia.com/gpu')],
    resources: { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
    expected: [ext('nvidia.com/gpu')],
  },
];

describe('addExtendedResourceTolerations (SEMANTICS B.7)', () => {
  it.each(extCases)('$description', ({ tolerations, resources, expected }) => {
    expect(addExtendedResourceTolerations(tolerations, resources)).toEqual(expected);
  });
});
