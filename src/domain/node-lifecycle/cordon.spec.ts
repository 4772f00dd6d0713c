import type { Taint } from '../types';
import { cordonTaints, uncordonTaints } from './cordon';

const before = new Date('2025-01-01T00:00:00Z');
const now = new Date('2025-06-01T12:00:00Z');
const unschedulable = (timeAdded: Date): Taint => ({
  key: 'node.kubernetes.io/unschedulable',
  effect: 'NoSchedule',
  timeAdded,
});
const user: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };

const cordonCases: Array<{ description: string; taints: Taint[]; expected: Taint[] }> = [
  {
    description: 'A.7 cordon adds unschedulable:NoSchedule stamped now',
    taints: [user],
    expected: [user, unschedulable(now)],
  },
  {
    description: 'A.7 cordon twice keeps the first timeAdded',
    taints: [unschedulable(before), user],
    expected: [unschedulable(before), user],
  },
  {
    description: 'A.7 an unschedulable taint with another effect is not the cordon taint',
    taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoExecute' }],
    expected: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoExecute' }, unschedulable(now)],
  },
];

describe('cordonTaints (SEMANTICS A.7, B.4.2)', () => {
  it.each(cordonCases)('$description', ({ taints, expected }) => {
    expect(cordonTaints(taints, now)).toEqual(expected);
  });
});

const uncordonCases: Array<{ description: string; taints: Taint[]; expected: Taint[] }> = [
  {
    description: 'A.7 uncordon removes the cordon taint only',
    taints: [user, unschedulable(before)],
    expected: [user],
  },
  { description: 'A.7 uncordon of an uncordoned node changes nothing', taints: [user], expected: [user] },
];

describe('uncordonTaints (SEMANTICS A.7)', () => {
  it.each(uncordonCases)('$description', ({ taints, expected }) => {
    expect(uncordonTaints(taints)).toEqual(expected);
  });
});
