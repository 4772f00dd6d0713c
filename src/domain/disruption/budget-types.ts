/**
 * policy/v1 PodDisruptionBudget as the domain reads it (docs/SEMANTICS.md B.9). Plain data.
 */

/** intstr.IntOrString: an integer, or a string that should be a percentage such as "50%". */
export type IntOrPercent = number | string;

/** metav1.LabelSelectorRequirement. */
export interface LabelSelectorRequirementSpec {
  key: string;
  operator: string;
  values?: string[];
}

/** metav1.LabelSelector. */
export interface LabelSelectorSpec {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirementSpec[];
}

export interface DisruptionBudgetSpec {
  minAvailable?: IntOrPercent | null;
  maxUnavailable?: IntOrPercent | null;
  /** null: no selector, which selects no pod (metav1.LabelSelectorAsSelector(nil) is labels.Nothing()). */
  selector: LabelSelectorSpec | null;
  unhealthyPodEvictionPolicy?: string | null;
}

export interface DisruptionBudget {
  namespace: string;
  name: string;
  spec: DisruptionBudgetSpec;
}

/** policy/v1 PodDisruptionBudgetStatus's figures. */
export interface DisruptionBudgetStatus {
  expectedPods: number;
  currentHealthy: number;
  desiredHealthy: number;
  disruptionsAllowed: number;
}

/** What a budget reads of a pod: its labels and its phase. */
export interface BudgetPod {
  labels: Readonly<Record<string, string>>;
  phase: string;
}
