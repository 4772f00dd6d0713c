import type { Taint, Toleration } from '../types';
import { decideEviction, minTolerationTime } from './decide-eviction';

const t0 = new Date('2026-01-01T00:00:00Z');
const at = (s: number) => new Date(t0.getTime() + s * 1000);
const noExecute = (key: string, timeAdded = t0): Taint => ({ key, value: '', effect: 'NoExecute', timeAdded });

describe('B.4.4 a pod bound through spec.nodeName: only NoExecute taints act on it', () => {
  it.each([
    {
      description: 'B.4.4 an untolerated NoSchedule taint does not evict a bound pod',
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' as const }],
      action: 'None',
    },
    {
      description: 'B.4.4 an untolerated PreferNoSchedule taint does not evict a bound pod',
      taints: [{ key: 'spot', value: '', effect: 'PreferNoSchedule' as const }],
      action: 'None',
    },
    {
      description: 'B.4.4 an untolerated NoExecute taint evicts it at once',
      taints: [noExecute('maintenance')],
      action: 'EvictNow',
    },
  ])('$description', ({ taints, action }) => {
    expect(decideEviction({ tolerations: [], boundAt: t0 }, taints, at(1)).action).toBe(action);
  });
});

// B.8.13 / B.5 step 4: upstream starts the timer when the controller observes the taint and keeps a
// pending timer when tolerations change; taintwise (A.3) derives the deadline from stored state.
describe('B.8.13 versus A.3: where taintwise deliberately differs from upstream', () => {
  const tolerate60: Toleration[] = [
    { key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
  ];

  it('B.8.13 upstream would count 60 s from whenever it observes the taint; A.3 counts from timeAdded, so a restart 50 s in leaves 10 s', () => {
    expect(minTolerationTime(tolerate60)).toBe(60);
    const decision = decideEviction({ tolerations: tolerate60, boundAt: t0 }, [noExecute('maintenance', t0)], at(50));
    expect(decision).toMatchObject({ action: 'EvictAfter', afterSeconds: 10, evictAt: at(60) });
  });

  it('B.8.13 a changed tolerationSeconds re-times the deadline (upstream keeps the old timer, kubernetes#102993)', () => {
    const longer: Toleration[] = [{ ...tolerate60[0], tolerationSeconds: 600 }];
    expect(decideEviction({ tolerations: longer, boundAt: t0 }, [noExecute('maintenance')], at(50))).toMatchObject({
      action: 'EvictAfter',
      evictAt: at(600),
    });
  });

  it('A.3 a pod bound after the taint was added counts from its binding', () => {
    expect(
      decideEviction({ tolerations: tolerate60, boundAt: at(100) }, [noExecute('maintenance', t0)], at(100)),
    ).toMatchObject({ action: 'EvictAfter', evictAt: at(160), afterSeconds: 60 });
  });

  it('A.3 with fresh taint and binding it equals upstream: the minimum seconds of the used tolerations', () => {
    const tolerations: Toleration[] = [
      { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'b', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
    ];
    const decision = decideEviction({ tolerations, boundAt: t0 }, [noExecute('a'), noExecute('b')], t0);
    expect(decision).toMatchObject({ action: 'EvictAfter', afterSeconds: minTolerationTime(tolerations) });
  });
});

// B.8.13 as a table: upstream's timer (observation time, never re-timed while pending) against A.3's
// deadline `max(timeAdded, boundAt) + max(0, seconds)` read from stored state at any instant.
const b813Cases: Array<{
  description: string;
  seconds: number;
  taintAddedAt: number;
  boundAt: number;
  now: number;
  upstreamSeconds: number;
  expected: { action: string; afterSeconds?: number; evictAt?: Date };
}> = [
  {
    description: 'B.8.13 controller restart 50 s after the taint: upstream restarts 60 s, A.3 leaves 10 s',
    seconds: 60,
    taintAddedAt: 0,
    boundAt: 0,
    now: 50,
    upstreamSeconds: 60,
    expected: { action: 'EvictAfter', afterSeconds: 10, evictAt: at(60) },
  },
  {
    description: 'B.8.13 restart after the deadline: A.3 evicts at once instead of waiting again',
    seconds: 60,
    taintAddedAt: 0,
    boundAt: 0,
    now: 90,
    upstreamSeconds: 60,
    expected: { action: 'EvictNow', evictAt: at(60) },
  },
  {
    description: 'B.8.13 lengthened seconds while pending: A.3 re-times later (upstream keeps the old timer)',
    seconds: 600,
    taintAddedAt: 0,
    boundAt: 0,
    now: 50,
    upstreamSeconds: 600,
    expected: { action: 'EvictAfter', afterSeconds: 550, evictAt: at(600) },
  },
  {
    description: 'B.8.13 shortened seconds while pending: A.3 re-times earlier',
    seconds: 55,
    taintAddedAt: 0,
    boundAt: 0,
    now: 50,
    upstreamSeconds: 55,
    expected: { action: 'EvictAfter', afterSeconds: 5, evictAt: at(55) },
  },
  {
    description: 'B.8.13 shortened below the time already elapsed: A.3 evicts now',
    seconds: 30,
    taintAddedAt: 0,
    boundAt: 0,
    now: 50,
    upstreamSeconds: 30,
    expected: { action: 'EvictNow', evictAt: at(30) },
  },
  {
    description: 'B.8.13 fresh taint and binding: A.3 equals upstream',
    seconds: 120,
    taintAddedAt: 10,
    boundAt: 10,
    now: 10,
    upstreamSeconds: 120,
    expected: { action: 'EvictAfter', afterSeconds: 120, evictAt: at(130) },
  },
];

describe('B.8.13 upstream observation-time timer versus A.3 stored deadlines (table)', () => {
  it.each(b813Cases)('$description', ({ seconds, taintAddedAt, boundAt, now, upstreamSeconds, expected }) => {
    const tolerations: Toleration[] = [
      { key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds },
    ];
    expect(minTolerationTime(tolerations)).toBe(upstreamSeconds);
    const decision = decideEviction(
      { tolerations, boundAt: at(boundAt) },
      [noExecute('maintenance', at(taintAddedAt))],
      at(now),
    );
    expect(decision).toMatchObject(expected);
  });
});
