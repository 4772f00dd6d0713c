import type { FieldError } from '../types';
import { forbidden, invalid, notSupported, required } from '../validation/field-errors';
import { isValidLabelValue, regexError, validateLabelName } from '../validation/label-names';
import { validateLabels, validateNamespaceName, validateObjectName } from '../validation/validate-objects';
import type { DisruptionBudget, DisruptionBudgetSpec, IntOrPercent, LabelSelectorSpec } from './budget-types';
import { percentValue } from './int-or-percent';

/** `supportedUnhealthyPodEvictionPolicies.List()`: sorted. */
export const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'] as const;

/**
 * `ValidatePodDisruptionBudgetSpec` (kubernetes pkg/apis/policy/validation/validation.go) and the name
 * checks of the object's metadata, with upstream's field paths and words (docs/SEMANTICS.md B.9.1):
 * minAvailable and maxUnavailable not both set, each a non-negative integer or a percentage of at most
 * 100%, the selector as `ValidateLabelSelector` checks it, and the unhealthy-pod eviction policy.
 */
export function validateDisruptionBudget(budget: DisruptionBudget): FieldError[] {
  return [
    ...validateNamespaceName(budget.namespace).map((e) => ({ ...e, field: 'metadata.namespace' })),
    ...validateObjectName(budget.name, 'metadata.name'),
    ...validateDisruptionBudgetSpec(budget.spec, 'spec'),
  ];
}

export function validateDisruptionBudgetSpec(spec: DisruptionBudgetSpec, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const min = spec.minAvailable ?? null;
  const max = spec.maxUnavailable ?? null;
  if (min !== null && max !== null) {
    errors.push(invalid(path, internalSpec(spec), 'minAvailable and maxUnavailable cannot be both set'));
  }
  if (min !== null) errors.push(...validateIntOrPercent(min, `${path}.minAvailable`));
  if (max !== null) errors.push(...validateIntOrPercent(max, `${path}.maxUnavailable`));
  errors.push(...validateLabelSelector(spec.selector, `${path}.selector`));
  const policy = spec.unhealthyPodEvictionPolicy ?? null;
  if (policy !== null && !(UNHEALTHY_POD_EVICTION_POLICIES as readonly string[]).includes(policy)) {
    errors.push(notSupported(`${path}.unhealthyPodEvictionPolicy`, policy, UNHEALTHY_POD_EVICTION_POLICIES));
  }
  return errors;
}

/** `ValidatePositiveIntOrPercent` then `IsNotMoreThan100Percent` (pkg/apis/apps/validation). */
function validateIntOrPercent(value: IntOrPercent, path: string): FieldError[] {
  if (typeof value === 'number') {
    return value < 0 ? [invalid(path, value, 'must be greater than or equal to 0')] : [];
  }
  if (!/^[0-9]+%$/.test(value)) {
    return [
      invalid(
        path,
        value,
        regexError("a valid percent string must be a numeric string followed by an ending '%'", '[0-9]+%', '1%', '93%'),
      ),
    ];
  }
  const percent = percentValue(value)!;
  return percent > 100 ? [invalid(path, value, 'must not be greater than 100%')] : [];
}

/** `ValidateLabelSelector` (apimachinery pkg/apis/meta/v1/validation): nil is valid. */
export function validateLabelSelector(selector: LabelSelectorSpec | null, path: string): FieldError[] {
  if (selector === null) return [];
  const errors = validateLabels(selector.matchLabels ?? {}, `${path}.matchLabels`);
  (selector.matchExpressions ?? []).forEach((expression, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const values = expression.values ?? [];
    switch (expression.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          errors.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          errors.push(forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errors.push(invalid(`${at}.operator`, expression.operator, 'not a valid selector operator'));
    }
    errors.push(...validateLabelName(expression.key, `${at}.key`));
    values.forEach((value, j) => {
      for (const message of isValidLabelValue(value)) errors.push(invalid(`${at}.values[${j}]`, value, message));
    });
  });
  return errors;
}

/**
 * The bad value upstream prints for `spec`: `json.Marshal` of the internal policy.PodDisruptionBudgetSpec,
 * whose fields have no JSON tags (Go names, declaration order) while the selector's do.
 */
function internalSpec(spec: DisruptionBudgetSpec): Record<string, unknown> {
  return {
    MinAvailable: spec.minAvailable ?? null,
    Selector: spec.selector === null ? null : selectorJson(spec.selector),
    MaxUnavailable: spec.maxUnavailable ?? null,
    UnhealthyPodEvictionPolicy: spec.unhealthyPodEvictionPolicy ?? null,
  };
}

function selectorJson(selector: LabelSelectorSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (selector.matchLabels && Object.keys(selector.matchLabels).length) out.matchLabels = selector.matchLabels;
  if (selector.matchExpressions?.length) {
    out.matchExpressions = selector.matchExpressions.map((e) => ({
      key: e.key,
      operator: e.operator,
      ...(e.values?.length ? { values: e.values } : {}),
    }));
  }
  return out;
}
