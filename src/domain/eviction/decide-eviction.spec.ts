import fc from 'fast-check';
import {
  decideEviction,
  decideFromTolerance,
  minTolerationTime,
  noExecuteTolerance,
  type EvictionDecision,
} from './decide-eviction';
import type { Taint, Toleration } from '../types';
import { toleratesTaint } from '../tolerations/tolerates-taint';

const T0 = new Date('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const noExecute = (key: string, addedAt?: number, value?: string): Taint => ({
  key,
  effect: 'NoExecute',
  ...(value === undefined ? {} : { value }),
  ...(addedAt === undefined ? {} : { timeAdded: at(addedAt) }),
});
const tolerate = (
  key: string | undefined,
  tolerationSeconds?: number | null,
  extra: Partial<Toleration> = {},
): Toleration => ({
  ...(key === undefined ? {} : { key }),
  operator: 'Exists',
  effect: 'NoExecute',
  ...(tolerationSeconds === undefined ? {} : { tolerationSeconds }),
  ...extra,
});

const cases: Array<{
  description: string;
  taints: Taint[];
  tolerations: Toleration[];
  boundAt?: number;
  now: number;
  gate?: boolean;
  expected: EvictionDecision;
}> = [
  { description: 'A.3 no taints: the pod stays', taints: [], tolerations: [], now: 0, expected: { action: 'None' } },
  {
    description: 'A.3/B.5 only NoExecute taints count',
    taints: [
      { key: 'a', effect: 'NoSchedule' },
      { key: 'b', effect: 'PreferNoSchedule' },
    ],
    tolerations: [],
    now: 0,
    expected: { action: 'None' },
  },
  {
    description: 'A.3 an untolerated NoExecute taint evicts now',
    taints: [noExecute('a', 0)],
    tolerations: [],
    now: 10,
    expected: { action: 'EvictNow', reason: 'untolerated', taint: noExecute('a', 0) },
  },
  {
    description: 'A.3 one untolerated taint wins over tolerated ones',
    taints: [noExecute('a', 0), noExecute('b', 0)],
    tolerations: [tolerate('a', 60)],
    now: 10,
    expected: { action: 'EvictNow', reason: 'untolerated', taint: noExecute('b', 0) },
  },
  {
    description: 'A.3 a toleration without seconds tolerates forever',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate('a')],
    now: 1e6,
    expected: { action: 'None' },
  },
  {
    description: 'A.3 null tolerationSeconds is forever too',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate('a', null)],
    now: 1e6,
    expected: { action: 'None' },
  },
  {
    description: 'A.3 the clock starts at timeAdded when the taint came after binding',
    taints: [noExecute('a', 100)],
    tolerations: [tolerate('a', 300)],
    boundAt: 0,
    now: 150,
    expected: {
      action: 'EvictAfter',
      evictAt: at(400),
      afterSeconds: 250,
      taint: noExecute('a', 100),
      tolerationIndex: 0,
    },
  },
  {
    description: 'A.3 the clock starts at boundAt when the pod came after the taint',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate('a', 300)],
    boundAt: 100,
    now: 100,
    expected: {
      action: 'EvictAfter',
      evictAt: at(400),
      afterSeconds: 300,
      taint: noExecute('a', 0),
      tolerationIndex: 0,
    },
  },
  {
    description: 'A.3 a taint without timeAdded counts from boundAt',
    taints: [noExecute('a')],
    tolerations: [tolerate('a', 60)],
    boundAt: 30,
    now: 31,
    expected: { action: 'EvictAfter', evictAt: at(90), afterSeconds: 59, taint: noExecute('a'), tolerationIndex: 0 },
  },
  {
    description: 'A.3 a restart does not reset the clock (kubernetes#108268): deadline from stored times',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate('a', 300)],
    boundAt: 0,
    now: 299.5,
    expected: { action: 'EvictAfter', evictAt: at(300), afterSeconds: 1, taint: noExecute('a', 0), tolerationIndex: 0 },
  },
  {
    description: 'A.3 afterSeconds rounds up partial seconds',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate('a', 10)],
    now: 0.001,
    expected: { action: 'EvictAfter', evictAt: at(10), afterSeconds: 10, taint: noExecute('a', 0), tolerationIndex: 0 },
  },
  {
    description: 'A.3 a deadline exactly now evicts now',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate('a', 60)],
    now: 60,
    expected: { action: 'EvictNow', reason: 'expired', evictAt: at(60), taint: noExecute('a', 0), tolerationIndex: 0 },
  },
  {
    description: 'A.3 a past deadline evicts now',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate('a', 60)],
    now: 3600,
    expected: { action: 'EvictNow', reason: 'expired', evictAt: at(60), taint: noExecute('a', 0), tolerationIndex: 0 },
  },
  {
    description: 'A.3 a changed tolerationSeconds re-times the eviction (kubernetes#102993)',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate('a', 30)],
    now: 10,
    expected: { action: 'EvictAfter', evictAt: at(30), afterSeconds: 20, taint: noExecute('a', 0), tolerationIndex: 0 },
  },
  {
    description: 'B.8.12 tolerationSeconds 0 is immediate',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate('a', 0)],
    now: 0,
    expected: { action: 'EvictNow', reason: 'expired', evictAt: at(0), taint: noExecute('a', 0), tolerationIndex: 0 },
  },
  {
    description: 'B.8.12 negative tolerationSeconds counts as 0',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate('a', -30)],
    now: 0,
    expected: { action: 'EvictNow', reason: 'expired', evictAt: at(0), taint: noExecute('a', 0), tolerationIndex: 0 },
  },
  {
    description: 'A.3 seconds ≤ 0 on a taint added in the future (relative to now) waits for it',
    taints: [noExecute('a', 50)],
    tolerations: [tolerate('a', 0)],
    now: 0,
    expected: {
      action: 'EvictAfter',
      evictAt: at(50),
      afterSeconds: 50,
      taint: noExecute('a', 50),
      tolerationIndex: 0,
    },
  },
  {
    description: 'B.8.12 the first tolerating toleration in pod order decides the seconds',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate(undefined, 600), tolerate('a', 60)],
    now: 0,
    expected: {
      action: 'EvictAfter',
      evictAt: at(600),
      afterSeconds: 600,
      taint: noExecute('a', 0),
      tolerationIndex: 0,
    },
  },
  {
    description: 'B.8.12 a first forever toleration hides a later finite one',
    taints: [noExecute('a', 0)],
    tolerations: [tolerate('a'), tolerate('a', 60)],
    now: 0,
    expected: { action: 'None' },
  },
  {
    description: 'B.8.12 a forever toleration on one taint does not make a finite one infinite',
    taints: [noExecute('a', 0), noExecute('b', 0)],
    tolerations: [tolerate('a'), tolerate('b', 120)],
    now: 0,
    expected: {
      action: 'EvictAfter',
      evictAt: at(120),
      afterSeconds: 120,
      taint: noExecute('b', 0),
      tolerationIndex: 1,
    },
  },
  {
    description: 'A.3 the earliest deadline over all taints wins',
    taints: [noExecute('a', 0), noExecute('b', 100)],
    tolerations: [tolerate('a', 300), tolerate('b', 60)],
    now: 120,
    expected: {
      action: 'EvictAfter',
      evictAt: at(160),
      afterSeconds: 40,
      taint: noExecute('b', 100),
      tolerationIndex: 1,
    },
  },
  {
    description: 'A.3 equal deadlines: the first taint in node order is reported',
    taints: [noExecute('a', 0), noExecute('b', 0)],
    tolerations: [tolerate(undefined, 60)],
    now: 0,
    expected: { action: 'EvictAfter', evictAt: at(60), afterSeconds: 60, taint: noExecute('a', 0), tolerationIndex: 0 },
  },
  {
    description: 'B.8.5 an empty-effect toleration tolerates NoExecute',
    taints: [noExecute('a', 0)],
    tolerations: [{ key: 'a', operator: 'Exists' }],
    now: 0,
    expected: { action: 'None' },
  },
  {
    description: 'B.1.1 a NoSchedule toleration does not tolerate NoExecute',
    taints: [noExecute('a', 0)],
    tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoSchedule' }],
    now: 0,
    expected: { action: 'EvictNow', reason: 'untolerated', taint: noExecute('a', 0) },
  },
  {
    description: 'A.1 gate off: a Gt toleration tolerates nothing',
    taints: [noExecute('sla', 0, '950')],
    tolerations: [{ key: 'sla', operator: 'Gt', value: '900', effect: 'NoExecute' }],
    now: 0,
    gate: false,
    expected: { action: 'EvictNow', reason: 'untolerated', taint: noExecute('sla', 0, '950') },
  },
  {
    description: 'A.1 gate on: a Gt toleration tolerates a larger taint value',
    taints: [noExecute('sla', 0, '950')],
    tolerations: [{ key: 'sla', operator: 'Gt', value: '900', effect: 'NoExecute' }],
    now: 0,
    expected: { action: 'None' },
  },
];

describe('decideEviction (SEMANTICS A.3)', () => {
  it.each(cases)('$description', ({ taints, tolerations, boundAt, now, gate, expected }) => {
    const decision = decideEviction({ tolerations, boundAt: at(boundAt ?? 0) }, taints, at(now), {
      comparisonOperators: gate ?? true,
    });
    expect(decision).toEqual(expected);
  });

  it('A.3 uses the default match options (operators on) when none are given', () => {
    const taint = noExecute('sla', 0, '5');
    expect(
      decideEviction({ tolerations: [{ key: 'sla', operator: 'Lt', value: '9' }], boundAt: T0 }, [taint], T0),
    ).toEqual({ action: 'None' });
  });
});

const minCases: Array<{ description: string; tolerations: Toleration[]; expected: number }> = [
  { description: 'B.5 getMinTolerationTime: empty list → 0', tolerations: [], expected: 0 },
  {
    description: 'B.5 getMinTolerationTime: none with seconds → -1 (forever)',
    tolerations: [tolerate('a'), tolerate('b', null)],
    expected: -1,
  },
  {
    description: 'B.5 getMinTolerationTime: the minimum positive seconds',
    tolerations: [tolerate('a', 300), tolerate('b', 60), tolerate('c')],
    expected: 60,
  },
  {
    description: 'B.5 getMinTolerationTime: any 0 → 0',
    tolerations: [tolerate('a', 300), tolerate('b', 0)],
    expected: 0,
  },
  {
    description: 'B.5 getMinTolerationTime: any negative → 0',
    tolerations: [tolerate('a', 300), tolerate('b', -1)],
    expected: 0,
  },
];

describe('minTolerationTime (SEMANTICS B.5, upstream getMinTolerationTime)', () => {
  it.each(minCases)('$description', ({ tolerations, expected }) => {
    expect(minTolerationTime(tolerations)).toBe(expected);
  });
});

describe('decideEviction properties', () => {
  const effect = fc.constantFrom('NoSchedule', 'PreferNoSchedule', 'NoExecute') as fc.Arbitrary<Taint['effect']>;
  const taint = fc.record({
    key: fc.constantFrom('a', 'b', 'c'),
    value: fc.constantFrom('', '1', 'x'),
    effect,
    timeAdded: fc.option(fc.integer({ min: 0, max: 1000 }).map(at), { nil: undefined }),
  });
  const toleration = fc.record(
    {
      key: fc.constantFrom(undefined, 'a', 'b'),
      operator: fc.constantFrom(undefined, 'Equal', 'Exists'),
      value: fc.constantFrom(undefined, '1', 'x'),
      effect: fc.constantFrom(undefined, '', 'NoExecute', 'NoSchedule'),
      tolerationSeconds: fc.option(fc.integer({ min: -10, max: 600 }), { nil: undefined }),
    },
    { requiredKeys: [] },
  );

  it('A.3 adding a forever toleration for every NoExecute taint (first in pod order) → None', () => {
    fc.assert(
      fc.property(
        fc.array(taint, { maxLength: 5 }),
        fc.array(toleration, { maxLength: 4 }),
        fc.integer({ min: 0, max: 2000 }),
        (taints, tolerations, now) => {
          const forever: Toleration[] = taints
            .filter((t) => t.effect === 'NoExecute')
            .map((t) => ({ key: t.key, operator: 'Exists', effect: 'NoExecute' }));
          const decision = decideEviction({ tolerations: [...forever, ...tolerations], boundAt: T0 }, taints, at(now));
          expect(decision).toEqual({ action: 'None' });
        },
      ),
    );
  });

  it('A.3 with fresh taints and binding the answer matches upstream minTolerationTime', () => {
    fc.assert(
      fc.property(fc.array(taint, { maxLength: 5 }), fc.array(toleration, { maxLength: 4 }), (taints, tolerations) => {
        const fresh = taints.map(({ timeAdded: _ignored, ...rest }) => rest);
        const decision = decideEviction({ tolerations, boundAt: T0 }, fresh, T0);
        const noExecuteTaints = fresh.filter((t) => t.effect === 'NoExecute');
        if (noExecuteTaints.length === 0) return expect(decision).toEqual({ action: 'None' });
        // GetMatchingTolerations (B.1.6): the first toleration in pod order for each taint.
        const used = noExecuteTaints.map((t) => tolerations.find((tol) => toleratesTaint(tol, t)));
        if (used.some((u) => u === undefined)) return expect(decision.action).toBe('EvictNow');
        const min = minTolerationTime(used as Toleration[]);
        if (min === -1) return expect(decision).toEqual({ action: 'None' });
        if (min === 0) return expect(decision.action).toBe('EvictNow');
        expect(decision).toMatchObject({ action: 'EvictAfter', afterSeconds: min });
      }),
    );
  });
});

describe('noExecuteTolerance + decideFromTolerance (A.3 split for memoisation)', () => {
  it('A.3 equals decideEviction for any pod, taints and time (property)', () => {
    const key = fc.constantFrom('a', 'b', 'c');
    const taint = fc.record({
      key,
      value: fc.constantFrom('', 'x'),
      effect: fc.constantFrom('NoSchedule', 'PreferNoSchedule', 'NoExecute') as never,
      timeAdded: fc.option(
        fc.integer({ min: 0, max: 1e6 }).map((ms) => new Date(ms)),
        { nil: undefined },
      ),
    });
    const toleration = fc.record({
      key: fc.option(key, { nil: undefined }),
      operator: fc.constantFrom('Exists', 'Equal', undefined),
      value: fc.constantFrom('', 'x', undefined),
      effect: fc.constantFrom('NoExecute', '', undefined),
      tolerationSeconds: fc.option(fc.integer({ min: -5, max: 2000 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(taint, { maxLength: 4 }),
        fc.array(toleration, { maxLength: 4 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 3e6 }),
        (taints, tolerations, bound, now) => {
          const boundAt = new Date(bound);
          const at = new Date(now);
          expect(decideFromTolerance(noExecuteTolerance(tolerations, taints as never), boundAt, at)).toEqual(
            decideEviction({ tolerations, boundAt }, taints as never, at),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
