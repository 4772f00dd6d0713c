import type { PodSpec, Toleration } from '../types';
import {
  type AdmissionDefaultsOptions,
  applyAdmissionDefaults,
  DEFAULT_ADMISSION_OPTIONS,
} from './apply-admission-defaults';

const NR = 'node.kubernetes.io/not-ready';
const UR = 'node.kubernetes.io/unreachable';
const t = (key: string, effect: string, tolerationSeconds?: number): Toleration =>
  tolerationSeconds === undefined
    ? { key, operator: 'Exists', effect }
    : { key, operator: 'Exists', effect, tolerationSeconds };
const user: Toleration = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
const off: AdmissionDefaultsOptions = {
  defaultTolerationSeconds: false,
  notReadySeconds: 300,
  unreachableSeconds: 300,
  daemonSetTolerations: false,
  memoryPressureToleration: false,
  extendedResourceToleration: false,
};

const cases: Array<{ description: string; pod: PodSpec; options?: AdmissionDefaultsOptions; expected: Toleration[] }> =
  [
    {
      description: 'A.6 BestEffort pod: only DefaultTolerationSeconds',
      pod: { tolerations: [user] },
      expected: [user, t(NR, 'NoExecute', 300), t(UR, 'NoExecute', 300)],
    },
    {
      description: 'A.6 Burstable pod: seconds, then memory-pressure (plugin order)',
      pod: { tolerations: [], resources: { requests: { cpu: '100m' } } },
      expected: [
        t(NR, 'NoExecute', 300),
        t(UR, 'NoExecute', 300),
        t('node.kubernetes.io/memory-pressure', 'NoSchedule'),
      ],
    },
    {
      description: 'A.6 GPU pod: memory-pressure then extended resources last',
      pod: { tolerations: [], resources: { requests: { cpu: '1', 'nvidia.com/gpu': '1' } } },
      expected: [
        t(NR, 'NoExecute', 300),
        t(UR, 'NoExecute', 300),
        t('node.kubernetes.io/memory-pressure', 'NoSchedule'),
        t('nvidia.com/gpu', 'NoSchedule'),
      ],
    },
    {
      description: 'A.6 DaemonSet pod: forever not-ready/unreachable, so no 300 s ones (B.8.15)',
      pod: {
        tolerations: [{ key: NR, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
        owner: { kind: 'DaemonSet', name: 'fluentd' },
      },
      expected: [
        t(NR, 'NoExecute'),
        t(UR, 'NoExecute'),
        t('node.kubernetes.io/disk-pressure', 'NoSchedule'),
        t('node.kubernetes.io/memory-pressure', 'NoSchedule'),
        t('node.kubernetes.io/pid-pressure', 'NoSchedule'),
        t('node.kubernetes.io/unschedulable', 'NoSchedule'),
      ],
    },
    {
      description: 'A.6 owner other than DaemonSet gets no DaemonSet tolerations',
      pod: { tolerations: [], owner: { kind: 'ReplicaSet', name: 'web' } },
      expected: [t(NR, 'NoExecute', 300), t(UR, 'NoExecute', 300)],
    },
    {
      description: 'A.6 configured seconds',
      pod: { tolerations: [] },
      options: { ...DEFAULT_ADMISSION_OPTIONS, notReadySeconds: 30, unreachableSeconds: 0 },
      expected: [t(NR, 'NoExecute', 30), t(UR, 'NoExecute', 0)],
    },
    {
      description: 'A.6 everything switched off: unchanged',
      pod: {
        tolerations: [user],
        owner: { kind: 'DaemonSet', name: 'x' },
        resources: { requests: { cpu: '1', 'nvidia.com/gpu': '1' } },
      },
      options: off,
      expected: [user],
    },
    {
      description: 'A.6 DaemonSet only',
      pod: { tolerations: [], owner: { kind: 'DaemonSet', name: 'x' }, hostNetwork: true },
      options: { ...off, daemonSetTolerations: true },
      expected: [
        t(NR, 'NoExecute'),
        t(UR, 'NoExecute'),
        t('node.kubernetes.io/disk-pressure', 'NoSchedule'),
        t('node.kubernetes.io/memory-pressure', 'NoSchedule'),
        t('node.kubernetes.io/pid-pressure', 'NoSchedule'),
        t('node.kubernetes.io/unschedulable', 'NoSchedule'),
        t('node.kubernetes.io/network-unavailable', 'NoSchedule'),
      ],
    },
    {
      description: 'A.6 extended resources only',
      pod: { tolerations: [], resources: { limits: { 'example.com/fpga': '1' } } },
      options: { ...off, extendedResourceToleration: true },
      expected: [t('example.com/fpga', 'NoSchedule')],
    },
    {
      description: 'A.6 a wildcard pod toleration absorbs every default',
      pod: { tolerations: [{ operator: 'Exists' }], resources: { requests: { memory: '1Gi' } } },
      expected: [{ operator: 'Exists' }],
    },
  ];

describe('applyAdmissionDefaults (SEMANTICS A.6, B.6.1-B.6.3, B.7)', () => {
  it.each(cases)('$description', ({ pod, options, expected }) => {
    const before = JSON.stringify(pod);
    const result = applyAdmissionDefaults(pod, options ?? DEFAULT_ADMISSION_OPTIONS);
    expect(result.tolerations).toEqual(expected);
    expect(JSON.stringify(pod)).toBe(before);
    expect(result).not.toBe(pod);
  });

  it('A.6 other fields are kept and defaults apply without options', () => {
    const pod: PodSpec = { tolerations: [], nodeSelector: { zone: 'a' }, priority: 5 };
    const result = applyAdmissionDefaults(pod);
    expect(result.nodeSelector).toEqual({ zone: 'a' });
    expect(result.priority).toBe(5);
    expect(result.tolerations).toHaveLength(2);
  });

  it('A.6 a pod without a tolerations field gets the defaults', () => {
    expect(applyAdmissionDefaults({} as PodSpec).tolerations).toEqual([
      t(NR, 'NoExecute', 300),
      t(UR, 'NoExecute', 300),
    ]);
  });

  it('A.6 returned tolerations are copies', () => {
    const pod: PodSpec = { tolerations: [{ ...user }] };
    const result = applyAdmissionDefaults(pod, off);
    expect(result.tolerations[0]).not.toBe(pod.tolerations[0]);
  });
});
