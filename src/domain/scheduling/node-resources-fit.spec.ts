import {
  compileRequests,
  fitsResources,
  insufficientResourceReason,
  insufficientResources,
  isCheckedResource,
} from './node-resources-fit';
import type { ResourceVector } from '../types';

const GI = 2 ** 30;
// pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest.
const cases: Array<{
  description: string;
  requests: ResourceVector;
  allocatable: ResourceVector | null;
  requested?: ResourceVector;
  expected: string[];
}> = [
  {
    description: 'NodeResourcesFit: fits with room to spare',
    requests: { cpu: 500, memory: GI },
    allocatable: { cpu: 4000, memory: 16 * GI, pods: 110 },
    requested: { cpu: 1000, memory: GI, pods: 3 },
    expected: [],
  },
  {
    description: 'NodeResourcesFit: exactly the free amount fits',
    requests: { cpu: 3000 },
    allocatable: { cpu: 4000, pods: 110 },
    requested: { cpu: 1000 },
    expected: [],
  },
  {
    description: 'NodeResourcesFit: one millicore too many is Insufficient cpu',
    requests: { cpu: 3001 },
    allocatable: { cpu: 4000 },
    requested: { cpu: 1000 },
    expected: ['cpu'],
  },
  {
    description: 'NodeResourcesFit: every short resource is reported, pods first',
    requests: { memory: 2 * GI, cpu: 5000 },
    allocatable: { cpu: 4000, memory: GI, pods: 2 },
    requested: { pods: 2 },
    expected: ['pods', 'cpu', 'memory'],
  },
  {
    description: 'NodeResourcesFit: the pod itself counts toward pods (+1)',
    requests: {},
    allocatable: { pods: 3 },
    requested: { pods: 3 },
    expected: ['pods'],
  },
  {
    description: 'NodeResourcesFit: one pod slot left fits',
    requests: {},
    allocatable: { pods: 3 },
    requested: { pods: 2 },
    expected: [],
  },
  {
    description: 'NodeResourcesFit: allocatable without pods has no pod limit (taintwise)',
    requests: { cpu: 100 },
    allocatable: { cpu: 1000 },
    requested: { pods: 500 },
    expected: [],
  },
  {
    description: 'NodeResourcesFit: allocatable null means no limit (API.md)',
    requests: { cpu: 1e9, 'example.com/foo': 5 },
    allocatable: null,
    requested: { pods: 1e6 },
    expected: [],
  },
  {
    description: 'NodeResourcesFit: an extended resource the node does not list is insufficient',
    requests: { 'nvidia.com/gpu': 1 },
    allocatable: { cpu: 4000 },
    expected: ['nvidia.com/gpu'],
  },
  {
    description: 'NodeResourcesFit: cpu missing from a listed allocatable counts as 0',
    requests: { cpu: 1 },
    allocatable: { memory: GI },
    expected: ['cpu'],
  },
  {
    description: 'NodeResourcesFit: zero requests are not checked',
    requests: { cpu: 0, 'nvidia.com/gpu': 0 },
    allocatable: { cpu: 0 },
    requested: { cpu: 100 },
    expected: [],
  },
  {
    description: 'NodeResourcesFit: an overcommitted node still takes a pod requesting none of it',
    requests: { memory: 1 },
    allocatable: { cpu: 1000, memory: GI },
    requested: { cpu: 2000 },
    expected: [],
  },
  {
    description: 'NodeResourcesFit: ephemeral-storage and hugepages are checked',
    requests: { 'ephemeral-storage': 10, 'hugepages-2Mi': 4 },
    allocatable: { 'ephemeral-storage': 5, 'hugepages-2Mi': 2 },
    expected: ['ephemeral-storage', 'hugepages-2Mi'],
  },
  {
    description: 'NodeResourcesFit: scalar resources are checked in name order',
    requests: { 'z.io/b': 1, 'a.io/a': 1, cpu: 1 },
    allocatable: { cpu: 0 },
    expected: ['cpu', 'a.io/a', 'z.io/b'],
  },
  {
    description: 'NodeResourcesFit: memory missing from a listed allocatable counts as 0',
    requests: { memory: 1 },
    allocatable: { cpu: 1000 },
    expected: ['memory'],
  },
  {
    description: 'NodeResourcesFit: ephemeral-storage missing from allocatable counts as 0',
    requests: { 'ephemeral-storage': 1 },
    allocatable: { cpu: 1000 },
    expected: ['ephemeral-storage'],
  },
  {
    description: 'NodeResourcesFit: ephemeral-storage within what is free fits',
    requests: { 'ephemeral-storage': 5, memory: 5, cpu: 5 },
    allocatable: { 'ephemeral-storage': 10, memory: 10, cpu: 10 },
    requested: { 'ephemeral-storage': 5, memory: 5, cpu: 5 },
    expected: [],
  },
  {
    description: 'NodeResourcesFit: a scalar resource within what is free fits',
    requests: { 'nvidia.com/gpu': 1 },
    allocatable: { 'nvidia.com/gpu': 2 },
    requested: { 'nvidia.com/gpu': 1 },
    expected: [],
  },
  {
    description: 'NodeResourcesFit: names the scheduler does not track are ignored',
    requests: { foo: 10, pods: 5 },
    allocatable: { foo: 1, pods: 10 },
    expected: [],
  },
];

describe('NodeResourcesFit', () => {
  it.each(cases)('$description', ({ requests, allocatable, requested, expected }) => {
    const node = { allocatable, requested: requested ?? {} };
    const compiled = compileRequests(requests);
    expect(insufficientResources(compiled, node)).toEqual(expected);
    expect(fitsResources(compiled, node)).toBe(expected.length === 0);
  });
});

describe('NodeResourcesFit reasons and tracked resources', () => {
  it.each([
    { description: 'NodeResourcesFit: Too many pods', resource: 'pods', message: 'Too many pods' },
    { description: 'NodeResourcesFit: Insufficient cpu', resource: 'cpu', message: 'Insufficient cpu' },
    {
      description: 'NodeResourcesFit: Insufficient <extended>',
      resource: 'nvidia.com/gpu',
      message: 'Insufficient nvidia.com/gpu',
    },
  ])('$description', ({ resource, message }) => {
    expect(insufficientResourceReason(resource)).toEqual({ plugin: 'NodeResourcesFit', message, resource });
  });

  it.each([
    { description: 'NodeResourcesFit: cpu is tracked', resource: 'cpu', expected: true },
    {
      description: 'NodeResourcesFit: attachable volumes are tracked',
      resource: 'attachable-volumes-aws-ebs',
      expected: true,
    },
    {
      description: 'NodeResourcesFit: prefixed native resources are tracked',
      resource: 'kubernetes.io/batch',
      expected: true,
    },
    { description: 'NodeResourcesFit: pods is not a request', resource: 'pods', expected: false },
    { description: 'NodeResourcesFit: storage is not tracked', resource: 'storage', expected: false },
  ])('$description', ({ resource, expected }) => {
    expect(isCheckedResource(resource)).toBe(expected);
  });
});
