import type { DisruptionBudgetSpec, DisruptionBudgetStatus } from './budget-types';
import { scaledValue } from './int-or-percent';

/** A pod as a budget counts it (docs/SEMANTICS.md B.9.2). */
export interface CountedPod {
  phase: string;
  /** Whether a controller owns it (ownerReferences): an evicted owned pod is one its controller re-creates. */
  owned: boolean;
}

/**
 * Whether the pod counts toward `expectedPods`. The disruption controller takes the scale of the pods'
 * controllers; taintwise has no controllers, so a pod stands for its replica: Pending and Running pods,
 * and pods taintwise evicted that have an owner (the controller would re-create them, its scale
 * unchanged). Succeeded and Failed pods, and evicted bare pods, are gone for good.
 */
export function isExpected(pod: CountedPod): boolean {
  return pod.phase === 'Pending' || pod.phase === 'Running' || (pod.phase === 'Evicted' && pod.owned);
}

/** Whether the pod counts toward `currentHealthy`: Running stands for Ready (`IsPodReady`). */
export function isHealthy(pod: CountedPod): boolean {
  return pod.phase === 'Running';
}

/** The figures of pods selected by a budget. */
export interface BudgetCounts {
  expected: number;
  healthy: number;
}

export function countBudgetPods(pods: Iterable<CountedPod>): BudgetCounts {
  let expected = 0;
  let healthy = 0;
  for (const pod of pods) {
    if (isExpected(pod)) expected++;
    if (isHealthy(pod)) healthy++;
  }
  return { expected, healthy };
}

/**
 * `getExpectedPodCount` and `updatePdbStatus` of the disruption controller (kubernetes
 * pkg/controller/disruption/disruption.go), with the API's default (policy/v1 SetDefaults: neither field
 * set means minAvailable 1):
 * - maxUnavailable: desiredHealthy = max(0, expected − maxUnavailable scaled to expected, rounded up);
 * - integer minAvailable: desiredHealthy = minAvailable;
 * - percentage minAvailable: desiredHealthy = minAvailable scaled to expected, rounded up;
 * - disruptionsAllowed = currentHealthy − desiredHealthy, and 0 when that is negative or no pod is expected.
 * @example budgetStatus({ maxUnavailable: '50%', selector: {} }, { expected: 3, healthy: 3 }).disruptionsAllowed === 2
 */
export function budgetStatus(spec: DisruptionBudgetSpec, counts: BudgetCounts): DisruptionBudgetStatus {
  const expectedPods = counts.expected;
  let desiredHealthy: number;
  if (spec.maxUnavailable != null) {
    const maxUnavailable = scaledValue(spec.maxUnavailable, expectedPods, true);
    desiredHealthy = Math.max(0, expectedPods - maxUnavailable);
  } else {
    desiredHealthy = scaledValue(spec.minAvailable ?? 1, expectedPods, true);
  }
  let disruptionsAllowed = counts.healthy - desiredHealthy;
  if (expectedPods <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
  return { expectedPods, currentHealthy: counts.healthy, desiredHealthy, disruptionsAllowed };
}
