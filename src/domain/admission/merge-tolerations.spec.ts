import type { Toleration } from '../types';
import { isSupersetToleration, mergeTolerations } from './merge-tolerations';

const mp: Toleration = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };

const supersetCases: Array<{ description: string; superset: Toleration; toleration: Toleration; expected: boolean }> = [
  { description: 'B.6.3 equal tolerations cover each other', superset: mp, toleration: { ...mp }, expected: true },
  {
    description: 'B.6.3 empty-key Exists covers any key',
    superset: { operator: 'Exists' },
    toleration: mp,
    expected: true,
  },
  {
    description: 'B.6.3 empty-key Equal does not cover another key',
    superset: { operator: 'Equal' },
    toleration: mp,
    expected: false,
  },
  {
    description: 'B.6.3 different key',
    superset: { key: 'a', operator: 'Exists' },
    toleration: { key: 'b', operator: 'Exists' },
    expected: false,
  },
  {
    description: 'B.6.3 empty effect covers every effect',
    superset: { key: 'a', operator: 'Exists' },
    toleration: { key: 'a', operator: 'Exists', effect: 'NoExecute' },
    expected: true,
  },
  {
    description: 'B.6.3 an effect-specific superset does not cover an all-effects toleration',
    superset: { key: 'a', operator: 'Exists', effect: 'NoSchedule' },
    toleration: { key: 'a', operator: 'Exists' },
    expected: false,
  },
  {
    description: 'B.6.3 different effect',
    superset: { key: 'a', operator: 'Exists', effect: 'NoSchedule' },
    toleration: { key: 'a', operator: 'Exists', effect: 'NoExecute' },
    expected: false,
  },
  {
    description: 'B.6.3 NoExecute with seconds covers fewer seconds',
    superset: { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
    toleration: { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
    expected: true,
  },
  {
    description: 'B.6.3 NoExecute with seconds does not cover more seconds',
    superset: { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
    toleration: { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 90 },
    expected: false,
  },
  {
    description: 'B.6.3 NoExecute with seconds does not cover forever',
    superset: { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
    toleration: { key: 'a', operator: 'Exists', effect: 'NoExecute' },
    expected: false,
  },
  {
    description: 'B.6.3 Equal covers an explicit Equal with the same value',
    superset: { key: 'a', value: 'v' },
    toleration: { key: 'a', operator: 'Equal', value: 'v' },
    expected: true,
  },
  {
    description: 'B.6.3 Equal does not cover an operator-less toleration (upstream quirk)',
    superset: { key: 'a', operator: 'Equal', value: 'v' },
    toleration: { key: 'a', value: 'v', effect: 'NoSchedule' },
    expected: false,
  },
  {
    description: 'B.6.3 Equal without values covers an explicit Equal without value (absent = "")',
    superset: { key: 'a' },
    toleration: { key: 'a', operator: 'Equal' },
    expected: true,
  },
  {
    description: 'B.6.3 Equal with another value',
    superset: { key: 'a', value: 'v' },
    toleration: { key: 'a', operator: 'Equal', value: 'w' },
    expected: false,
  },
  {
    description: 'B.6.3 unknown operator covers nothing but itself',
    superset: { key: 'a', operator: 'Gt', value: '1' },
    toleration: { key: 'a', operator: 'Gt', value: '2' },
    expected: false,
  },
];

describe('isSupersetToleration (pkg/util/tolerations, SEMANTICS B.6.3)', () => {
  it.each(supersetCases)('$description', ({ superset, toleration, expected }) => {
    expect(isSupersetToleration(superset, toleration)).toBe(expected);
  });
});

const mergeCases: Array<{ description: string; first: Toleration[]; second: Toleration[]; expected: Toleration[] }> = [
  {
    description: 'B.6.3 appended when nothing covers it',
    first: [{ key: 'a', operator: 'Exists' }],
    second: [mp],
    expected: [{ key: 'a', operator: 'Exists' }, mp],
  },
  { description: 'B.6.3 not appended when already present', first: [mp], second: [{ ...mp }], expected: [mp] },
  {
    description: 'B.6.3 not appended when a wildcard covers it',
    first: [{ operator: 'Exists' }],
    second: [mp],
    expected: [{ operator: 'Exists' }],
  },
  {
    description: 'B.6.3 redundant pod tolerations are dropped too (upstream)',
    first: [{ key: 'x', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }, { operator: 'Exists' }],
    second: [mp],
    expected: [{ operator: 'Exists' }],
  },
  {
    description: 'B.6.3 a later broader toleration replaces an earlier narrower one in its own place',
    first: [
      { key: 'a', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'b', operator: 'Exists' },
      { key: 'a', operator: 'Exists' },
    ],
    second: [],
    expected: [
      { key: 'b', operator: 'Exists' },
      { key: 'a', operator: 'Exists' },
    ],
  },
  { description: 'B.6.3 empty lists', first: [], second: [], expected: [] },
];

describe('mergeTolerations (pkg/util/tolerations, SEMANTICS B.6.3)', () => {
  it.each(mergeCases)('$description', ({ first, second, expected }) => {
    expect(mergeTolerations(first, second)).toEqual(expected);
  });
});
