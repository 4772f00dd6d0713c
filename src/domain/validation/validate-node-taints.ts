import type { FieldError, Taint } from '../types';
import { duplicate, invalid, notSupported, required } from './field-errors';
import { isRecord, readStringField as readString } from './json-fields';
import { isValidLabelValue, validateLabelName } from './label-names';
import { TAINT_EFFECT_VALUES } from './validate-tolerations';

/**
 * API validation of a node's taints: port of `validateNodeTaints` (pkg/apis/core/validation/validation.go,
 * SEMANTICS B.2.2). Paths are `taints[i]...` because that is the field in taintwise's JSON (upstream's
 * `metadata.taints` path is a quirk of where it is called from, not something clients should see).
 * - key: always validated, so an empty key gives two errors ("non-empty" and the regex);
 * - value: a label value, messages joined by `;`; never validated as a number (B.8.2);
 * - effect: Required when empty, else one of the three (NotSupported, in upstream's order);
 * - (key, effect) unique: the later one gets `Duplicate value` at `taints[i]`.
 * `timeAdded` is not validated. Never throws on values of the wrong JSON type.
 * @example validateNodeTaints([{ key: 'k', effect: 'NoScheduled' as never }])
 *   // -> [{ field: 'taints[0].effect', type: 'Unsupported value', message: 'Unsupported value: "NoScheduled":
 * supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"' }]
 */
export function validateNodeTaints(taints: readonly Taint[], path = 'taints'): FieldError[] {
  if (!Array.isArray(taints)) return [invalid(path, taints as unknown, 'must be a list of taints')];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((raw: unknown, i) => {
    const at = `${path}[${i}]`;
    if (!isRecord(raw)) {
      errors.push(invalid(at, raw, 'must be an object'));
      return;
    }
    const record = raw;
    const key = readString(record, 'key', at, errors);
    const value = readString(record, 'value', at, errors);
    const effect = readString(record, 'effect', at, errors);

    if (key !== undefined) errors.push(...validateLabelName(key, `${at}.key`));
    if (value !== undefined) {
      const messages = isValidLabelValue(value);
      if (messages.length > 0) errors.push(invalid(`${at}.value`, value, messages.join(';')));
    }
    if (effect === '') errors.push(required(`${at}.effect`));
    else if (effect !== undefined && !(TAINT_EFFECT_VALUES as readonly string[]).includes(effect)) {
      errors.push(notSupported(`${at}.effect`, effect, TAINT_EFFECT_VALUES));
    }

    if (key === undefined || effect === undefined) return;
    const identity = JSON.stringify([key, effect]);
    if (seen.has(identity)) {
      errors.push(
        duplicate(at, taintAsJson(record, key, value, effect), 'taints must be unique by key and effect pair'),
      );
      return;
    }
    seen.add(identity);
  });
  return errors;
}

/** `core.Taint` through json.Marshal: key, value (omitempty), effect, timeAdded (omitempty). */
function taintAsJson(
  record: Record<string, unknown>,
  key: string,
  value: string | undefined,
  effect: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { key };
  if (value) out.value = value;
  out.effect = effect;
  if (record.timeAdded !== undefined && record.timeAdded !== null) out.timeAdded = record.timeAdded;
  return out;
}
