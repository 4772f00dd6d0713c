import { toleratesTaint } from './tolerates-taint';
import { TAINT_EFFECTS, TOLERATION_OPERATORS, type Taint, type Toleration } from '../types';

// SEMANTICS B.1.1 — seeded with upstream toleration_test.go cases.
const cases: Array<{ description: string; toleration: Toleration; taint: Taint; gate?: boolean; expected: boolean }> = [
  {
    description: 'B.1.1 Equal with same key, value and effect',
    toleration: { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    expected: true,
  },
  {
    description: 'B.1.1 empty operator means Equal',
    toleration: { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    taint: { key: 'foo', value: 'bar', effect: 'NoSchedule' },
    expected: true,
  },
  {
    description: 'B.1.1 different effect',
    toleration: { key: 'foo', operator: 'Exists', effect: 'NoExecute' },
    taint: { key: 'foo', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.1.1 empty effect matches every effect',
    toleration: { key: 'foo', operator: 'Exists' },
    taint: { key: 'foo', effect: 'NoExecute' },
    expected: true,
  },
  {
    description: 'B.8.5 empty key + Exists tolerates everything',
    toleration: { operator: 'Exists' },
    taint: { key: 'anything', value: 'x', effect: 'PreferNoSchedule' },
    expected: true,
  },
  {
    description: 'B.8.5 empty key + Equal matches on value at match time',
    toleration: { operator: 'Equal', value: 'x' },
    taint: { key: 'k', value: 'x', effect: 'NoSchedule' },
    expected: true,
  },
  {
    description: 'B.1.1 Equal is exact string equality ("10" != "010")',
    toleration: { key: 'k', value: '10' },
    taint: { key: 'k', value: '010', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.1.1 Exists ignores a value set anyway',
    toleration: { key: 'k', operator: 'Exists', value: 'ignored' },
    taint: { key: 'k', value: 'v', effect: 'NoSchedule' },
    expected: true,
  },
  {
    description: 'B.8.6 operators are case-sensitive',
    toleration: { key: 'k', operator: 'exists' },
    taint: { key: 'k', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.6 unknown operator never matches',
    toleration: { key: 'k', operator: 'In', value: 'v' },
    taint: { key: 'k', value: 'v', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.1 Gt: taint value is the left operand',
    toleration: { key: 'sla', operator: 'Gt', value: '900' },
    taint: { key: 'sla', value: '950', effect: 'NoSchedule' },
    expected: true,
  },
  {
    description: 'B.8.1 Gt: taint below',
    toleration: { key: 'sla', operator: 'Gt', value: '900' },
    taint: { key: 'sla', value: '850', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.1 Lt: taint below tolerates',
    toleration: { key: 'sla', operator: 'Lt', value: '900' },
    taint: { key: 'sla', value: '850', effect: 'NoSchedule' },
    expected: true,
  },
  {
    description: 'B.8.1 equality never matches Gt',
    toleration: { key: 'sla', operator: 'Gt', value: '900' },
    taint: { key: 'sla', value: '900', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.1 equality never matches Lt',
    toleration: { key: 'sla', operator: 'Lt', value: '900' },
    taint: { key: 'sla', value: '900', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.1 negative numbers',
    toleration: { key: 'n', operator: 'Lt', value: '-5' },
    taint: { key: 'n', value: '-10', effect: 'NoSchedule' },
    expected: true,
  },
  {
    description: 'B.8.2 non-canonical taint value 0100 never matches',
    toleration: { key: 'n', operator: 'Gt', value: '5' },
    taint: { key: 'n', value: '0100', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 +5 never matches',
    toleration: { key: 'n', operator: 'Lt', value: '10' },
    taint: { key: 'n', value: '+5', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 -0 never matches',
    toleration: { key: 'n', operator: 'Lt', value: '10' },
    taint: { key: 'n', value: '-0', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 decimal never matches',
    toleration: { key: 'n', operator: 'Gt', value: '1' },
    taint: { key: 'n', value: '95.5', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 whitespace never matches',
    toleration: { key: 'n', operator: 'Gt', value: '1' },
    taint: { key: 'n', value: ' 5', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 empty value never matches',
    toleration: { key: 'n', operator: 'Lt', value: '1' },
    taint: { key: 'n', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 non-canonical toleration value never matches',
    toleration: { key: 'n', operator: 'Lt', value: '010' },
    taint: { key: 'n', value: '5', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 5.0 never matches',
    toleration: { key: 'n', operator: 'Lt', value: '10' },
    taint: { key: 'n', value: '5.0', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 a +5 toleration value never matches',
    toleration: { key: 'n', operator: 'Gt', value: '+5' },
    taint: { key: 'n', value: '9', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 a -0 toleration value never matches',
    toleration: { key: 'n', operator: 'Gt', value: '-0' },
    taint: { key: 'n', value: '9', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 hex never matches',
    toleration: { key: 'n', operator: 'Gt', value: '1' },
    taint: { key: 'n', value: '0x10', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 unicode digits never match',
    toleration: { key: 'n', operator: 'Gt', value: '1' },
    taint: { key: 'n', value: '\u0665', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.2 "0" is canonical and compares',
    toleration: { key: 'n', operator: 'Lt', value: '1' },
    taint: { key: 'n', value: '0', effect: 'NoSchedule' },
    expected: true,
  },
  {
    description: 'B.8.3 a toleration value beyond int64 never matches',
    toleration: { key: 'n', operator: 'Lt', value: '12345678901234567890' },
    taint: { key: 'n', value: '5', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.5 empty key + Gt compares numbers for any key at match time',
    toleration: { operator: 'Gt', value: '5' },
    taint: { key: 'any', value: '9', effect: 'NoExecute' },
    expected: true,
  },
  {
    description: 'B.8.5 empty key + Equal with another value does not match',
    toleration: { operator: 'Equal', value: 'x' },
    taint: { key: 'k', value: 'y', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.5 empty key + an unknown operator still matches nothing',
    toleration: { operator: 'In' },
    taint: { key: 'k', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.3 canonical but beyond int64 never matches',
    toleration: { key: 'n', operator: 'Gt', value: '1' },
    taint: { key: 'n', value: '12345678901234567890', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.8.3 int64 max still compares',
    toleration: { key: 'n', operator: 'Gt', value: '1' },
    taint: { key: 'n', value: '9223372036854775807', effect: 'NoSchedule' },
    expected: true,
  },
  {
    description: 'B.8.3 int64 min still compares',
    toleration: { key: 'n', operator: 'Lt', value: '1' },
    taint: { key: 'n', value: '-9223372036854775808', effect: 'NoSchedule' },
    expected: true,
  },
  {
    description: 'A.1/B.8.4 gate off: Gt matches nothing',
    toleration: { key: 'sla', operator: 'Gt', value: '900' },
    taint: { key: 'sla', value: '950', effect: 'NoSchedule' },
    gate: false,
    expected: false,
  },
  {
    description: 'A.1/B.8.4 gate off: Lt matches nothing',
    toleration: { key: 'sla', operator: 'Lt', value: '900' },
    taint: { key: 'sla', value: '850', effect: 'NoSchedule' },
    gate: false,
    expected: false,
  },
  {
    description: 'B.1.1 different key',
    toleration: { key: 'foo', operator: 'Exists' },
    taint: { key: 'bar', effect: 'NoSchedule' },
    expected: false,
  },
];

describe('toleratesTaint (SEMANTICS B.1.1)', () => {
  it.each(cases)('$description', ({ toleration, taint, gate, expected }) => {
    expect(toleratesTaint(toleration, taint, { comparisonOperators: gate ?? true })).toBe(expected);
  });
});

describe('toleratesTaint by effect and operator spelling (SEMANTICS B.8.5, B.8.6)', () => {
  it.each(TAINT_EFFECTS.map((effect) => ({ effect })))(
    'B.8.5 an empty toleration effect matches $effect',
    ({ effect }) => {
      expect(toleratesTaint({ key: 'k', operator: 'Exists' }, { key: 'k', effect })).toBe(true);
      expect(toleratesTaint({ key: 'k', operator: 'Exists', effect: '' }, { key: 'k', effect })).toBe(true);
    },
  );

  const spellings = TOLERATION_OPERATORS.flatMap((operator) =>
    [operator.toLowerCase(), operator.toUpperCase(), ` ${operator}`].map((spelling) => ({ operator, spelling })),
  );
  it.each(spellings)('B.8.6 "$spelling" is not $operator: it matches nothing', ({ operator, spelling }) => {
    // (toleration value, taint value) pairs chosen so that the real operator matches at least one of them.
    const pairs = [
      ['', ''],
      ['5', '9'],
      ['20', '9'],
    ];
    expect(
      pairs.some(([value, taintValue]) =>
        toleratesTaint({ key: 'k', operator, value }, { key: 'k', value: taintValue, effect: 'NoSchedule' }),
      ),
    ).toBe(true);
    for (const [value, taintValue] of pairs) {
      expect(
        toleratesTaint({ key: 'k', operator: spelling, value }, { key: 'k', value: taintValue, effect: 'NoSchedule' }),
      ).toBe(false);
    }
  });
});
