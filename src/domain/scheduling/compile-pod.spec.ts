import { compilePod, type PodToPlace } from './compile-pod';

const cases: Array<{ description: string; pod: PodToPlace; expected: Record<string, unknown> }> = [
  {
    description: 'B.4 a bare pod: no tolerations, no affinity, no requests',
    pod: { spec: { tolerations: undefined as unknown as [] } },
    expected: {
      kind: 'CompiledPod',
      toleratesUnschedulable: false,
      filterTolerations: [],
      preferTolerations: [],
      requiredAffinity: undefined,
      preferredAffinity: [],
      requests: { names: [], amounts: [] },
    },
  },
  {
    description: 'B.4.1 tolerations are split by effect once per pod',
    pod: {
      spec: {
        tolerations: [{ key: 'a', effect: 'NoSchedule' }, { key: 'b', effect: 'PreferNoSchedule' }, { key: 'c' }],
      },
    },
    expected: {
      filterTolerations: [{ key: 'a', effect: 'NoSchedule' }, { key: 'c' }],
      preferTolerations: [{ key: 'b', effect: 'PreferNoSchedule' }, { key: 'c' }],
    },
  },
  {
    description: 'B.4.2 the NodeUnschedulable answer is decided once',
    pod: { spec: { tolerations: [{ operator: 'Exists' }] } },
    expected: { toleratesUnschedulable: true },
  },
  {
    description: 'PodRequests: requests come from spec.resources, limits standing in',
    pod: {
      spec: { tolerations: [], resources: { requests: { memory: '1Ki' }, limits: { cpu: '1500m', memory: '2Ki' } } },
    },
    expected: { requests: { names: ['cpu', 'memory'], amounts: [1500, 1024] } },
  },
  {
    description: 'PodRequests: an explicit requests vector wins over spec.resources',
    pod: { spec: { tolerations: [], resources: { requests: { cpu: '1' } } }, requests: { cpu: 250 } },
    expected: { requests: { names: ['cpu'], amounts: [250] } },
  },
];

describe('compilePod', () => {
  it.each(cases)('$description', ({ pod, expected }) => {
    expect(compilePod(pod)).toMatchObject(expected);
  });
});
