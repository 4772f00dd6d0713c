import fc from 'fast-check';
import {
  compactBudgetSelector,
  compactSelectorMatches,
  compileBudgetSelector,
  evictionConsults,
} from './budget-selector';

// kubernetes pkg/registry/core/pod/storage/eviction.go getPodDisruptionBudgets @01aa0f3f (SEMANTICS B.9.3).
describe('evictionConsults', () => {
  it.each([
    [null, false],
    [{}, false],
    [{ matchLabels: {}, matchExpressions: [] }, false],
    [{ matchLabels: { app: 'web' } }, true],
    [{ matchExpressions: [{ key: 'app', operator: 'Exists' }] }, true],
  ] as const)('%j → %p', (selector, expected) => {
    expect(evictionConsults(selector as never)).toBe(expected);
  });
});

// apimachinery metav1.LabelSelectorAsSelector (docs/SEMANTICS.md B.9.1).
describe('compileBudgetSelector', () => {
  const cases: Array<[string, Parameters<typeof compileBudgetSelector>[0], Record<string, string>, boolean]> = [
    ['nil selects nothing', null, { app: 'web' }, false],
    ['empty selects everything', {}, {}, true],
    ['empty lists select everything', { matchLabels: {}, matchExpressions: [] }, { a: 'b' }, true],
    ['matchLabels equal', { matchLabels: { app: 'web' } }, { app: 'web', tier: 'x' }, true],
    ['matchLabels differ', { matchLabels: { app: 'web' } }, { app: 'db' }, false],
    ['matchLabels absent key', { matchLabels: { app: 'web' } }, {}, false],
    ['In', { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] }, { app: 'api' }, true],
    [
      'NotIn with the key absent matches',
      { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] },
      {},
      true,
    ],
    ['NotIn', { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['web'] }] }, { app: 'web' }, false],
    ['Exists', { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, { app: '' }, true],
    ['DoesNotExist', { matchExpressions: [{ key: 'app', operator: 'DoesNotExist' }] }, { app: 'x' }, false],
    [
      'all requirements are ANDed',
      { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] },
      { app: 'web', tier: 'back' },
      false,
    ],
    [
      'an unknown operator matches nothing',
      { matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] },
      { a: '2' },
      false,
    ],
  ];
  it.each(cases)('%s', (_name, selector, labels, expected) => {
    expect(compileBudgetSelector(selector)(labels)).toBe(expected);
  });

  it.each(cases)('the compact form: %s', (_name, selector, labels, expected) => {
    expect(compactSelectorMatches(compactBudgetSelector(selector), labels)).toBe(expected);
  });

  it('the compact form agrees with the compiled one on any selector and labels, and is data for matchLabels', () => {
    const word = fc.constantFrom('app', 'tier', 'web', 'db', '', 'toString', '__proto__');
    const labels = fc.dictionary(word, word, { maxKeys: 4 });
    const expression = fc.record({
      key: word,
      operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt'),
      values: fc.array(word, { maxLength: 2 }),
    });
    const selector = fc.option(
      fc.record(
        { matchLabels: labels, matchExpressions: fc.array(expression, { maxLength: 2 }) },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(selector, labels, (s, l) => {
        const compact = compactBudgetSelector(s);
        expect(compactSelectorMatches(compact, l)).toBe(compileBudgetSelector(s)(l));
        const onlyLabels = s !== null && Object.keys(s.matchLabels ?? {}).length > 0 && !s.matchExpressions?.length;
        expect(Array.isArray(compact)).toBe(onlyLabels);
      }),
      { numRuns: 1000, seed: 20261127 },
    );
  });
});
