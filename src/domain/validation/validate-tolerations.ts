import type { FieldError, Toleration } from '../types';
import { isCanonicalDecimalInteger } from '../tolerations/numeric-value';
import { matchToleration } from '../tolerations/match-toleration';
import type { MatchOptions } from '../tolerations/tolerates-taint';
import { forbidden, invalid, notSupported } from './field-errors';
import { goParseInt64Error } from './go-parse-int';
import { isRecord, readStringField as readString } from './json-fields';
import { EMPTY_ERROR, isValidLabelValue, validateLabelName } from './label-names';

/** `AllowTaintTolerationComparisonOperators`: the gate (A.1), or ratcheting on update (B.2.1). */
export type TolerationValidationOptions = Pick<MatchOptions, 'comparisonOperators'>;

export const TAINT_EFFECT_VALUES = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
/** Listed when Gt/Lt are used while the gate is off (B.8.9). */
const ALL_OPERATORS = ['Equal', 'Exists', 'Lt', 'Gt'] as const;
/** Listed for any other unknown operator, even with the gate on (B.8.9). */
const BASIC_OPERATORS = ['Equal', 'Exists'] as const;

const DECIMAL_INTEGER_ERR = 'must be a valid decimal integer in canonical form';

/** `content.IsDecimalInteger` (apimachinery pkg/api/validate/content/decimal_int.go). */
export function isDecimalInteger(value: string): string[] {
  if (value.length === 0) return [EMPTY_ERROR];
  return isCanonicalDecimalInteger(value) ? [] : [DECIMAL_INTEGER_ERR];
}

/**
 * API validation of a pod's tolerations: port of `ValidateTolerations`
 * (pkg/apis/core/validation/validation.go, SEMANTICS B.2.1). Every check runs and errors accumulate,
 * in upstream's order per toleration: key, empty key ⇒ Exists, tolerationSeconds ⇒ NoExecute,
 * operator/value, effect. Note where upstream reports things (B.8.8): an Equal value and an Exists
 * value are reported at `.operator`; only Gt/Lt values are reported at `.value`.
 *
 * Never throws: a value of the wrong JSON type (a number as key, a string as seconds) is reported as
 * `Invalid value` at its path, and that field's other checks are skipped.
 * @example validateTolerations([{ operator: 'In' }], 'tolerations', { comparisonOperators: true })
 *   // -> [{ field: 'tolerations[0].operator', type: 'Unsupported value',
 *   //       message: 'Unsupported value: "In": supported values: "Equal", "Exists"' }]
 */
export function validateTolerations(
  tolerations: readonly Toleration[],
  path: string,
  options: TolerationValidationOptions,
): FieldError[] {
  if (!Array.isArray(tolerations)) return [invalid(path, tolerations as unknown, 'must be a list of tolerations')];
  return tolerations.flatMap((toleration: unknown, i) => validateToleration(toleration, `${path}[${i}]`, options));
}

function validateToleration(raw: unknown, path: string, options: TolerationValidationOptions): FieldError[] {
  if (!isRecord(raw)) return [invalid(path, raw, 'must be an object')];
  const errors: FieldError[] = [];
  const record = raw;
  const key = readString(record, 'key', path, errors);
  const operator = readString(record, 'operator', path, errors);
  const value = readString(record, 'value', path, errors);
  const effect = readString(record, 'effect', path, errors);
  const seconds = readSeconds(record, path, errors);

  if (key !== undefined && key.length > 0) errors.push(...validateLabelName(key, `${path}.key`));

  if (key === '' && operator !== undefined && operator !== 'Exists') {
    errors.push(
      invalid(
        `${path}.operator`,
        operator,
        'operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ),
    );
  }

  // B.8.7: an empty effect is rejected too; only exactly NoExecute carries seconds.
  if (seconds !== null && effect !== undefined && effect !== 'NoExecute') {
    errors.push(invalid(`${path}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
  }

  if (operator !== undefined && value !== undefined) {
    errors.push(...validateOperatorAndValue(operator, value, { key, effect, seconds }, path, options));
  }

  if (effect !== undefined && effect.length > 0 && !(TAINT_EFFECT_VALUES as readonly string[]).includes(effect)) {
    errors.push(notSupported(`${path}.effect`, effect, TAINT_EFFECT_VALUES));
  }
  return errors;
}

function validateOperatorAndValue(
  operator: string,
  value: string,
  rest: { key: string | undefined; effect: string | undefined; seconds: number | null },
  path: string,
  options: TolerationValidationOptions,
): FieldError[] {
  switch (operator) {
    case '':
    case 'Equal': {
      const messages = isValidLabelValue(value);
      return messages.length > 0 ? [invalid(`${path}.operator`, value, messages.join(';'))] : [];
    }
    case 'Exists':
      // Upstream passes the whole toleration as the bad value; it renders as JSON in Kubernetes' field order.
      return value.length > 0
        ? [
            invalid(
              `${path}.operator`,
              tolerationAsJson(operator, value, rest),
              "value must be empty when `operator` is 'Exists'",
            ),
          ]
        : [];
    case 'Lt':
    case 'Gt': {
      if (!options.comparisonOperators) return [notSupported(`${path}.operator`, operator, ALL_OPERATORS)];
      const errors = isDecimalInteger(value).map((message) => invalid(`${path}.value`, value, message));
      const parseError = goParseInt64Error(value);
      if (parseError !== undefined) errors.push(invalid(`${path}.value`, value, parseError));
      return errors;
    }
    default:
      return [notSupported(`${path}.operator`, operator, BASIC_OPERATORS)];
  }
}

/** `core.Toleration` through json.Marshal: key, operator, value, effect, tolerationSeconds, all omitempty. */
function tolerationAsJson(
  operator: string,
  value: string,
  rest: { key: string | undefined; effect: string | undefined; seconds: number | null },
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (rest.key) out.key = rest.key;
  out.operator = operator;
  out.value = value;
  if (rest.effect) out.effect = rest.effect;
  if (rest.seconds !== null) out.tolerationSeconds = rest.seconds;
  return out;
}

/** `tolerationSeconds`: null when absent; any int64 is accepted, negative and zero included (B.2.1). */
function readSeconds(record: Record<string, unknown>, path: string, errors: FieldError[]): number | null {
  const value = record.tolerationSeconds;
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  errors.push(invalid(`${path}.tolerationSeconds`, value, 'must be an integer'));
  return 0; // present, though unreadable: the effect rule still applies
}

/** Whether a toleration list already uses Gt/Lt: the ratchet that keeps such pods updatable (B.2.1, B.8.4). */
export function usesComparisonOperators(tolerations: readonly Toleration[]): boolean {
  return (
    Array.isArray(tolerations) &&
    tolerations.some((t: unknown) => isRecord(t) && (t.operator === 'Gt' || t.operator === 'Lt'))
  );
}

/**
 * Validation of a pod update's tolerations: port of `validateOnlyAddedTolerations` plus the ratchet of
 * `allowTaintTolerationComparisonOperators` (pkg/api/pod/util.go) (SEMANTICS B.2.1). Every old toleration
 * must still be present, equal in everything but `tolerationSeconds`; otherwise a single Forbidden at the
 * list's path (upstream stops at the first). New tolerations may be added. Then the new list is
 * validated, with Gt/Lt allowed when the gate is on or the old list already used them.
 */
export function validateTolerationsUpdate(
  oldTolerations: readonly Toleration[],
  newTolerations: readonly Toleration[],
  path: string,
  options: TolerationValidationOptions,
): FieldError[] {
  const olds = Array.isArray(oldTolerations) ? oldTolerations : [];
  const news = Array.isArray(newTolerations) ? newTolerations : [];
  const kept = olds.every((old) =>
    news.some((candidate) => isRecord(candidate) && isRecord(old) && matchToleration(old, candidate)),
  );
  if (!kept) return [forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  const comparisonOperators = options.comparisonOperators || usesComparisonOperators(olds);
  return validateTolerations(newTolerations, path, { comparisonOperators });
}
