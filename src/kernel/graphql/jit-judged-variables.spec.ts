import { jitMayJudge } from './jit-judged-variables';

/** A list nested `depth` levels deep around a single 1: depth + 1 values. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('jitMayJudge: small variables without an empty list', () => {
  it.each([
    { value: 1, count: 1 },
    { value: null, count: 1 },
    { value: 'text', count: 1 },
    { value: {}, count: 1 },
    { value: { a: [1, 2] }, count: 4 },
    { value: { a: { b: { c: null } }, d: 'x' }, count: 5 },
    { value: [[1], [[{}]], {}], count: 7 },
    { value: { pod: { tolerations: [{ key: 'k', operator: 'Exists' }] } }, count: 6 },
  ])(
    '$value holds $count values (every object, list and leaf): within $count, not within one less',
    ({ value, count }) => {
      expect(jitMayJudge(value, count)).toBe(true);
      expect(jitMayJudge(value, count - 1)).toBe(false);
    },
  );

  it.each([{ value: [] }, { value: { pod: [] } }, { value: { pod: { tolerations: [] } } }, { value: [[1], [[]]] }])(
    'leaves $value to graphql-js: an empty list, at any depth',
    ({ value }) => {
      expect(jitMayJudge(value, 1000)).toBe(false);
    },
  );

  it('says no to a long list without walking all of it', () => {
    const long = new Array(1_000_000).fill(1);
    expect(jitMayJudge({ n: long }, 256)).toBe(false);
    expect(jitMayJudge({ n: long }, 1_000_002)).toBe(true);
  });

  it('counts a value nested 100,000 levels deep without overflowing the stack', () => {
    expect(jitMayJudge(nested(100_000), 100_001)).toBe(true);
    expect(jitMayJudge(nested(100_000), 256)).toBe(false);
  });

  it('says no to an object with more keys than the limit', () => {
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]));
    expect(jitMayJudge(wide, 256)).toBe(false);
    expect(jitMayJudge(wide, 10_001)).toBe(true);
  });

  it('is never within a limit below one', () => {
    expect(jitMayJudge(1, 0)).toBe(false);
  });
});
