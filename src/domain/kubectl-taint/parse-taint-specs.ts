import { TAINT_EFFECTS, type Taint, type TaintEffect } from '../types';
import { isQualifiedName, isValidLabelValue } from '../validation/label-names';
import { KubectlTaintError } from './kubectl-taint-error';

/** A removal: without an effect it removes every taint with that key (B.3.2, B.8.14). */
export interface TaintRemoval {
  key: string;
  effect?: TaintEffect;
}

export interface TaintChanges {
  add: Taint[];
  remove: TaintRemoval[];
}

interface ParsedTaint {
  key: string;
  value: string;
  effect: TaintEffect | '';
}

/**
 * One `key[=value][:effect]` spec, as kubectl's `parseTaint` (kubectl/pkg/cmd/taint/utils.go, SEMANTICS B.3.2):
 * split on `:` — one part is all key (so `foo=bar` is the key `foo=bar`, which is invalid); with two parts
 * the effect is checked first, then the first part is split on `=`; three or more parts are invalid.
 */
function parseTaint(spec: string): ParsedTaint {
  const parts = spec.split(':');
  let key: string;
  let value = '';
  let effect: TaintEffect | '' = '';
  if (parts.length === 1) {
    key = parts[0];
  } else if (parts.length === 2) {
    if (!(TAINT_EFFECTS as readonly string[]).includes(parts[1])) {
      throw new KubectlTaintError('InvalidSpec', `invalid taint effect: ${parts[1]}, unsupported taint effect`);
    }
    effect = parts[1] as TaintEffect;
    const keyValue = parts[0].split('=');
    if (keyValue.length > 2) throw new KubectlTaintError('InvalidSpec', `invalid taint spec: ${spec}`);
    key = keyValue[0];
    if (keyValue.length === 2) {
      value = keyValue[1];
      const errors = isValidLabelValue(value);
      if (errors.length > 0)
        throw new KubectlTaintError('InvalidSpec', `invalid taint spec: ${spec}, ${errors.join('; ')}`);
    }
  } else {
    throw new KubectlTaintError('InvalidSpec', `invalid taint spec: ${spec}`);
  }
  const keyErrors = isQualifiedName(key);
  if (keyErrors.length > 0)
    throw new KubectlTaintError('InvalidSpec', `invalid taint spec: ${spec}, ${keyErrors.join('; ')}`);
  return { key, value, effect };
}

/** A parsed taint as Go's `%v` prints a `corev1.Taint` value: `{key value NoSchedule <nil>}`. */
function goTaintValue(taint: ParsedTaint): string {
  return `{${taint.key} ${taint.value} ${taint.effect} <nil>}`;
}

/**
 * kubectl taint's arguments as changes: port of `parseTaints` plus the add/remove conflict check of
 * `TaintOptions.Validate` (SEMANTICS B.3.2). A spec ending in `-` is a removal (one `-` stripped; its
 * value is parsed and validated, then dropped); any other spec is an addition and needs an effect.
 * Throws `KubectlTaintError` with kubectl's message at the first problem, as kubectl does.
 * @example parseTaintSpecs(['dedicated=gpu:NoSchedule', 'legacy-'])
 *   // -> { add: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], remove: [{ key: 'legacy' }] }
 */
export function parseTaintSpecs(specs: readonly string[]): TaintChanges {
  const add: Taint[] = [];
  const remove: TaintRemoval[] = [];
  const added = new Set<string>();
  for (const spec of specs) {
    if (spec.endsWith('-')) {
      const parsed = parseTaint(spec.slice(0, -1));
      remove.push(parsed.effect === '' ? { key: parsed.key } : { key: parsed.key, effect: parsed.effect });
      continue;
    }
    const parsed = parseTaint(spec);
    if (parsed.effect === '') throw new KubectlTaintError('InvalidSpec', `invalid taint spec: ${spec}`);
    const identity = JSON.stringify([parsed.key, parsed.effect]);
    if (added.has(identity)) {
      throw new KubectlTaintError(
        'InvalidSpec',
        `duplicated taints with the same key and effect: ${goTaintValue(parsed)}`,
      );
    }
    added.add(identity);
    add.push(
      parsed.value === ''
        ? { key: parsed.key, effect: parsed.effect }
        : { key: parsed.key, value: parsed.value, effect: parsed.effect },
    );
  }
  assertNoAddAndRemove(add, remove);
  return { add, remove };
}

/** `TaintOptions.Validate`: an added key also removed (without effect, or with the same effect) is refused. */
function assertNoAddAndRemove(add: readonly Taint[], remove: readonly TaintRemoval[]): void {
  const conflicts: string[] = [];
  for (const taint of add) {
    for (const removal of remove) {
      if (taint.key === removal.key && (removal.effect === undefined || removal.effect === taint.effect)) {
        conflicts.push(`${removal.key}=${removal.effect ?? ''}`);
      }
    }
  }
  if (conflicts.length > 0) {
    throw new KubectlTaintError(
      'AddAndRemove',
      `can not both modify and remove the following taint(s) in the same command: ${conflicts.join(', ')}`,
    );
  }
}

/**
 * The spec that adds this taint: `key=value:effect`, or `key:effect` without a value.
 * `parseTaintSpecs([printTaintSpec(t)])` gives back `t` (key, value, effect) for every valid taint.
 */
export function printTaintSpec(taint: Pick<Taint, 'key' | 'value' | 'effect'>): string {
  return taint.value ? `${taint.key}=${taint.value}:${taint.effect}` : `${taint.key}:${taint.effect}`;
}

/** The spec that removes it: `key:effect-`, or `key-` for every effect. */
export function printTaintRemovalSpec(removal: TaintRemoval): string {
  return removal.effect ? `${removal.key}:${removal.effect}-` : `${removal.key}-`;
}
