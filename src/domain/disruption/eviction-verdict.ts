import type { DisruptionBudgetStatus } from './budget-types';

/** `MultiplePodDisruptionBudgetsMessage`'s text (kubernetes pkg/registry/core/pod/storage/eviction.go). */
export const MULTIPLE_BUDGETS_MESSAGE =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';
/** The 429's message when the budget allows no disruption (`checkAndDecrement`). */
export const BUDGET_VIOLATION_MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";
/** policyv1.DisruptionBudgetCause: the type of the 429's cause. */
export const DISRUPTION_BUDGET_CAUSE = 'DisruptionBudget';

export interface BudgetWithStatus {
  name: string;
  status: DisruptionBudgetStatus;
}

export type EvictionVerdict =
  /** Evict. `budget`: the one budget whose allowance it uses (none for pods a budget ignores). */
  | { allowed: true; budget?: string }
  /** 429 TooManyRequests: the budget allows no disruption now. */
  | { allowed: false; kind: 'BudgetViolated'; budget: string; message: string; cause: string }
  /** More than one budget selects the pod: the eviction subresource refuses it. */
  | { allowed: false; kind: 'MultipleBudgets'; budgets: string[]; message: string };

/**
 * The eviction subresource's decision for one pod (eviction.go `Create`, docs/SEMANTICS.md B.9.3):
 * a pod that is not Running (Pending, terminal: `canIgnorePDB`) is evicted without consulting any budget;
 * otherwise no budget → evict; more than one → refused; one → evict only while its `disruptionsAllowed`
 * is above 0 (the evictions that already happened are in its status: taintwise counts them at once).
 * The not-ready branch upstream has is unreachable here: Running stands for Ready.
 */
export function evictionVerdict(phase: string, budgets: readonly BudgetWithStatus[]): EvictionVerdict {
  if (phase !== 'Running') return { allowed: true };
  if (budgets.length === 0) return { allowed: true };
  if (budgets.length > 1) {
    return {
      allowed: false,
      kind: 'MultipleBudgets',
      budgets: budgets.map((b) => b.name).sort(),
      message: MULTIPLE_BUDGETS_MESSAGE,
    };
  }
  const [budget] = budgets;
  if (budget.status.disruptionsAllowed <= 0) {
    return {
      allowed: false,
      kind: 'BudgetViolated',
      budget: budget.name,
      message: BUDGET_VIOLATION_MESSAGE,
      cause: `The disruption budget ${budget.name} needs ${budget.status.desiredHealthy} healthy pods and has ${budget.status.currentHealthy} currently`,
    };
  }
  return { allowed: true, budget: budget.name };
}
