import { pausesAround } from './around-slowest';

describe('pausesAround: the GC pauses that overlap a span', () => {
  const pauses = [
    { at: 1_000, ms: 5, kind: 'minor' },
    { at: 1_290, ms: 20, kind: 'major' }, // ends inside the span
    { at: 1_500, ms: 3, kind: 'minor' },
    { at: 1_700, ms: 2, kind: 'minor' }, // starts after it
  ];

  it('counts a pause that began before the span and ended inside it, and none outside', () => {
    expect(pausesAround(pauses, 1_300, 1_600)).toEqual({
      count: 2,
      totalMs: 23,
      longestMs: 20,
      kinds: ['major', 'minor'],
    });
  });

  it('answers none for a span without pauses', () => {
    expect(pausesAround(pauses, 1_100, 1_200)).toEqual({ count: 0, totalMs: 0, longestMs: 0, kinds: [] });
  });
});
