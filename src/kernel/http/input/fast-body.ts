import type { PodSpecBody } from './body-schemas';

/**
 * A hand-compiled fast path for the hot request bodies (a feasible-nodes question's inline pod), in front
 * of the zod schemas of body-schemas.ts, which stay the definition and the only source of errors.
 *
 * Each reader returns what zod's `parse` would return for the value — new objects with the schema's
 * keys in the schema's order, records in the input's order, quantities as strings — or FALLBACK when it
 * is not certain the value is valid: the caller then runs the zod schema, which answers the same
 * value or the 400 with its field paths. A reader may refuse more than zod does (a string longer than
 * its limit in UTF-16 units, a property set to `undefined`, a record key `__proto__`, an object with
 * another prototype); it must never accept what zod refuses, nor return anything zod would not
 * (fast-body.spec.ts compares the two over valid and broken bodies). zod's checks cost ~6 % of a
 * distinct feasible-nodes request's CPU (bench/ANALYSIS.md); these plain loops about a tenth of that.
 */
export const FALLBACK: unique symbol = Symbol('fallback to the schema');
export type Fast<T> = T | typeof FALLBACK;

const MAX_ITEMS = 1000;
const MAX_STRING = 4096;

type Json = Record<string, unknown>;

/** A plain object (as JSON.parse or an object literal makes it), or undefined. */
export function plainObject(value: unknown): Json | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null ? (value as Json) : undefined;
}

/** Every own key is one of `allowed` and none holds `undefined` (zod would keep such a key: not worth mirroring). */
export function onlyKeys(object: Json, allowed: ReadonlySet<string>): boolean {
  for (const key in object) {
    if (!allowed.has(key) || object[key] === undefined) return false;
  }
  return true;
}

export const isString = (value: unknown, max: number = MAX_STRING): value is string =>
  typeof value === 'string' && value.length <= max;

const isSafeIntegerIn = (value: unknown, min: number, max: number): value is number =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

/** z.array(item).max(max). */
export function readArray<T>(value: unknown, max: number, item: (v: unknown) => Fast<T>): Fast<T[]> {
  if (!Array.isArray(value) || value.length > max) return FALLBACK;
  const out: T[] = new Array<T>(value.length);
  for (let i = 0; i < value.length; i++) {
    const read = item(value[i]);
    if (read === FALLBACK) return FALLBACK;
    out[i] = read;
  }
  return out;
}

/** z.record(z.string().max(keyMax), value) with at most `maxEntries` keys (the schemas' refine). */
function readRecord<T>(
  value: unknown,
  keyMax: number,
  maxEntries: number,
  item: (v: unknown) => Fast<T>,
): Fast<Record<string, T>> {
  const object = plainObject(value);
  if (object === undefined) return FALLBACK;
  const out: Record<string, T> = {};
  let entries = 0;
  for (const key in object) {
    if (++entries > maxEntries || key.length > keyMax || key === '__proto__') return FALLBACK;
    const read = item(object[key]);
    if (read === FALLBACK) return FALLBACK;
    out[key] = read;
  }
  return out;
}

const readString = (value: unknown): Fast<string> => (isString(value) ? value : FALLBACK);

/** `stringMap`: string keys and values, at most 1,000 entries. */
export const readStringMap = (value: unknown): Fast<Record<string, string>> =>
  readRecord(value, MAX_STRING, MAX_ITEMS, readString);

/** `quantity`: a string, or a finite number, as a string. */
const readQuantity = (value: unknown): Fast<string> =>
  isString(value) ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : FALLBACK;

/** `resourceList`: names of at most 253 characters, at most 64 of them. */
const readResourceList = (value: unknown): Fast<Record<string, string>> => readRecord(value, 253, 64, readQuantity);

const TOLERATION_KEYS = new Set(['key', 'operator', 'value', 'effect', 'tolerationSeconds']);

/** `tolerationSchema`. */
export function readToleration(value: unknown): Fast<Json> {
  const t = plainObject(value);
  if (t === undefined || !onlyKeys(t, TOLERATION_KEYS)) return FALLBACK;
  const out: Json = {};
  for (const key of ['key', 'operator', 'value', 'effect'] as const) {
    if (key in t) {
      if (!isString(t[key])) return FALLBACK;
      out[key] = t[key];
    }
  }
  if ('tolerationSeconds' in t) {
    const s = t.tolerationSeconds;
    if (s !== null && !isSafeIntegerIn(s, -(2 ** 53), 2 ** 53)) return FALLBACK;
    out.tolerationSeconds = s;
  }
  return out;
}

const REQUIREMENT_KEYS = new Set(['key', 'operator', 'values']);
const TERM_KEYS = new Set(['matchExpressions', 'matchFields']);

function readRequirement(value: unknown): Fast<Json> {
  const r = plainObject(value);
  if (r === undefined || !onlyKeys(r, REQUIREMENT_KEYS) || !isString(r.key) || !isString(r.operator)) return FALLBACK;
  const out: Json = { key: r.key, operator: r.operator };
  if ('values' in r) {
    const values = readArray(r.values, MAX_ITEMS, readString);
    if (values === FALLBACK) return FALLBACK;
    out.values = values;
  }
  return out;
}

function readTerm(value: unknown): Fast<Json> {
  const term = plainObject(value);
  if (term === undefined || !onlyKeys(term, TERM_KEYS)) return FALLBACK;
  const out: Json = {};
  for (const key of ['matchExpressions', 'matchFields'] as const) {
    if (key in term) {
      const requirements = readArray(term[key], 100, readRequirement);
      if (requirements === FALLBACK) return FALLBACK;
      out[key] = requirements;
    }
  }
  return out;
}

const PREFERRED_KEYS = new Set(['weight', 'preference']);

function readPreferred(value: unknown): Fast<Json> {
  const p = plainObject(value);
  if (p === undefined || !onlyKeys(p, PREFERRED_KEYS) || !Number.isSafeInteger(p.weight)) return FALLBACK;
  const preference = readTerm(p.preference);
  return preference === FALLBACK ? FALLBACK : { weight: p.weight, preference };
}

const AFFINITY_KEYS = new Set(['nodeAffinity']);
const NODE_AFFINITY_KEYS = new Set([
  'requiredDuringSchedulingIgnoredDuringExecution',
  'preferredDuringSchedulingIgnoredDuringExecution',
]);
const SELECTOR_KEYS = new Set(['nodeSelectorTerms']);

/** `affinitySchema` (null handled by the caller). */
function readAffinity(value: unknown): Fast<Json> {
  const a = plainObject(value);
  if (a === undefined || !onlyKeys(a, AFFINITY_KEYS)) return FALLBACK;
  if (!('nodeAffinity' in a)) return {};
  if (a.nodeAffinity === null) return { nodeAffinity: null };
  const na = plainObject(a.nodeAffinity);
  if (na === undefined || !onlyKeys(na, NODE_AFFINITY_KEYS)) return FALLBACK;
  const out: Json = {};
  if ('requiredDuringSchedulingIgnoredDuringExecution' in na) {
    const required = na.requiredDuringSchedulingIgnoredDuringExecution;
    if (required === null) out.requiredDuringSchedulingIgnoredDuringExecution = null;
    else {
      const selector = plainObject(required);
      if (selector === undefined || !onlyKeys(selector, SELECTOR_KEYS)) return FALLBACK;
      const terms = readArray(selector.nodeSelectorTerms, 100, readTerm);
      if (terms === FALLBACK) return FALLBACK;
      out.requiredDuringSchedulingIgnoredDuringExecution = { nodeSelectorTerms: terms };
    }
  }
  if ('preferredDuringSchedulingIgnoredDuringExecution' in na) {
    const preferred = na.preferredDuringSchedulingIgnoredDuringExecution;
    if (preferred === null) out.preferredDuringSchedulingIgnoredDuringExecution = null;
    else {
      const terms = readArray(preferred, 100, readPreferred);
      if (terms === FALLBACK) return FALLBACK;
      out.preferredDuringSchedulingIgnoredDuringExecution = terms;
    }
  }
  return { nodeAffinity: out };
}

const RESOURCES_KEYS = new Set(['requests', 'limits']);
const OWNER_KEYS = new Set(['kind', 'name']);
const POD_SPEC_KEYS = new Set([
  'tolerations',
  'nodeSelector',
  'affinity',
  'resources',
  'priority',
  'owner',
  'hostNetwork',
]);

/** `podSpecSchema`. */
export function readPodSpec(value: unknown): Fast<PodSpecBody> {
  const pod = plainObject(value);
  if (pod === undefined || !onlyKeys(pod, POD_SPEC_KEYS)) return FALLBACK;
  const out: Json = {};
  if ('tolerations' in pod) {
    const tolerations = readArray(pod.tolerations, MAX_ITEMS, readToleration);
    if (tolerations === FALLBACK) return FALLBACK;
    out.tolerations = tolerations;
  }
  if ('nodeSelector' in pod) {
    const selector = readStringMap(pod.nodeSelector);
    if (selector === FALLBACK) return FALLBACK;
    out.nodeSelector = selector;
  }
  if ('affinity' in pod) {
    const affinity = pod.affinity === null ? null : readAffinity(pod.affinity);
    if (affinity === FALLBACK) return FALLBACK;
    out.affinity = affinity;
  }
  if ('resources' in pod) {
    if (pod.resources === null) out.resources = null;
    else {
      const resources = plainObject(pod.resources);
      if (resources === undefined || !onlyKeys(resources, RESOURCES_KEYS)) return FALLBACK;
      const r: Json = {};
      for (const key of ['requests', 'limits'] as const) {
        if (key in resources) {
          const list = readResourceList(resources[key]);
          if (list === FALLBACK) return FALLBACK;
          r[key] = list;
        }
      }
      out.resources = r;
    }
  }
  if ('priority' in pod) {
    if (!isSafeIntegerIn(pod.priority, -(2 ** 31), 2 ** 31 - 1)) return FALLBACK;
    out.priority = pod.priority;
  }
  if ('owner' in pod) {
    if (pod.owner === null) out.owner = null;
    else {
      const owner = plainObject(pod.owner);
      if (owner === undefined || !onlyKeys(owner, OWNER_KEYS) || !isString(owner.kind) || !isString(owner.name))
        return FALLBACK;
      out.owner = { kind: owner.kind, name: owner.name };
    }
  }
  if ('hostNetwork' in pod) {
    if (typeof pod.hostNetwork !== 'boolean') return FALLBACK;
    out.hostNetwork = pod.hostNetwork;
  }
  return out as PodSpecBody;
}
