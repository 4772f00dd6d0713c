import { toleratesUnschedulable, UNSCHEDULABLE_TAINT } from './node-unschedulable';
import type { Toleration } from '../types';

const KEY = UNSCHEDULABLE_TAINT.key;
const cases: Array<{ description: string; tolerations: Toleration[]; gate?: boolean; expected: boolean }> = [
  { description: 'B.4.2 no tolerations: a cordoned node is off limits', tolerations: [], expected: false },
  {
    description: 'B.4.2 Exists on the unschedulable key tolerates',
    tolerations: [{ key: KEY, operator: 'Exists' }],
    expected: true,
  },
  {
    description: 'B.4.2 Exists with effect NoSchedule tolerates',
    tolerations: [{ key: KEY, operator: 'Exists', effect: 'NoSchedule' }],
    expected: true,
  },
  {
    description: 'B.4.2 Equal with an empty value tolerates (the synthetic taint has no value)',
    tolerations: [{ key: KEY, operator: 'Equal', value: '' }],
    expected: true,
  },
  {
    description: 'B.4.2 Equal with a value does not tolerate',
    tolerations: [{ key: KEY, value: 'true' }],
    expected: false,
  },
  {
    description: 'B.4.2 effect NoExecute does not tolerate the NoSchedule synthetic taint',
    tolerations: [{ key: KEY, operator: 'Exists', effect: 'NoExecute' }],
    expected: false,
  },
  {
    description: 'B.4.2 effect PreferNoSchedule does not tolerate',
    tolerations: [{ key: KEY, operator: 'Exists', effect: 'PreferNoSchedule' }],
    expected: false,
  },
  {
    description: 'B.8.5 an empty-key Exists toleration tolerates it',
    tolerations: [{ operator: 'Exists' }],
    expected: true,
  },
  {
    description: 'B.4.2 another key does not tolerate',
    tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists' }],
    expected: false,
  },
  {
    description: 'B.4.2 any one toleration is enough',
    tolerations: [
      { key: 'x', operator: 'Exists' },
      { key: KEY, operator: 'Exists' },
    ],
    expected: true,
  },
  {
    description: 'A.1 gate off: Lt against the empty value never matches anyway',
    tolerations: [{ key: KEY, operator: 'Lt', value: '1' }],
    gate: false,
    expected: false,
  },
];

describe('toleratesUnschedulable (SEMANTICS B.4.2)', () => {
  it.each(cases)('$description', ({ tolerations, gate, expected }) => {
    expect(toleratesUnschedulable(tolerations, { comparisonOperators: gate ?? true })).toBe(expected);
  });
});
