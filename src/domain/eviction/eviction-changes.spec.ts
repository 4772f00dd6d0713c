import { classifyEvictionChange, diffEvictionDecisions, partitionTaintImpact, type EvictionChangeKind } from './eviction-changes';
import type { EvictionDecision } from './decide-eviction';
import type { Taint, Toleration } from '../types';

const T0 = new Date('2026-01-01T00:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const noExecute = (key: string, addedAt = 0): Taint => ({ key, effect: 'NoExecute', timeAdded: at(addedAt) });
const tolerate = (key: string, tolerationSeconds?: number): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', ...(tolerationSeconds === undefined ? {} : { tolerationSeconds }) });
const pod = (name: string, tolerations: Toleration[], boundAt = 0) => ({ name, tolerations, boundAt: at(boundAt) });

const pods = [
  pod('intolerant', []),
  pod('forever', [tolerate('maintenance')]),
  pod('five-minutes', [tolerate('maintenance', 300)]),
  pod('zero-seconds', [tolerate('maintenance', 0)]),
];

const diffCases: Array<{ description: string; before: Taint[]; after: Taint[]; now: number; expected: Array<{ name: string; kind: EvictionChangeKind }> }> = [
  {
    description: 'A.3 adding a NoExecute taint: untolerated and zero-second pods go now, finite ones are scheduled, forever ones stay',
    before: [], after: [noExecute('maintenance', 10)], now: 10,
    expected: [{ name: 'intolerant', kind: 'EvictNow' }, { name: 'five-minutes', kind: 'Scheduled' }, { name: 'zero-seconds', kind: 'EvictNow' }],
  },
  {
    description: 'A.4/B.8.14 removing the taint cancels every eviction',
    before: [noExecute('maintenance', 10)], after: [], now: 20,
    expected: [{ name: 'intolerant', kind: 'Cancelled' }, { name: 'five-minutes', kind: 'Cancelled' }, { name: 'zero-seconds', kind: 'Cancelled' }],
  },
  {
    description: 'A.3 re-adding the taint later re-times the pending eviction',
    before: [noExecute('maintenance', 10)], after: [noExecute('maintenance', 100)], now: 100,
    expected: [{ name: 'five-minutes', kind: 'Rescheduled' }],
  },
  {
    description: 'A.3 a NoSchedule taint changes no eviction',
    before: [], after: [{ key: 'maintenance', effect: 'NoSchedule' }], now: 0, expected: [],
  },
  {
    description: 'A.3 an unchanged taint list changes nothing',
    before: [noExecute('maintenance')], after: [noExecute('maintenance')], now: 5, expected: [],
  },
  {
    description: 'A.3 a second untolerated taint on top of a scheduled one makes it immediate',
    before: [noExecute('maintenance')], after: [noExecute('maintenance'), noExecute('other')], now: 5,
    expected: [{ name: 'forever', kind: 'EvictNow' }, { name: 'five-minutes', kind: 'EvictNow' }],
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
const later = (seconds: number): EvictionDecision => ({ action: 'EvictAfter', evictAt: at(seconds), afterSeconds: seconds, taint: noExecute('a'), tolerationIndex: 0 });

const classifyCases: Array<{ description: string; before: EvictionDecision; after: EvictionDecision; expected: EvictionChangeKind | undefined }> = [
  { description: 'A.3 None → None is no change', before: none, after: none, expected: undefined },
  { description: 'A.3 None → EvictNow', before: none, after: now, expected: 'EvictNow' },
  { description: 'A.3 EvictAfter → EvictNow', before: later(5), after: now, expected: 'EvictNow' },
  { description: 'A.3 EvictNow → EvictNow is no change', before: now, after: now, expected: undefined },
  { description: 'A.3 None → EvictAfter is Scheduled', before: none, after: later(5), expected: 'Scheduled' },
  { description: 'A.3 EvictNow → EvictAfter is Scheduled', before: now, after: later(5), expected: 'Scheduled' },
  { description: 'A.3 EvictAfter at the same instant is no change', before: later(5), after: later(5), expected: undefined },
  { description: 'A.3 EvictAfter at another instant is Rescheduled', before: later(5), after: later(9), expected: 'Rescheduled' },
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
    { description: 'A.3 untolerated → EvictNow at now', pod: pods[0], now: 10, expected: { kind: 'eviction', action: 'EvictNow', afterSeconds: 0, evictAt: at(10) } },
    { description: 'A.3 forever toleration → tolerating', pod: pods[1], now: 10, expected: { kind: 'tolerating' } },
    { description: 'A.3 finite toleration → EvictAfter with the seconds left', pod: pods[2], now: 10, expected: { kind: 'eviction', action: 'EvictAfter', afterSeconds: 290, evictAt: at(300) } },
    { description: 'B.8.12 zero seconds → EvictNow at the (reached) deadline', pod: pods[3], now: 10, expected: { kind: 'eviction', action: 'EvictNow', afterSeconds: 0, evictAt: at(0) } },
  ];
  it.each(cases)('$description', ({ pod: p, now: seconds, expected }) => {
    const { evictions, tolerating } = partitionTaintImpact([{ pod: p, node: 'n1', taints }], at(seconds));
    if (expected.kind === 'tolerating') {
      expect(evictions).toEqual([]);
      expect(tolerating).toEqual([{ pod: p, node: 'n1' }]);
    } else {
      expect(tolerating).toEqual([]);
      expect(evictions).toHaveLength(1);
      expect(evictions[0]).toMatchObject({ pod: p, node: 'n1', action: expected.action, afterSeconds: expected.afterSeconds, evictAt: expected.evictAt });
      expect(evictions[0].decision.action).toBe(expected.action);
    }
  });
});
