import fc from 'fast-check';
import { TAINT_EFFECTS, type Taint, type Toleration } from '../types';
import { tolerationsTolerateTaint } from './tolerations-tolerate-taint';

const taint: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };

const cases: Array<{
  description: string;
  tolerations: Toleration[];
  taint: Taint;
  gate?: boolean;
  expected: boolean;
}> = [
  { description: 'B.1.4 empty list tolerates nothing', tolerations: [], taint, expected: false },
  {
    description: 'B.1.4 one matching toleration is enough',
    tolerations: [
      { key: 'other', operator: 'Exists' },
      { key: 'dedicated', value: 'gpu' },
    ],
    taint,
    expected: true,
  },
  {
    description: 'B.1.4 none matching',
    tolerations: [
      { key: 'dedicated', value: 'cpu' },
      { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' },
    ],
    taint,
    expected: false,
  },
  {
    description: 'B.8.5 empty key + Exists tolerates everything',
    tolerations: [{ operator: 'Exists' }],
    taint,
    expected: true,
  },
  {
    description: 'B.8.4 gate off: Gt in the list matches nothing',
    tolerations: [{ key: 'sla', operator: 'Gt', value: '1' }],
    taint: { key: 'sla', value: '5', effect: 'NoSchedule' },
    gate: false,
    expected: false,
  },
  {
    description: 'B.8.1 gate on: Gt in the list matches',
    tolerations: [{ key: 'sla', operator: 'Gt', value: '1' }],
    taint: { key: 'sla', value: '5', effect: 'NoSchedule' },
    gate: true,
    expected: true,
  },
];

describe('tolerationsTolerateTaint (SEMANTICS B.1.4)', () => {
  it.each(cases)('$description', ({ tolerations, taint: t, gate, expected }) => {
    expect(tolerationsTolerateTaint(tolerations, t, { comparisonOperators: gate ?? true })).toBe(expected);
  });

  it('B.1.4 options default to comparison operators on (A.1)', () => {
    expect(
      tolerationsTolerateTaint([{ key: 'sla', operator: 'Gt', value: '1' }], {
        key: 'sla',
        value: '5',
        effect: 'NoSchedule',
      }),
    ).toBe(true);
  });

  it('B.8.5 property: an empty-key Exists toleration tolerates every taint', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.option(fc.string(), { nil: undefined }),
        fc.constantFrom(...TAINT_EFFECTS),
        fc.array(fc.record({ key: fc.string(), operator: fc.string(), value: fc.string() }), { maxLength: 3 }),
        fc.boolean(),
        (key, value, effect, others, gate) => {
          const list: Toleration[] = [...others, { operator: 'Exists' }];
          expect(tolerationsTolerateTaint(list, { key, value, effect }, { comparisonOperators: gate })).toBe(true);
        },
      ),
    );
  });
});
