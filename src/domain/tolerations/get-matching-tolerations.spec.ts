import type { Taint, Toleration } from '../types';
import { firstToleratingIndex, getMatchingTolerations } from './get-matching-tolerations';

const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
const maintenance: Taint = { key: 'maintenance', value: 'true', effect: 'NoExecute' };
const sixty: Toleration = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 60,
};
const anyForever: Toleration = { operator: 'Exists' };
const maintenanceFive: Toleration = { key: 'maintenance', value: 'true', effect: 'NoExecute', tolerationSeconds: 5 };

const cases: Array<{
  description: string;
  taints: Taint[];
  tolerations: Toleration[];
  gate?: boolean;
  allTolerated: boolean;
  usedIndexes: number[];
  perTaint: Array<number | null>;
}> = [
  {
    description: 'B.1.6 no taints: all tolerated, nothing used',
    taints: [],
    tolerations: [sixty],
    allTolerated: true,
    usedIndexes: [],
    perTaint: [],
  },
  {
    description: 'B.1.6 no taints and no tolerations: all tolerated',
    taints: [],
    tolerations: [],
    allTolerated: true,
    usedIndexes: [],
    perTaint: [],
  },
  {
    description: 'B.1.6 taints but no tolerations: not tolerated',
    taints: [notReady],
    tolerations: [],
    allTolerated: false,
    usedIndexes: [],
    perTaint: [null],
  },
  {
    description: 'B.1.6 first toleration in pod order is used (B.8.12)',
    taints: [notReady],
    tolerations: [sixty, anyForever],
    allTolerated: true,
    usedIndexes: [0],
    perTaint: [0],
  },
  {
    description: 'B.1.6 pod order, not specificity: the forever wildcard first wins',
    taints: [notReady],
    tolerations: [anyForever, sixty],
    allTolerated: true,
    usedIndexes: [0],
    perTaint: [0],
  },
  {
    description: 'B.1.6 one entry per taint, in taint order',
    taints: [maintenance, notReady],
    tolerations: [sixty, maintenanceFive],
    allTolerated: true,
    usedIndexes: [1, 0],
    perTaint: [1, 0],
  },
  {
    description: 'B.1.6 one untolerated taint empties the used list',
    taints: [notReady, maintenance],
    tolerations: [sixty],
    allTolerated: false,
    usedIndexes: [],
    perTaint: [0, null],
  },
  {
    description: 'B.8.4 gate off: Lt toleration is not used',
    taints: [{ key: 'n', value: '1', effect: 'NoExecute' }],
    tolerations: [{ key: 'n', operator: 'Lt', value: '5' }],
    gate: false,
    allTolerated: false,
    usedIndexes: [],
    perTaint: [null],
  },
  {
    description: 'B.8.1 gate on: Lt toleration is used',
    taints: [{ key: 'n', value: '1', effect: 'NoExecute' }],
    tolerations: [{ key: 'n', operator: 'Lt', value: '5' }],
    gate: true,
    allTolerated: true,
    usedIndexes: [0],
    perTaint: [0],
  },
];

describe('getMatchingTolerations (SEMANTICS B.1.6)', () => {
  it.each(cases)('$description', ({ taints, tolerations, gate, allTolerated, usedIndexes, perTaint }) => {
    const result = getMatchingTolerations(taints, tolerations, { comparisonOperators: gate ?? true });
    expect(result.allTolerated).toBe(allTolerated);
    expect(result.used.map((u) => u.tolerationIndex)).toEqual(usedIndexes);
    expect(result.used.map((u) => u.toleration)).toEqual(usedIndexes.map((i) => tolerations[i]));
    expect(result.used.map((u) => u.taint)).toEqual(allTolerated ? taints : []);
    expect(result.matches.map((m) => m.tolerationIndex)).toEqual(perTaint);
    expect(result.matches.map((m) => m.toleration)).toEqual(perTaint.map((i) => (i === null ? null : tolerations[i])));
  });

  it('B.1.6 firstToleratingIndex is -1 when nothing tolerates, defaults gate on', () => {
    expect(firstToleratingIndex(notReady, [maintenanceFive])).toBe(-1);
    expect(
      firstToleratingIndex({ key: 'n', value: '9', effect: 'NoSchedule' }, [{ key: 'n', operator: 'Gt', value: '5' }]),
    ).toBe(0);
    expect(getMatchingTolerations([notReady], [sixty]).allTolerated).toBe(true);
  });
});
