import { canonicalJson } from './decision-cache';

describe('canonicalJson', () => {
  it.each([
    { value: { b: 1, a: [{ y: 2, x: undefined }] }, expected: '{"a":[{"y":2}],"b":1}' },
    { value: [3, undefined, 'x', null], expected: '[3,null,"x",null]' },
    { value: { 'k"ey': 'v\u0000' }, expected: '{"k\\"ey":"v\\u0000"}' },
    { value: { at: new Date('2026-01-01T00:00:00Z') }, expected: '{"at":"2026-01-01T00:00:00.000Z"}' },
    { value: 1.5, expected: '1.5' },
    { value: undefined, expected: 'null' },
  ])('$expected', ({ value, expected }) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('does not depend on key order, but does on array order', () => {
    expect(canonicalJson({ a: 1, b: { c: 2, d: 3 } })).toBe(canonicalJson({ b: { d: 3, c: 2 }, a: 1 }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  });
});
