import type { DisruptionBudgetStatus } from '../domain/disruption/budget-types';
import type { StoredBudget } from '../kernel/model/stored-budget';

const NO_PODS: DisruptionBudgetStatus = {
  expectedPods: 0,
  currentHealthy: 0,
  desiredHealthy: 0,
  disruptionsAllowed: 0,
};

/**
 * A budget as policy/v1 shows it, on REST and the Kubernetes API alike. `status` is derived from the
 * pods when read (docs/SEMANTICS.md B.9.2), so `observedGeneration` is always the current generation
 * and `disruptedPods` stays empty: an eviction changes the pod in the same transaction.
 */
export function presentBudget(budget: StoredBudget, status: DisruptionBudgetStatus | undefined) {
  const spec: Record<string, unknown> = {};
  if (budget.spec.minAvailable != null) spec.minAvailable = budget.spec.minAvailable;
  if (budget.spec.maxUnavailable != null) spec.maxUnavailable = budget.spec.maxUnavailable;
  if (budget.spec.selector !== null) spec.selector = budget.spec.selector;
  if (budget.spec.unhealthyPodEvictionPolicy != null)
    spec.unhealthyPodEvictionPolicy = budget.spec.unhealthyPodEvictionPolicy;
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: {
      name: budget.name,
      namespace: budget.namespace,
      uid: budget.uid,
      resourceVersion: budget.resourceVersion,
      generation: budget.generation,
      creationTimestamp: budget.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      ...(Object.keys(budget.labels).length ? { labels: budget.labels } : {}),
    },
    spec,
    status: { observedGeneration: budget.generation, disruptedPods: {}, ...(status ?? NO_PODS) },
  };
}

export type PresentedBudget = ReturnType<typeof presentBudget>;
