import type { NodeCondition, Taint } from '../types';
import {
  isLifecycleTaint,
  LIFECYCLE_NO_EXECUTE_KEYS,
  LIFECYCLE_NO_SCHEDULE_KEYS,
  taintsForConditions,
} from './taints-for-conditions';

const before = new Date('2025-01-01T00:00:00Z');
const now = new Date('2025-06-01T12:00:00Z');
const k = (name: string) => `node.kubernetes.io/${name}`;
const ns = (name: string, timeAdded = now): Taint => ({ key: k(name), effect: 'NoSchedule', timeAdded });
const ne = (name: string, timeAdded = now): Taint => ({ key: k(name), effect: 'NoExecute', timeAdded });
const user: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule', timeAdded: before };
const c = (type: string, status: string): NodeCondition => ({ type, status });
const ready = c('Ready', 'True');

const cases: Array<{
  description: string;
  conditions: NodeCondition[];
  unschedulable?: boolean;
  existing: Taint[];
  expected: Taint[];
}> = [
  {
    description: 'B.6.4 healthy node: no lifecycle taints',
    conditions: [ready, c('MemoryPressure', 'False')],
    existing: [user],
    expected: [user],
  },
  {
    description: 'B.6.4 Ready=False: not-ready NoSchedule and NoExecute',
    conditions: [c('Ready', 'False')],
    existing: [],
    expected: [ns('not-ready'), ne('not-ready')],
  },
  {
    description: 'B.6.4 Ready=Unknown: unreachable NoSchedule and NoExecute',
    conditions: [c('Ready', 'Unknown')],
    existing: [],
    expected: [ns('unreachable'), ne('unreachable')],
  },
  {
    description: 'B.6.4 Ready=True removes both NoExecute and NoSchedule ones',
    conditions: [ready],
    existing: [ns('not-ready', before), user, ne('not-ready', before), ne('unreachable', before)],
    expected: [user],
  },
  {
    description: 'B.6.4 False→Unknown swaps the NoExecute taint at once',
    conditions: [c('Ready', 'Unknown')],
    existing: [ns('not-ready', before), ne('not-ready', before)],
    expected: [ns('unreachable'), ne('unreachable')],
  },
  {
    description: 'A.7 an already-present lifecycle taint keeps its timeAdded',
    conditions: [c('Ready', 'False')],
    existing: [ns('not-ready', before), ne('not-ready', before)],
    expected: [ns('not-ready', before), ne('not-ready', before)],
  },
  {
    description: 'B.6.4 pressure conditions (True) give NoSchedule taints',
    conditions: [
      ready,
      c('MemoryPressure', 'True'),
      c('DiskPressure', 'True'),
      c('PIDPressure', 'True'),
      c('NetworkUnavailable', 'True'),
    ],
    existing: [],
    expected: [ns('memory-pressure'), ns('disk-pressure'), ns('pid-pressure'), ns('network-unavailable')],
  },
  {
    description: 'B.6.4 pressure gone: taint removed, others kept in place',
    conditions: [ready, c('MemoryPressure', 'False'), c('DiskPressure', 'True')],
    existing: [ns('memory-pressure', before), user, ns('disk-pressure', before)],
    expected: [user, ns('disk-pressure', before)],
  },
  {
    description: 'B.6.4 pressure with Unknown status gives no taint',
    conditions: [ready, c('MemoryPressure', 'Unknown')],
    existing: [],
    expected: [],
  },
  {
    description: 'B.6.4 unschedulable adds the unschedulable taint',
    conditions: [ready],
    unschedulable: true,
    existing: [],
    expected: [ns('unschedulable')],
  },
  {
    description: 'B.6.4 not unschedulable removes it',
    conditions: [ready],
    unschedulable: false,
    existing: [ns('unschedulable', before)],
    expected: [],
  },
  {
    description: 'B.6.4 only NoSchedule taints with lifecycle keys are managed',
    conditions: [ready],
    existing: [
      { key: k('memory-pressure'), effect: 'NoExecute' },
      { key: k('not-ready'), effect: 'PreferNoSchedule' },
    ],
    expected: [
      { key: k('memory-pressure'), effect: 'NoExecute' },
      { key: k('not-ready'), effect: 'PreferNoSchedule' },
    ],
  },
  {
    description: 'B.6.4 a present lifecycle taint with a value counts as present',
    conditions: [ready, c('DiskPressure', 'True')],
    existing: [{ key: k('disk-pressure'), value: 'x', effect: 'NoSchedule' }],
    expected: [{ key: k('disk-pressure'), value: 'x', effect: 'NoSchedule' }],
  },
  {
    description: 'A.7 no Ready condition: NoExecute taints left as they are, NoSchedule reconciled',
    conditions: [],
    existing: [ns('not-ready', before), ne('not-ready', before)],
    expected: [ne('not-ready', before)],
  },
  {
    description: 'A.7 an unknown Ready status leaves NoExecute taints alone',
    conditions: [c('Ready', 'Maybe')],
    existing: [ne('unreachable', before)],
    expected: [ne('unreachable', before)],
  },
  {
    description: 'B.6.4 unknown condition types are ignored',
    conditions: [ready, c('KernelDeadlock', 'True')],
    existing: [],
    expected: [],
  },
  {
    description: 'B.6.4 a repeated condition gives one taint',
    conditions: [ready, c('DiskPressure', 'True'), c('DiskPressure', 'True')],
    existing: [],
    expected: [ns('disk-pressure')],
  },
];

describe('taintsForConditions (SEMANTICS A.7, B.6.4)', () => {
  it.each(cases)('$description', ({ conditions, unschedulable, existing, expected }) => {
    const snapshot = JSON.stringify(existing);
    expect(taintsForConditions(conditions, unschedulable ?? false, existing, now)).toEqual(expected);
    expect(JSON.stringify(existing)).toBe(snapshot);
  });
});

const lifecycleCases = [
  {
    description: 'B.6.4 not-ready NoSchedule is a lifecycle taint',
    taint: { key: k('not-ready'), effect: 'NoSchedule' as const },
    expected: true,
  },
  {
    description: 'B.6.4 unreachable NoExecute is a lifecycle taint',
    taint: { key: k('unreachable'), effect: 'NoExecute' as const },
    expected: true,
  },
  {
    description: 'B.6.4 disk-pressure NoExecute is not',
    taint: { key: k('disk-pressure'), effect: 'NoExecute' as const },
    expected: false,
  },
  {
    description: 'B.6.4 PreferNoSchedule never is',
    taint: { key: k('not-ready'), effect: 'PreferNoSchedule' as const },
    expected: false,
  },
  {
    description: 'B.6.4 a user key is not',
    taint: { key: 'dedicated', effect: 'NoSchedule' as const },
    expected: false,
  },
];

describe('isLifecycleTaint (SEMANTICS B.6.4)', () => {
  it.each(lifecycleCases)('$description', ({ taint, expected }) => {
    expect(isLifecycleTaint(taint)).toBe(expected);
  });
});

describe('the keys the lifecycle controller owns (SEMANTICS B.6.4)', () => {
  it.each([
    {
      description: 'B.6.4 NoSchedule: the five condition keys and unschedulable',
      keys: LIFECYCLE_NO_SCHEDULE_KEYS,
      expected: [
        'not-ready',
        'unreachable',
        'memory-pressure',
        'disk-pressure',
        'network-unavailable',
        'pid-pressure',
        'unschedulable',
      ].map(k),
    },
    {
      description: 'B.6.4 NoExecute: only not-ready and unreachable',
      keys: LIFECYCLE_NO_EXECUTE_KEYS,
      expected: ['not-ready', 'unreachable'].map(k),
    },
  ])('$description', ({ keys, expected }) => {
    expect([...keys].sort()).toEqual([...expected].sort());
  });
});
