import {
  classifyEvictionChange,
  diffEvictionDecisions,
  partitionTaintImpact,
  type EvictionChangeKind,
} from './eviction-changes';
import { decideEviction, type EvictionDecision } from './decide-eviction';
import type { Taint, Toleration } from '../types';

const T0 = new Date('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const noExecute = (key: string, addedAt = 0): Taint => ({ key, effect: 'NoExecute', timeAdded: at(addedAt) });
const tolerate = (key: string, tolerationSeconds?: number): Toleration => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  ...(tolerationSeconds === undefined ? {} : { tolerationSeconds }),
});
const pod = (name: string, tolerations: Toleration[], boundAt = 0) => ({ name, tolerations, boundAt: at(boundAt) });

const pods = [
  pod('intolerant', []),
  pod('forever', [tolerate('maintenance')]),
  pod('five-minutes', [tolerate('maintenance', 300)]),
  pod('zero-seconds', [tolerate('maintenance', 0)]),
];

const diffCases: Array<{
  description: string;
  before: Taint[];
  after: Taint[];
  now: number;
  expected: Array<{ name: string; kind: EvictionChangeKind }>;
}> = [
  {
    description:
      'A.3 adding a NoExecute taint: untolerated and zero-second pods go now, finite ones are scheduled, forever ones stay',
    before: [],
    after: [noExecute('maintenance', 10)],
    now: 10,
    expected: [
      { name: 'intolerant', kind: 'EvictNow' },
      { name: 'five-minutes', kind: 'Scheduled' },
      { name: 'zero-seconds', kind: 'EvictNow' },
    ],
  },
  {
    description: 'A.4/B.8.14 removing the taint cancels every eviction',
    before: [noExecute('maintenance', 10)],
    after: [],
    now: 20,
    expected: [
      { name: 'intolerant', kind: 'Cancelled' },
      { name: 'five-minutes', kind: 'Cancelled' },
      { name: 'zero-seconds', kind: 'Cancelled' },
    ],
  },
  {
    description: 'A.3 re-adding the taint later re-times the pending eviction',
    before: [noExecute('maintenance', 10)],
    after: [noExecute('maintenance', 100)],
    now: 100,
    expected: [{ name: 'five-minutes', kind: 'Rescheduled' }],
  },
  {
    description: 'A.3 a NoSchedule taint changes no eviction',
    before: [],
    after: [{ key: 'maintenance', effect: 'NoSchedule' }],
    now: 0,
    expected: [],
  },
  {
    description: 'A.3 an unchanged taint list changes nothing',
    before: [noExecute('maintenance')],
    after: [noExecute('maintenance')],
    now: 5,
    expected: [],
  },
  {
    description: 'A.3 a second untolerated taint on top of a scheduled one makes it immediate',
    before: [noExecute('maintenance')],
    after: [noExecute('maintenance'), noExecute('other')],
    now: 5,
    expected: [
      { name: 'forever', kind: 'EvictNow' },
      { name: 'five-minutes', kind: 'EvictNow' },
    ],
  },
];

describe('diffEvictionDecisions (SEMANTICS A.3, A.4)', () => {
  it.each(diffCases)('$description', ({ before, after, now, expected }) => {
    const changes = diffEvictionDecisions(pods, before, after, at(now));
    expect(changes.map((c) => ({ name: c.pod.name, kind: c.kind }))).toEqual(expected);
    for (const change of changes) expect(change.before).not.toEqual(change.after);
  });
});

const none: EvictionDecision = { action: 'None' };
const now: EvictionDecision = { action: 'EvictNow', reason: 'untolerated', taint: noExecute('a') };
const later = (seconds: number): EvictionDecision => ({
  action: 'EvictAfter',
  evictAt: at(seconds),
  afterSeconds: seconds,
  taint: noExecute('a'),
  tolerationIndex: 0,
});

const classifyCases: Array<{
  description: string;
  before: EvictionDecision;
  after: EvictionDecision;
  expected: EvictionChangeKind | undefined;
}> = [
  { description: 'A.3 None → None is no change', before: none, after: none, expected: undefined },
  { description: 'A.3 None → EvictNow', before: none, after: now, expected: 'EvictNow' },
  { description: 'A.3 EvictAfter → EvictNow', before: later(5), after: now, expected: 'EvictNow' },
  { description: 'A.3 EvictNow → EvictNow is no change', before: now, after: now, expected: undefined },
  { description: 'A.3 None → EvictAfter is Scheduled', before: none, after: later(5), expected: 'Scheduled' },
  { description: 'A.3 EvictNow → EvictAfter is Scheduled', before: now, after: later(5), expected: 'Scheduled' },
  {
    description: 'A.3 EvictAfter at the same instant is no change',
    before: later(5),
    after: later(5),
    expected: undefined,
  },
  {
    description: 'A.3 EvictAfter at another instant is Rescheduled',
    before: later(5),
    after: later(9),
    expected: 'Rescheduled',
  },
  { description: 'A.4 EvictAfter → None is Cancelled', before: later(5), after: none, expected: 'Cancelled' },
  { description: 'A.4 EvictNow → None is Cancelled', before: now, after: none, expected: 'Cancelled' },
];

describe('classifyEvictionChange', () => {
  it.each(classifyCases)('$description', ({ before, after, expected }) => {
    expect(classifyEvictionChange(before, after)).toBe(expected);
  });
});

describe('partitionTaintImpact (API.md taint-impact)', () => {
  const taints = [noExecute('maintenance', 0)];
  const cases = [
    {
      description: 'A.3 untolerated → EvictNow at now',
      pod: pods[0],
      now: 10,
      expected: { kind: 'eviction', action: 'EvictNow', afterSeconds: 0, evictAt: at(10) },
    },
    { description: 'A.3 forever toleration → tolerating', pod: pods[1], now: 10, expected: { kind: 'tolerating' } },
    {
      description: 'A.3 finite toleration → EvictAfter with the seconds left',
      pod: pods[2],
      now: 10,
      expected: { kind: 'eviction', action: 'EvictAfter', afterSeconds: 290, evictAt: at(300) },
    },
    {
      description: 'B.8.12 zero seconds → EvictNow at the (reached) deadline',
      pod: pods[3],
      now: 10,
      expected: { kind: 'eviction', action: 'EvictNow', afterSeconds: 0, evictAt: at(0) },
    },
  ];
  it.each(cases)('$description', ({ pod: p, now: seconds, expected }) => {
    const { evictions, tolerating } = partitionTaintImpact([{ pod: p, node: 'n1', taints }], at(seconds));
    if (expected.kind === 'tolerating') {
      expect(evictions).toEqual([]);
      expect(tolerating).toEqual([{ pod: p, node: 'n1' }]);
    } else {
      expect(tolerating).toEqual([]);
      expect(evictions).toHaveLength(1);
      expect(evictions[0]).toMatchObject({
        pod: p,
        node: 'n1',
        action: expected.action,
        afterSeconds: expected.afterSeconds,
        evictAt: expected.evictAt,
      });
      expect(evictions[0].decision.action).toBe(expected.action);
    }
  });
});

// One pod, its node's NoExecute taints and/or its tolerations changing: what A.3/A.4 say about the
// pending eviction. `tolerationsAfter` models a toleration change (the pod replaced); otherwise only
// the taints change and diffEvictionDecisions must agree.
const onePodCases: Array<{
  description: string;
  tolerations: Toleration[];
  tolerationsAfter?: Toleration[];
  before: Taint[];
  after: Taint[];
  now: number;
  expected: EvictionChangeKind | undefined;
  evictAt?: number;
}> = [
  {
    description: 'A.4 adding a forever toleration first in pod order cancels a pending eviction',
    tolerations: [tolerate('maintenance', 300)],
    tolerationsAfter: [tolerate('maintenance'), tolerate('maintenance', 300)],
    before: [noExecute('maintenance')],
    after: [noExecute('maintenance')],
    now: 10,
    expected: 'Cancelled',
  },
  {
    description: 'A.4 adding a forever toleration cancels an immediate eviction',
    tolerations: [],
    tolerationsAfter: [tolerate('maintenance')],
    before: [noExecute('maintenance')],
    after: [noExecute('maintenance')],
    now: 10,
    expected: 'Cancelled',
  },
  {
    description: 'B.8.12 a forever toleration appended after a finite one changes nothing: the first decides',
    tolerations: [tolerate('maintenance', 300)],
    tolerationsAfter: [tolerate('maintenance', 300), tolerate('maintenance')],
    before: [noExecute('maintenance')],
    after: [noExecute('maintenance')],
    now: 10,
    expected: undefined,
  },
  {
    description: 'A.3 a changed tolerationSeconds re-times the pending eviction (kubernetes#102993)',
    tolerations: [tolerate('maintenance', 300)],
    tolerationsAfter: [tolerate('maintenance', 60)],
    before: [noExecute('maintenance')],
    after: [noExecute('maintenance')],
    now: 10,
    expected: 'Rescheduled',
    evictAt: 60,
  },
  {
    description: 'A.3 seconds shortened below the time already elapsed make it immediate',
    tolerations: [tolerate('maintenance', 300)],
    tolerationsAfter: [tolerate('maintenance', 5)],
    before: [noExecute('maintenance')],
    after: [noExecute('maintenance')],
    now: 10,
    expected: 'EvictNow',
    evictAt: 5,
  },
  {
    description: 'B.8.14 removing the last untolerated taint cancels, a forever-tolerated one staying',
    tolerations: [tolerate('a')],
    before: [noExecute('a'), noExecute('b')],
    after: [noExecute('a')],
    now: 10,
    expected: 'Cancelled',
  },
  {
    description: 'B.8.14 removing the last finite taint cancels, a forever-tolerated one staying',
    tolerations: [tolerate('a'), tolerate('b', 300)],
    before: [noExecute('a'), noExecute('b')],
    after: [noExecute('a')],
    now: 10,
    expected: 'Cancelled',
  },
  {
    description: 'A.3 removing the earlier of two finite taints re-times to the later one',
    tolerations: [tolerate('a', 60), tolerate('b', 300)],
    before: [noExecute('a'), noExecute('b')],
    after: [noExecute('b')],
    now: 10,
    expected: 'Rescheduled',
    evictAt: 300,
  },
  {
    description: 'A.4 removed then quickly re-added (kubernetes#107543): scheduled again from the new timeAdded',
    tolerations: [tolerate('maintenance', 300)],
    before: [],
    after: [noExecute('maintenance', 8)],
    now: 8,
    expected: 'Scheduled',
    evictAt: 308,
  },
  {
    description:
      'A.4 a stale timer for the first taint fires after the re-add: the re-read re-times, it does not evict',
    tolerations: [tolerate('maintenance', 300)],
    before: [noExecute('maintenance', 0)],
    after: [noExecute('maintenance', 8)],
    now: 8,
    expected: 'Rescheduled',
    evictAt: 308,
  },
  {
    description: 'A.4 the re-added taint still evicts on time: at its deadline the re-read says now',
    tolerations: [tolerate('maintenance', 300)],
    before: [],
    after: [noExecute('maintenance', 8)],
    now: 308,
    expected: 'EvictNow',
    evictAt: 308,
  },
];

describe('eviction changes of one pod (SEMANTICS A.3, A.4, B.8.14)', () => {
  it.each(onePodCases)(
    '$description',
    ({ tolerations, tolerationsAfter, before, after, now: seconds, expected, evictAt }) => {
      const p = pod('p', tolerations);
      const decisionBefore = decideEviction(p, before, at(seconds));
      const decisionAfter = decideEviction({ ...p, tolerations: tolerationsAfter ?? tolerations }, after, at(seconds));
      expect(classifyEvictionChange(decisionBefore, decisionAfter)).toBe(expected);
      if (evictAt !== undefined) expect(decisionAfter).toMatchObject({ evictAt: at(evictAt) });
      if (tolerationsAfter === undefined) {
        expect(diffEvictionDecisions([p], before, after, at(seconds)).map((c) => c.kind)).toEqual(
          expected === undefined ? [] : [expected],
        );
      }
    },
  );
});

describe('partitionTaintImpact over several pods sharing lists (API.md taint-impact)', () => {
  const finite = [tolerate('maintenance', 300)];
  const forever = [tolerate('maintenance')];
  const maintenanceTaints = [noExecute('maintenance', 0)];
  const otherTaints = [noExecute('other', 0)];
  const cases = [
    {
      description: 'A.3 pods sharing one toleration list are each timed from their own boundAt',
      entries: [
        { pod: pod('early', finite, 0), node: 'n1', taints: maintenanceTaints },
        { pod: pod('late', finite, 100), node: 'n2', taints: maintenanceTaints },
        { pod: pod('stays', forever, 0), node: 'n1', taints: maintenanceTaints },
      ],
      now: 10,
      evictions: [
        { name: 'early', node: 'n1', action: 'EvictAfter', afterSeconds: 290, evictAt: at(300) },
        { name: 'late', node: 'n2', action: 'EvictAfter', afterSeconds: 390, evictAt: at(400) },
      ],
      tolerating: [{ name: 'stays', node: 'n1' }],
    },
    {
      description: "A.3 one toleration list against two nodes' taint lists is decided per node",
      entries: [
        { pod: pod('a', finite, 0), node: 'n1', taints: maintenanceTaints },
        { pod: pod('b', finite, 0), node: 'n2', taints: otherTaints },
        { pod: pod('c', finite, 0), node: 'n3', taints: otherTaints },
      ],
      now: 10,
      evictions: [
        { name: 'a', node: 'n1', action: 'EvictAfter', afterSeconds: 290, evictAt: at(300) },
        { name: 'b', node: 'n2', action: 'EvictNow', afterSeconds: 0, evictAt: at(10) },
        { name: 'c', node: 'n3', action: 'EvictNow', afterSeconds: 0, evictAt: at(10) },
      ],
      tolerating: [],
    },
  ];
  it.each(cases)('$description', ({ entries, now: seconds, evictions, tolerating }) => {
    const result = partitionTaintImpact(entries, at(seconds));
    expect(
      result.evictions.map((e) => ({
        name: e.pod.name,
        node: e.node,
        action: e.action,
        afterSeconds: e.afterSeconds,
        evictAt: e.evictAt,
      })),
    ).toEqual(evictions);
    expect(result.tolerating.map((t) => ({ name: t.pod.name, node: t.node }))).toEqual(tolerating);
    for (const e of result.evictions)
      expect(e.decision).toEqual(decideEviction(e.pod, entries.find((x) => x.pod === e.pod)!.taints, at(seconds)));
  });
});
