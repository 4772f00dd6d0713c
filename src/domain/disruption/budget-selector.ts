import { matchesRequirement, type LabelRequirement, type Labels } from '../label-selector/parse-label-selector';
import type { LabelSelectorSpec } from './budget-types';

const OPERATORS: Record<string, LabelRequirement['operator']> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'Exists',
  DoesNotExist: 'DoesNotExist',
};

/**
 * Whether the eviction subresource consults this budget at all (`getPodDisruptionBudgets` in eviction.go): "a PDB
 * with a nil or empty selector ... should match nothing, not everything" — unlike the disruption controller,
 * whose status of such a budget counts every pod of the namespace (SEMANTICS B.9.3).
 */
export function evictionConsults(selector: LabelSelectorSpec | null): boolean {
  if (selector === null) return false;
  return Object.keys(selector.matchLabels ?? {}).length > 0 || (selector.matchExpressions ?? []).length > 0;
}

/**
 * `metav1.LabelSelectorAsSelector` (apimachinery pkg/apis/meta/v1/helpers.go) as a predicate: a nil
 * selector matches nothing, an empty one everything; matchLabels are equalities and matchExpressions
 * In / NotIn / Exists / DoesNotExist, all ANDed. The selector must have passed validation
 * (validate-budget.ts); an unknown operator matches nothing, as upstream's conversion error would.
 */
export function compileBudgetSelector(selector: LabelSelectorSpec | null): (labels: Labels) => boolean {
  if (selector === null) return () => false;
  const requirements: LabelRequirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    requirements.push({ key, operator: '=', values: [value] });
  }
  for (const expression of selector.matchExpressions ?? []) {
    const operator = OPERATORS[expression.operator];
    if (operator === undefined) return () => false;
    requirements.push({ key: expression.key, operator, values: [...(expression.values ?? [])] });
  }
  if (requirements.length === 0) return () => true;
  return (labels) => requirements.every((requirement) => matchesRequirement(requirement, labels));
}
