import { percentValue, scaledValue } from './int-or-percent';

// k8s.io/apimachinery/pkg/util/intstr GetScaledValueFromIntOrPercent (docs/SEMANTICS.md B.9.2).
describe('scaledValue', () => {
  it.each([
    [3, 10, true, 3],
    ['50%', 3, true, 2],
    ['50%', 3, false, 1],
    ['0%', 7, true, 0],
    ['100%', 7, true, 7],
    ['33%', 100, true, 33],
    ['34%', 3, true, 2],
    ['10%', 0, true, 0],
  ] as const)('%p of %d (round up %p) is %d', (value, total, roundUp, expected) => {
    expect(scaledValue(value, total, roundUp)).toBe(expected);
  });

  it.each([
    ['5', 'invalid value for IntOrString: invalid type: string is not a percentage'],
    ['x%', 'invalid value for IntOrString: invalid value "x%": strconv.Atoi: parsing "x": invalid syntax'],
  ])('refuses %p with upstream words', (value, message) => {
    expect(() => scaledValue(value, 10, true)).toThrow(message);
  });
});

describe('percentValue', () => {
  it.each([
    ['50%', 50],
    ['150%', 150],
    [5, undefined],
    ['5', undefined],
    ['-5%', undefined],
  ] as const)('%p → %p', (value, expected) => {
    expect(percentValue(value)).toBe(expected);
  });
});
