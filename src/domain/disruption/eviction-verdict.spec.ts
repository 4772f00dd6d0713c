import { BUDGET_VIOLATION_MESSAGE, evictionVerdict, MULTIPLE_BUDGETS_MESSAGE } from './eviction-verdict';

const status = (allowed: number, desired = 2, healthy = 2) => ({
  expectedPods: 3,
  currentHealthy: healthy,
  desiredHealthy: desired,
  disruptionsAllowed: allowed,
});

// kubernetes pkg/registry/core/pod/storage/eviction.go @01aa0f3f Create / checkAndDecrement (docs/SEMANTICS.md B.9.3).
describe('evictionVerdict', () => {
  it.each(['Pending', 'Succeeded', 'Failed', 'Evicted'])('a %s pod is evicted without a budget check', (phase) => {
    expect(evictionVerdict(phase, [{ name: 'b', status: status(0) }])).toEqual({ allowed: true });
  });

  it('no budget: evicted', () => {
    expect(evictionVerdict('Running', [])).toEqual({ allowed: true });
  });

  it('one budget allowing a disruption: evicted against that budget', () => {
    expect(evictionVerdict('Running', [{ name: 'web', status: status(1) }])).toEqual({ allowed: true, budget: 'web' });
  });

  it('one budget allowing none: 429 with the budget named in the cause', () => {
    expect(evictionVerdict('Running', [{ name: 'web', status: status(0, 3, 2) }])).toEqual({
      allowed: false,
      kind: 'BudgetViolated',
      budget: 'web',
      message: BUDGET_VIOLATION_MESSAGE,
      cause: 'The disruption budget web needs 3 healthy pods and has 2 currently',
    });
    expect(BUDGET_VIOLATION_MESSAGE).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
  });

  it('two budgets: refused, whatever they allow', () => {
    expect(
      evictionVerdict('Running', [
        { name: 'z', status: status(5) },
        { name: 'a', status: status(5) },
      ]),
    ).toEqual({ allowed: false, kind: 'MultipleBudgets', budgets: ['a', 'z'], message: MULTIPLE_BUDGETS_MESSAGE });
    expect(MULTIPLE_BUDGETS_MESSAGE).toBe(
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    );
  });
});
