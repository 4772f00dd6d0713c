import type { PodResources } from '../types';
import { type PodQosClass, podQosClass } from './pod-qos-class';

const cases: Array<{ description: string; resources: PodResources | null | undefined; expected: PodQosClass }> = [
  { description: 'A.6 no resources: BestEffort', resources: undefined, expected: 'BestEffort' },
  { description: 'A.6 null resources: BestEffort', resources: null, expected: 'BestEffort' },
  {
    description: 'A.6 empty requests and limits: BestEffort',
    resources: { requests: {}, limits: {} },
    expected: 'BestEffort',
  },
  {
    description: 'A.6 zero requests do not count: BestEffort',
    resources: { requests: { cpu: '0', memory: '0' } },
    expected: 'BestEffort',
  },
  {
    description: 'A.6 only extended resources: BestEffort (only cpu/memory decide)',
    resources: { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
    expected: 'BestEffort',
  },
  { description: 'A.6 a cpu request only: Burstable', resources: { requests: { cpu: '100m' } }, expected: 'Burstable' },
  {
    description: 'A.6 requests below limits: Burstable',
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '1', memory: '128Mi' } },
    expected: 'Burstable',
  },
  { description: 'A.6 only a cpu limit: Burstable', resources: { limits: { cpu: '1' } }, expected: 'Burstable' },
  {
    description: 'A.6 cpu and memory limits equal requests: Guaranteed',
    resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } },
    expected: 'Guaranteed',
  },
  {
    description: 'A.6 equal by value, not by text (1 == 1000m, 1Gi == 1073741824)',
    resources: { requests: { cpu: '1000m', memory: '1073741824' }, limits: { cpu: '1', memory: '1Gi' } },
    expected: 'Guaranteed',
  },
  {
    description: 'A.6 limits only: requests defaulted from limits, Guaranteed',
    resources: { limits: { cpu: '500m', memory: '256Mi' } },
    expected: 'Guaranteed',
  },
  {
    description: 'A.6 explicit zero request with a limit: Burstable',
    resources: { requests: { cpu: '0' }, limits: { cpu: '1', memory: '1Gi' } },
    expected: 'Burstable',
  },
  {
    description: 'A.6 extended resources do not spoil Guaranteed',
    resources: { requests: { cpu: '1', memory: '1Gi', 'example.com/fpga': '1' }, limits: { cpu: '1', memory: '1Gi' } },
    expected: 'Guaranteed',
  },
  {
    description: 'A.6 unparseable quantities compare as text',
    resources: { limits: { cpu: 'lots', memory: 'lots' } },
    expected: 'Guaranteed',
  },
  {
    description: 'A.6 unparseable request differing from limit: Burstable',
    resources: { requests: { cpu: 'some', memory: '1Gi' }, limits: { cpu: 'lots', memory: '1Gi' } },
    expected: 'Burstable',
  },
];

describe('podQosClass (SEMANTICS A.6)', () => {
  it.each(cases)('$description', ({ resources, expected }) => {
    expect(podQosClass(resources)).toBe(expected);
  });
});
