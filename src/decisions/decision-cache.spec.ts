import fc from 'fast-check';
import { canonicalHash, canonicalJson, canonicalJsonWithin } from './decision-cache';

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

describe('canonicalJsonWithin (cache keys of unvalidated bodies)', () => {
  const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);
  it.each([
    { description: 'a shallow body', value: { b: 1, a: [2] }, maxDepth: 4, expected: '{"a":[2],"b":1}' },
    { description: 'exactly at the limit', value: nested(3), maxDepth: 3, expected: '[[[1]]]' },
    { description: 'one level too deep', value: nested(4), maxDepth: 3, expected: undefined },
  ])('$description', ({ value, maxDepth, expected }) => {
    expect(canonicalJsonWithin(value, maxDepth)).toBe(expected);
  });

  it('answers (undefined) for 10,000 nested arrays instead of overflowing the stack (found by the fuzzer)', () => {
    const body = JSON.parse(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
    expect(canonicalJsonWithin(body, 32)).toBeUndefined();
  });
});

describe('canonicalHash (asked before the canonical key is built)', () => {
  /** The same value with every object's keys in reverse order (what another client may send). */
  const reordered = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(reordered);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reordered(v)]),
    );
  };

  it('is equal for values canonicalJson makes equal: key order, undefined entries, Dates as their JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalHash(reordered(value))).toBe(canonicalHash(value));
      }),
      { numRuns: 500, seed: 11 },
    );
    const at = new Date('2026-01-01T00:00:00Z');
    expect(canonicalHash({ a: 1, b: undefined, c: [undefined] })).toBe(canonicalHash({ c: [null], a: 1 }));
    expect(canonicalHash({ at })).toBe(canonicalHash({ at: '2026-01-01T00:00:00.000Z' }));
  });

  it.each([
    { description: 'array order', a: [1, 2], b: [2, 1] },
    { description: 'a value', a: { key: 'a', value: '1' }, b: { key: 'a', value: '2' } },
    { description: 'a key', a: { key: 'a' }, b: { kez: 'a' } },
    { description: 'values swapped between keys', a: { x: 'p', y: 'q' }, b: { x: 'q', y: 'p' } },
    { description: 'nesting', a: [[1], 2], b: [1, [2]] },
    { description: 'a string and a number', a: ['1'], b: [1] },
  ])('tells apart values that differ in $description', ({ a, b }) => {
    expect(canonicalJson(a)).not.toBe(canonicalJson(b));
    expect(canonicalHash(a)).not.toBe(canonicalHash(b));
  });
});
