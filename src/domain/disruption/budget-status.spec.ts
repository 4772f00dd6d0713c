import type { DisruptionBudgetSpec } from './budget-types';
import { budgetStatus, countBudgetPods, isExpected, isHealthy } from './budget-status';

// kubernetes pkg/controller/disruption/disruption.go @003e8629 getExpectedPodCount / updatePdbStatus (SEMANTICS B.9.2).
describe('budgetStatus (the disruption controller figures)', () => {
  const cases: Array<[string, Partial<DisruptionBudgetSpec>, number, number, [number, number, number, number]]> = [
    // name, spec, expected, healthy → [expectedPods, currentHealthy, desiredHealthy, disruptionsAllowed]
    ['int minAvailable below healthy', { minAvailable: 2 }, 3, 3, [3, 3, 2, 1]],
    ['int minAvailable equal to healthy', { minAvailable: 3 }, 3, 3, [3, 3, 3, 0]],
    ['int minAvailable above healthy: never negative', { minAvailable: 5 }, 3, 3, [3, 3, 5, 0]],
    ['int minAvailable 0: every healthy pod may go', { minAvailable: 0 }, 3, 2, [3, 2, 0, 2]],
    ['percentage minAvailable rounds up', { minAvailable: '50%' }, 3, 3, [3, 3, 2, 1]],
    ['percentage minAvailable 100%', { minAvailable: '100%' }, 4, 4, [4, 4, 4, 0]],
    ['percentage minAvailable 1% of 10 is 1', { minAvailable: '1%' }, 10, 10, [10, 10, 1, 9]],
    ['int maxUnavailable', { maxUnavailable: 1 }, 3, 3, [3, 3, 2, 1]],
    ['int maxUnavailable larger than expected: desired 0', { maxUnavailable: 5 }, 3, 3, [3, 3, 0, 3]],
    ['percentage maxUnavailable rounds up (more may go)', { maxUnavailable: '50%' }, 3, 3, [3, 3, 1, 2]],
    ['percentage maxUnavailable 0%', { maxUnavailable: '0%' }, 3, 3, [3, 3, 3, 0]],
    ['maxUnavailable with one unhealthy pod', { maxUnavailable: 1 }, 3, 2, [3, 2, 2, 0]],
    ['no pods expected: no disruption allowed', { maxUnavailable: 1 }, 0, 0, [0, 0, 0, 0]],
    ['neither set defaults to minAvailable 1', {}, 2, 2, [2, 2, 1, 1]],
    ['nulls are unset', { minAvailable: null, maxUnavailable: null }, 1, 1, [1, 1, 1, 0]],
  ];
  it.each(cases)('%s', (_name, spec, expected, healthy, [expectedPods, currentHealthy, desiredHealthy, allowed]) => {
    expect(budgetStatus({ selector: {}, ...spec }, { expected, healthy })).toEqual({
      expectedPods,
      currentHealthy,
      desiredHealthy,
      disruptionsAllowed: allowed,
    });
  });
});

describe('which pods a budget counts (taintwise stand-ins for controllers and readiness)', () => {
  const cases: Array<[string, boolean, boolean, boolean]> = [
    // phase, owned → expected, healthy
    ['Running', true, true, true],
    ['Running', false, true, true],
    ['Pending', true, true, false],
    ['Evicted', true, true, false],
    ['Evicted', false, false, false],
    ['Succeeded', true, false, false],
    ['Failed', true, false, false],
  ];
  it.each(cases)('%s (owned: %s) → expected %s, healthy %s', (phase, owned, expected, healthy) => {
    expect(isExpected({ phase, owned })).toBe(expected);
    expect(isHealthy({ phase, owned })).toBe(healthy);
  });

  it('counts a mixed set', () => {
    expect(
      countBudgetPods([
        { phase: 'Running', owned: true },
        { phase: 'Running', owned: true },
        { phase: 'Pending', owned: true },
        { phase: 'Evicted', owned: true },
        { phase: 'Succeeded', owned: true },
      ]),
    ).toEqual({ expected: 4, healthy: 2 });
  });
});
