import {
  countIntolerablePreferNoSchedule,
  filterTolerations,
  firstUntoleratedFilterTaint,
  preferNoScheduleTolerations,
  REDACTED_TAINT_MESSAGE,
  untoleratedTaintReason,
} from './taint-toleration';
import type { Taint, Toleration } from '../types';

const on = { comparisonOperators: true };
const noSchedule = (key: string, value?: string): Taint => ({
  key,
  ...(value === undefined ? {} : { value }),
  effect: 'NoSchedule',
});
const noExecute = (key: string, value?: string): Taint => ({
  key,
  ...(value === undefined ? {} : { value }),
  effect: 'NoExecute',
});
const prefer = (key: string, value?: string): Taint => ({
  key,
  ...(value === undefined ? {} : { value }),
  effect: 'PreferNoSchedule',
});

const filterCases: Array<{
  description: string;
  taints: Taint[];
  tolerations: Toleration[];
  gate?: boolean;
  expected: Taint | undefined;
}> = [
  { description: 'B.1.5 no taints: tolerated', taints: [], tolerations: [], expected: undefined },
  {
    description: 'B.4.1 an untolerated NoSchedule taint filters',
    taints: [noSchedule('gpu', 'true')],
    tolerations: [],
    expected: noSchedule('gpu', 'true'),
  },
  {
    description: 'B.4.1 an untolerated NoExecute taint filters',
    taints: [noExecute('maintenance')],
    tolerations: [],
    expected: noExecute('maintenance'),
  },
  {
    description: 'B.4.1 PreferNoSchedule never filters',
    taints: [prefer('spot')],
    tolerations: [],
    expected: undefined,
  },
  {
    description: 'B.1.5 the FIRST untolerated taint in node order is reported',
    taints: [prefer('p'), noSchedule('a'), noExecute('b')],
    tolerations: [],
    expected: noSchedule('a'),
  },
  {
    description: 'B.1.5 tolerated taints are skipped to the first untolerated one',
    taints: [noSchedule('a'), noExecute('b')],
    tolerations: [{ key: 'a', operator: 'Exists' }],
    expected: noExecute('b'),
  },
  {
    description: 'B.4.1 every taint tolerated passes',
    taints: [noSchedule('a'), noExecute('b')],
    tolerations: [
      { key: 'a', operator: 'Exists' },
      { key: 'b', operator: 'Exists' },
    ],
    expected: undefined,
  },
  {
    description: 'B.8.5 empty-key Exists tolerates every taint',
    taints: [noSchedule('a', 'x'), noExecute('b', 'y')],
    tolerations: [{ operator: 'Exists' }],
    expected: undefined,
  },
  {
    description: 'B.1.1 effect must match: NoSchedule toleration on a NoExecute taint',
    taints: [noExecute('a')],
    tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoSchedule' }],
    expected: noExecute('a'),
  },
  {
    description: 'B.8.1 Gt tolerates a larger taint value',
    taints: [noSchedule('sla', '950')],
    tolerations: [{ key: 'sla', operator: 'Gt', value: '900' }],
    expected: undefined,
  },
  {
    description: 'A.1/B.8.4 gate off: Gt tolerates nothing',
    taints: [noSchedule('sla', '950')],
    tolerations: [{ key: 'sla', operator: 'Gt', value: '900' }],
    gate: false,
    expected: noSchedule('sla', '950'),
  },
];

describe('firstUntoleratedFilterTaint (SEMANTICS B.4.1, B.1.5)', () => {
  it.each(filterCases)('$description', ({ taints, tolerations, gate, expected }) => {
    const options = { comparisonOperators: gate ?? true };
    expect(firstUntoleratedFilterTaint(taints, filterTolerations(tolerations), options)).toEqual(expected);
    // Pre-filtering the tolerations by effect never changes the answer.
    expect(firstUntoleratedFilterTaint(taints, tolerations, options)).toEqual(expected);
  });
});

const scoreCases: Array<{ description: string; taints: Taint[]; tolerations: Toleration[]; expected: number }> = [
  { description: 'B.4.1 no taints score 0', taints: [], tolerations: [], expected: 0 },
  {
    description: 'B.4.1 counts untolerated PreferNoSchedule taints',
    taints: [prefer('a'), prefer('b'), noSchedule('c')],
    tolerations: [],
    expected: 2,
  },
  {
    description: 'B.4.1 a PreferNoSchedule toleration softens its taint',
    taints: [prefer('a'), prefer('b')],
    tolerations: [{ key: 'a', operator: 'Exists', effect: 'PreferNoSchedule' }],
    expected: 1,
  },
  {
    description: 'B.4.1 an empty-effect toleration counts for scoring',
    taints: [prefer('a', 'x')],
    tolerations: [{ key: 'a', value: 'x' }],
    expected: 0,
  },
  {
    description: 'B.8.10 a NoSchedule toleration is ignored by scoring',
    taints: [prefer('a')],
    tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoSchedule' }],
    expected: 1,
  },
  {
    description: 'B.8.10 a NoExecute toleration is ignored by scoring',
    taints: [prefer('a')],
    tolerations: [{ operator: 'Exists', effect: 'NoExecute' }],
    expected: 1,
  },
  {
    description: 'B.8.5 empty-key Exists tolerates every PreferNoSchedule taint',
    taints: [prefer('a'), prefer('b')],
    tolerations: [{ operator: 'Exists' }],
    expected: 0,
  },
];

describe('countIntolerablePreferNoSchedule (SEMANTICS B.4.1 Score)', () => {
  it.each(scoreCases)('$description', ({ taints, tolerations, expected }) => {
    expect(countIntolerablePreferNoSchedule(taints, preferNoScheduleTolerations(tolerations), on)).toBe(expected);
  });
});

const reasonCases = [
  {
    description: 'A.2 the reason names the first untolerated taint',
    taint: noSchedule('dedicated', 'gpu'),
    redact: false,
    expected: {
      plugin: 'TaintToleration',
      message: 'node(s) had untolerated taint {dedicated: gpu}',
      taint: noSchedule('dedicated', 'gpu'),
    },
  },
  {
    description: 'A.2 an empty value prints as Go does: {key: }',
    taint: noExecute('maintenance'),
    redact: false,
    expected: {
      plugin: 'TaintToleration',
      message: 'node(s) had untolerated taint {maintenance: }',
      taint: noExecute('maintenance'),
    },
  },
  {
    description: "B.8.11 redacted: upstream's wording and no taint",
    taint: noSchedule('dedicated', 'gpu'),
    redact: true,
    expected: { plugin: 'TaintToleration', message: 'node(s) had untolerated taint(s)' },
  },
];

describe('untoleratedTaintReason (SEMANTICS A.2)', () => {
  it.each(reasonCases)('$description', ({ taint, redact, expected }) => {
    expect(untoleratedTaintReason(taint, redact)).toEqual(expected);
  });

  it.each([
    {
      description: "B.4.1/B.8.11 the redacted reason is upstream's text since PR #134740",
      value: REDACTED_TAINT_MESSAGE,
      expected: 'node(s) had untolerated taint(s)',
    },
  ])('$description', ({ value, expected }) => {
    expect(value).toBe(expected);
    expect(untoleratedTaintReason(noExecute('any', 'x'), true).message).toBe(value);
  });
});

describe('toleration subsets by effect', () => {
  const all: Toleration[] = [
    { key: 'a' },
    { key: 'b', effect: '' },
    { key: 'c', effect: 'NoSchedule' },
    { key: 'd', effect: 'PreferNoSchedule' },
    { key: 'e', effect: 'NoExecute' },
  ];
  it.each([
    {
      description: 'B.4.1 the filter keeps empty, NoSchedule and NoExecute effects',
      pick: filterTolerations,
      expected: ['a', 'b', 'c', 'e'],
    },
    {
      description: 'B.4.1 PreScore keeps empty and PreferNoSchedule effects',
      pick: preferNoScheduleTolerations,
      expected: ['a', 'b', 'd'],
    },
  ])('$description', ({ pick, expected }) => {
    expect(pick(all).map((t) => t.key)).toEqual(expected);
  });
});
