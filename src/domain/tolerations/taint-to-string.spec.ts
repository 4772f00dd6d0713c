import { matchTaint, schedulingSignature, taintIdentity, taintToString } from './taint-to-string';

describe('taintToString (SEMANTICS B.1.3)', () => {
  const cases = [
    {
      description: 'B.1.3 key=value:effect',
      taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
      expected: 'dedicated=gpu:NoSchedule',
    },
    {
      description: 'B.1.3 no value prints key:effect',
      taint: { key: 'maintenance', effect: 'NoExecute' },
      expected: 'maintenance:NoExecute',
    },
    {
      description: 'B.1.3 empty value prints key:effect',
      taint: { key: 'maintenance', value: '', effect: 'NoExecute' },
      expected: 'maintenance:NoExecute',
    },
    { description: 'B.1.3 no effect prints key=value:', taint: { key: 'k', value: 'v' }, expected: 'k=v:' },
    { description: 'B.1.3 neither prints the key alone', taint: { key: 'k' }, expected: 'k' },
  ];
  it.each(cases)('$description', ({ taint, expected }) => {
    expect(taintToString(taint)).toBe(expected);
  });
});

describe('taint identity (SEMANTICS B.1.3)', () => {
  const cases = [
    {
      description: 'B.1.3 same key and effect match, value ignored',
      a: { key: 'k', effect: 'NoSchedule', value: 'x' },
      b: { key: 'k', effect: 'NoSchedule', value: 'y' },
      expected: true,
    },
    {
      description: 'B.1.3 different effect is a different taint',
      a: { key: 'k', effect: 'NoSchedule' },
      b: { key: 'k', effect: 'NoExecute' },
      expected: false,
    },
    {
      description: 'B.1.3 different key is a different taint',
      a: { key: 'k', effect: 'NoSchedule' },
      b: { key: 'j', effect: 'NoSchedule' },
      expected: false,
    },
    {
      description: 'B.1.3 absent effect equals empty effect',
      a: { key: 'k' },
      b: { key: 'k', effect: '' },
      expected: true,
    },
    {
      description: 'B.1.3 empty effect differs from a real one',
      a: { key: 'k', effect: 'NoSchedule' },
      b: { key: 'k' },
      expected: false,
    },
  ];
  it.each(cases)('$description', ({ a, b, expected }) => {
    expect(matchTaint(a, b)).toBe(expected);
    expect(taintIdentity(a.key, a.effect) === taintIdentity(b.key, b.effect)).toBe(expected);
  });

  it('B.1.3 identity renders key:effect', () => {
    expect(taintIdentity('dedicated', 'NoSchedule')).toBe('dedicated:NoSchedule');
    expect(taintIdentity('dedicated', undefined)).toBe('dedicated:');
  });
});

describe('schedulingSignature (what the filter and score read of a taint list)', () => {
  const t = (key: string, value: string, effect: string, timeAdded?: Date) => ({ key, value, effect, timeAdded });
  it.each([
    {
      description: 'timeAdded does not count',
      a: [t('k', 'v', 'NoSchedule', new Date(1))],
      b: [t('k', 'v', 'NoSchedule', new Date(2))],
      same: true,
    },
    {
      description: 'a missing value is the empty value',
      a: [{ key: 'k', effect: 'NoExecute' }],
      b: [t('k', '', 'NoExecute')],
      same: true,
    },
    { description: 'the value counts', a: [t('k', 'v', 'NoSchedule')], b: [t('k', 'w', 'NoSchedule')], same: false },
    { description: 'the effect counts', a: [t('k', 'v', 'NoSchedule')], b: [t('k', 'v', 'NoExecute')], same: false },
    {
      description: 'the order counts (the first untolerated taint is reported)',
      a: [t('a', '', 'NoSchedule'), t('b', '', 'NoSchedule')],
      b: [t('b', '', 'NoSchedule'), t('a', '', 'NoSchedule')],
      same: false,
    },
    {
      description: 'separators cannot be forged by keys',
      a: [t('a\u0000b', '', 'NoSchedule')],
      b: [t('a', 'b', 'NoSchedule')],
      same: false,
    },
  ])('$description', ({ a, b, same }) => {
    expect(schedulingSignature(a) === schedulingSignature(b)).toBe(same);
  });
});
