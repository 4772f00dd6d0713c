import type { Toleration } from '../types';
import { addOrUpdateToleration, matchToleration, tolerationsEqual } from './match-toleration';

const matchCases: Array<{ description: string; a: Toleration; b: Toleration; expected: boolean }> = [
  {
    description: 'B.1.2 same key/operator/value/effect, seconds ignored',
    a: { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
    b: { key: 'k', operator: 'Exists', effect: 'NoExecute' },
    expected: true,
  },
  {
    description: 'B.1.2 "" and "Equal" are different operators',
    a: { key: 'k', operator: '', value: 'v' },
    b: { key: 'k', operator: 'Equal', value: 'v' },
    expected: false,
  },
  {
    description: 'B.1.2 absent and "" operator are the same',
    a: { key: 'k', value: 'v' },
    b: { key: 'k', operator: '', value: 'v' },
    expected: true,
  },
  { description: 'B.1.2 different value', a: { key: 'k', value: 'v' }, b: { key: 'k', value: 'w' }, expected: false },
  {
    description: 'B.1.2 different effect',
    a: { key: 'k', operator: 'Exists', effect: 'NoSchedule' },
    b: { key: 'k', operator: 'Exists' },
    expected: false,
  },
  {
    description: 'B.1.2 different key',
    a: { key: 'k', operator: 'Exists' },
    b: { key: 'j', operator: 'Exists' },
    expected: false,
  },
];

describe('matchToleration (SEMANTICS B.1.2)', () => {
  it.each(matchCases)('$description', ({ a, b, expected }) => {
    expect(matchToleration(a, b)).toBe(expected);
    expect(matchToleration(b, a)).toBe(expected);
  });

  it('B.1.2 deep equality includes seconds; null and absent are the same', () => {
    expect(tolerationsEqual({ key: 'k', tolerationSeconds: 1 }, { key: 'k', tolerationSeconds: 2 })).toBe(false);
    expect(tolerationsEqual({ key: 'k', tolerationSeconds: null }, { key: 'k' })).toBe(true);
  });
});

const notReady60: Toleration = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 60,
};
const notReadyForever: Toleration = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' };
const other: Toleration = { key: 'dedicated', value: 'gpu' };

const addCases: Array<{ description: string; list: Toleration[]; add: Toleration; expected: Toleration[] }> = [
  {
    description: 'B.1.2 appended when no toleration has its identity',
    list: [other],
    add: notReadyForever,
    expected: [other, notReadyForever],
  },
  {
    description: 'B.6.2 replaced in place when identity matches (seconds ignored)',
    list: [notReady60, other],
    add: notReadyForever,
    expected: [notReadyForever, other],
  },
  {
    description: 'B.1.2 identical toleration: list unchanged',
    list: [other, notReadyForever],
    add: { ...notReadyForever },
    expected: [other, notReadyForever],
  },
  {
    description: 'B.1.2 every toleration with the identity is replaced',
    list: [notReady60, other, { ...notReady60, tolerationSeconds: 5 }],
    add: notReadyForever,
    expected: [notReadyForever, other, notReadyForever],
  },
  {
    description: 'B.1.2 "Equal" does not replace an operator-less one',
    list: [other],
    add: { ...other, operator: 'Equal' },
    expected: [other, { ...other, operator: 'Equal' }],
  },
];

describe('addOrUpdateToleration (SEMANTICS B.1.2, B.6.2)', () => {
  it.each(addCases)('$description', ({ list, add, expected }) => {
    const before = JSON.stringify(list);
    const result = addOrUpdateToleration(list, add);
    expect(result).toEqual(expected);
    expect(result).not.toBe(list);
    expect(JSON.stringify(list)).toBe(before);
  });
});
