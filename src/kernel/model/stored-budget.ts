import type { DisruptionBudgetSpec } from '../../domain/disruption/budget-types';

/** A policy/v1 PodDisruptionBudget as taintwise stores it (docs/API.md "Disruption budgets"). Its status is derived. */
export interface StoredBudget {
  namespace: string;
  name: string;
  uid: string;
  labels: Record<string, string>;
  spec: DisruptionBudgetSpec;
  generation: number;
  resourceVersion: string;
  createdAt: Date;
  updatedAt: Date;
}

export function budgetKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}
