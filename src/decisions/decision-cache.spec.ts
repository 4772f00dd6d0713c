import { canonicalJson, LruCache } from './decision-cache';

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

describe('LruCache', () => {
  it('evicts the least recently used entry beyond maxEntries', () => {
    const cache = new LruCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('keeps the total weight under maxWeight and refuses an entry heavier than it', () => {
    const cache = new LruCache<number[]>(10, 5, (v) => v.length);
    cache.set('a', [1, 2, 3]);
    cache.set('b', [1, 2]);
    cache.set('c', [1]);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toEqual([1, 2]);
    cache.set('huge', [1, 2, 3, 4, 5, 6]);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('c')).toEqual([1]);
    cache.set('b', [9, 9, 9, 9]); // replacing frees the old weight
    expect(cache.get('b')).toEqual([9, 9, 9, 9]);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
