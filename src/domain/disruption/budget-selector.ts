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

/**
 * `compileBudgetSelector` in a form that holds no closure where it can: a selector of matchLabels alone (what
 * most budgets have) as its `[key, value, …]` pairs, matched by {@link compactSelectorMatches}; any other as
 * the compiled predicate. The snapshot keeps one per budget, thousands of them, and every closure and
 * requirement object is one more object a full collection marks.
 */
export type CompactBudgetSelector = readonly string[] | ((labels: Labels) => boolean);

export function compactBudgetSelector(selector: LabelSelectorSpec | null): CompactBudgetSelector {
  if (selector !== null && (selector.matchExpressions ?? []).length === 0) {
    const pairs = Object.entries(selector.matchLabels ?? {}).flat();
    if (pairs.length > 0) return pairs;
  }
  return compileBudgetSelector(selector);
}

/** Whether the labels are selected: every pair's key present with its value (matchLabels' equalities, ANDed). */
export function compactSelectorMatches(selector: CompactBudgetSelector, labels: Labels): boolean {
  if (typeof selector === 'function') return selector(labels);
  for (let i = 0; i < selector.length; i += 2)
    if (!Object.hasOwn(labels, selector[i]) || labels[selector[i]] !== selector[i + 1]) return false;
  return true;
}
