import { effectivePodRequests, type PodRequestsInput, type PodRequestsResult } from './pod-requests';

const requests = (list: Record<string, string>) => ({ resources: { requests: list } });
const sidecar = (list: Record<string, string>) => ({ resources: { requests: list }, restartPolicy: 'Always' });

// Port of resourcehelper.PodRequests / AggregateContainerRequests (k8s.io/component-helpers/resource).
const cases: Array<{ description: string; input: PodRequestsInput; expected: PodRequestsResult }> = [
  { description: 'PodRequests: no containers request nothing', input: {}, expected: { vector: {}, errors: [] } },
  {
    description: 'PodRequests: null lists request nothing',
    input: { containers: null, initContainers: null, overhead: null },
    expected: { vector: {}, errors: [] },
  },
  {
    description: 'PodRequests: containers without resources request nothing',
    input: { containers: [{}, { resources: null }, { resources: {} }] },
    expected: { vector: {}, errors: [] },
  },
  {
    description: 'PodRequests: app containers are summed',
    input: { containers: [requests({ cpu: '100m', memory: '64Mi' }), requests({ cpu: '250m' })] },
    expected: { vector: { cpu: 350, memory: 67108864 }, errors: [] },
  },
  {
    description: 'PodRequests: a limit without a request counts as the request (API defaulting)',
    input: { containers: [{ resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { memory: '512Mi' } } }] },
    expected: { vector: { cpu: 1000, memory: 536870912 }, errors: [] },
  },
  {
    description: 'PodRequests: a larger init container raises the total (max, not sum)',
    input: { containers: [requests({ cpu: '100m', memory: '1Gi' })], initContainers: [requests({ cpu: '2' })] },
    expected: { vector: { cpu: 2000, memory: 1073741824 }, errors: [] },
  },
  {
    description: 'PodRequests: init containers run one at a time (max of them)',
    input: {
      containers: [requests({ cpu: '100m' })],
      initContainers: [requests({ cpu: '500m' }), requests({ cpu: '300m' })],
    },
    expected: { vector: { cpu: 500 }, errors: [] },
  },
  {
    description: 'PodRequests: a smaller init container does not change the sum',
    input: { containers: [requests({ cpu: '1' })], initContainers: [requests({ cpu: '500m' })] },
    expected: { vector: { cpu: 1000 }, errors: [] },
  },
  {
    description: 'PodRequests: a restartable sidecar init container adds to the sum',
    input: { containers: [requests({ cpu: '1' })], initContainers: [sidecar({ cpu: '200m' })] },
    expected: { vector: { cpu: 1200 }, errors: [] },
  },
  {
    description: 'PodRequests: an init container after a sidecar needs room next to it',
    input: {
      containers: [requests({ cpu: '100m' })],
      initContainers: [sidecar({ cpu: '200m' }), requests({ cpu: '1' })],
    },
    expected: { vector: { cpu: 1200 }, errors: [] },
  },
  {
    description: 'PodRequests: an init container before a sidecar runs alone',
    input: {
      containers: [requests({ cpu: '100m' })],
      initContainers: [requests({ cpu: '1' }), sidecar({ cpu: '200m' })],
    },
    expected: { vector: { cpu: 1000 }, errors: [] },
  },
  {
    description: 'PodRequests: a resource only an init container asks for is still charged (zero included)',
    input: { containers: [requests({ cpu: '100m' })], initContainers: [requests({ memory: '0' })] },
    expected: { vector: { cpu: 100, memory: 0 }, errors: [] },
  },
  {
    description: 'PodRequests: overhead is added on top',
    input: { containers: [requests({ cpu: '100m' })], overhead: { cpu: '50m', memory: '10Mi' } },
    expected: { vector: { cpu: 150, memory: 10485760 }, errors: [] },
  },
  {
    description: 'PodRequests: bad quantities are reported with their field and left out',
    input: {
      containers: [{ resources: { requests: { cpu: 'x' }, limits: { memory: 'y' } } }],
      initContainers: [requests({ cpu: '-1' })],
      overhead: { cpu: 'z' },
    },
    expected: {
      vector: {},
      errors: [
        { field: 'containers[0].resources.limits.memory', resource: 'memory', value: 'y' },
        { field: 'containers[0].resources.requests.cpu', resource: 'cpu', value: 'x' },
        { field: 'initContainers[0].resources.requests.cpu', resource: 'cpu', value: '-1' },
        { field: 'overhead.cpu', resource: 'cpu', value: 'z' },
      ],
    },
  },
];

describe('effectivePodRequests', () => {
  it.each(cases)('$description', ({ input, expected }) => {
    expect(effectivePodRequests(input)).toEqual(expected);
  });
});
