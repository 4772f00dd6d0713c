import { decideTolerationMatch, type TolerationMatchDecision } from './toleration-match';
import type { Taint, Toleration } from '../types';

const taint = (key: string, effect: Taint['effect'], value?: string, timeAdded?: Date): Taint => ({
  key,
  effect,
  ...(value === undefined ? {} : { value }),
  ...(timeAdded ? { timeAdded } : {}),
});

const cases: Array<{
  description: string;
  taints: Taint[];
  tolerations: Toleration[];
  gate?: boolean;
  expected: TolerationMatchDecision;
}> = [
  {
    description: 'API toleration-match: no taints: schedulable, nothing to avoid, no eviction',
    taints: [],
    tolerations: [],
    expected: { matches: [], schedulable: true, preferAvoid: false, eviction: { action: 'None' } },
  },
  {
    description: 'B.4.1 an untolerated NoSchedule taint: not schedulable, but no eviction',
    taints: [taint('gpu', 'NoSchedule', 'true')],
    tolerations: [],
    expected: {
      matches: [{ taint: taint('gpu', 'NoSchedule', 'true'), tolerated: false }],
      schedulable: false,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'B.4.1 an untolerated PreferNoSchedule taint: schedulable, preferAvoid',
    taints: [taint('spot', 'PreferNoSchedule')],
    tolerations: [],
    expected: {
      matches: [{ taint: taint('spot', 'PreferNoSchedule'), tolerated: false }],
      schedulable: true,
      preferAvoid: true,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'A.3 an untolerated NoExecute taint: not schedulable, EvictNow',
    taints: [taint('maintenance', 'NoExecute')],
    tolerations: [],
    expected: {
      matches: [{ taint: taint('maintenance', 'NoExecute'), tolerated: false }],
      schedulable: false,
      preferAvoid: false,
      eviction: { action: 'EvictNow' },
    },
  },
  {
    description: 'B.1.6 tolerationIndex is the first tolerating toleration in pod order',
    taints: [taint('a', 'NoSchedule', 'x')],
    tolerations: [{ key: 'b', operator: 'Exists' }, { key: 'a', value: 'x' }, { operator: 'Exists' }],
    expected: {
      matches: [{ taint: taint('a', 'NoSchedule', 'x'), tolerated: true, tolerationIndex: 1 }],
      schedulable: true,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'A.3 a tolerated NoExecute taint with seconds: EvictAfter those seconds',
    taints: [taint('maintenance', 'NoExecute', undefined, new Date('2020-01-01T00:00:00Z'))],
    tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
    expected: {
      matches: [
        {
          taint: taint('maintenance', 'NoExecute', undefined, new Date('2020-01-01T00:00:00Z')),
          tolerated: true,
          tolerationIndex: 0,
        },
      ],
      schedulable: true,
      preferAvoid: false,
      eviction: { action: 'EvictAfter', afterSeconds: 300 },
    },
  },
  {
    description: 'B.8.12 a used toleration with seconds 0: EvictNow',
    taints: [taint('m', 'NoExecute')],
    tolerations: [{ key: 'm', operator: 'Exists', tolerationSeconds: 0 }],
    expected: {
      matches: [{ taint: taint('m', 'NoExecute'), tolerated: true, tolerationIndex: 0 }],
      schedulable: true,
      preferAvoid: false,
      eviction: { action: 'EvictNow' },
    },
  },
  {
    description: 'B.8.12 a forever toleration on one taint and 60 s on another: EvictAfter 60',
    taints: [taint('a', 'NoExecute'), taint('b', 'NoExecute')],
    tolerations: [
      { key: 'a', operator: 'Exists' },
      { key: 'b', operator: 'Exists', tolerationSeconds: 60 },
    ],
    expected: {
      matches: [
        { taint: taint('a', 'NoExecute'), tolerated: true, tolerationIndex: 0 },
        { taint: taint('b', 'NoExecute'), tolerated: true, tolerationIndex: 1 },
      ],
      schedulable: true,
      preferAvoid: false,
      eviction: { action: 'EvictAfter', afterSeconds: 60 },
    },
  },
  {
    description: 'A.1 gate off: a Gt toleration matches nothing',
    taints: [taint('sla', 'NoSchedule', '950')],
    tolerations: [{ key: 'sla', operator: 'Gt', value: '900' }],
    gate: false,
    expected: {
      matches: [{ taint: taint('sla', 'NoSchedule', '950'), tolerated: false }],
      schedulable: false,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
  {
    description: 'B.8.1 gate on: Gt compares taint value > toleration value',
    taints: [taint('sla', 'NoSchedule', '950')],
    tolerations: [{ key: 'sla', operator: 'Gt', value: '900' }],
    expected: {
      matches: [{ taint: taint('sla', 'NoSchedule', '950'), tolerated: true, tolerationIndex: 0 }],
      schedulable: true,
      preferAvoid: false,
      eviction: { action: 'None' },
    },
  },
];

describe('decideTolerationMatch (API.md toleration-match)', () => {
  it.each(cases)('$description', ({ taints, tolerations, gate, expected }) => {
    expect(decideTolerationMatch(taints, tolerations, { comparisonOperators: gate ?? true })).toEqual(expected);
  });

  it('API toleration-match: default match options have the operators on (A.1)', () => {
    expect(
      decideTolerationMatch([taint('n', 'NoSchedule', '1')], [{ key: 'n', operator: 'Lt', value: '2' }]).schedulable,
    ).toBe(true);
  });
});
