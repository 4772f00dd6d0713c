import { stampTaints } from './taint-stamping';

const t0 = new Date('2026-01-01T00:00:00Z');
const now = new Date('2026-01-02T00:00:00Z');

describe('stampTaints (API.md: server-set timeAdded, kept for unchanged taints)', () => {
  it.each([
    {
      description: 'a new taint is stamped now',
      next: [{ key: 'a', effect: 'NoExecute' as const }],
      prev: [],
      keep: false,
      expected: [now],
    },
    {
      description: 'an unchanged taint keeps its time',
      next: [{ key: 'a', value: 'x', effect: 'NoExecute' as const }],
      prev: [{ key: 'a', value: 'x', effect: 'NoExecute' as const, timeAdded: t0 }],
      keep: false,
      expected: [t0],
    },
    {
      description: 'a changed value restarts the clock',
      next: [{ key: 'a', value: 'y', effect: 'NoExecute' as const }],
      prev: [{ key: 'a', value: 'x', effect: 'NoExecute' as const, timeAdded: t0 }],
      keep: false,
      expected: [now],
    },
    {
      description: 'a client time is ignored outside import',
      next: [{ key: 'a', effect: 'NoExecute' as const, timeAdded: t0 }],
      prev: [],
      keep: false,
      expected: [now],
    },
    {
      description: 'import keeps the cluster time',
      next: [{ key: 'a', effect: 'NoExecute' as const, timeAdded: t0 }],
      prev: [],
      keep: true,
      expected: [t0],
    },
    {
      description: 'same key, other effect is another taint',
      next: [{ key: 'a', effect: 'NoSchedule' as const }],
      prev: [{ key: 'a', effect: 'NoExecute' as const, timeAdded: t0 }],
      keep: false,
      expected: [now],
    },
  ])('$description', ({ next, prev, keep, expected }) => {
    expect(stampTaints(next, prev, now, keep).map((t) => t.timeAdded)).toEqual(expected);
  });
});
