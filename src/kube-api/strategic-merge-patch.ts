/**
 * Strategic merge patch (Content-Type application/strategic-merge-patch+json), written by hand because no
 * maintained npm library implements it; only the subset the core/v1 Node and Pod need. Rules ported from
 * apimachinery pkg/util/strategicpatch/patch.go (mergeMap, mergeSlice, directives) with the merge keys
 * of k8s.io/api core/v1 types.go (`patchStrategy:"merge" patchMergeKey:...` tags):
 *   - maps merge key by key; a `null` value deletes the key;
 *   - a list with a merge key merges element by element on that key; every other list is replaced whole
 *     (Node `spec.taints` and Pod `spec.tolerations` carry no patch strategy, so `kubectl taint` replaces them);
 *   - `$patch: replace` replaces a map, `$patch: delete` deletes a map or a keyed list element,
 *     `$retainKeys` keeps only the listed keys, `$setElementOrder/<list>` orders a merged list,
 *     `$deleteFromPrimitiveList/<list>` removes values from a merged primitive list (finalizers).
 * Anything else starting with `$` is refused, so a patch is never half understood.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Lists merged by key (core/v1 types.go); the path uses `[]` for "each element of". */
const MERGE_KEYS: Record<string, string> = {
  'metadata.ownerReferences': 'uid',
  'status.conditions': 'type',
  'status.addresses': 'type',
  'status.images': '',
  'spec.containers': 'name',
  'spec.initContainers': 'name',
  'spec.ephemeralContainers': 'name',
  'spec.volumes': 'name',
  'spec.imagePullSecrets': 'name',
  'spec.containers[].ports': 'containerPort',
  'spec.containers[].env': 'name',
  'spec.containers[].volumeMounts': 'mountPath',
  'spec.initContainers[].env': 'name',
  'spec.initContainers[].volumeMounts': 'mountPath',
};

/** Primitive lists with `patchStrategy:"merge"`: elements are added, never replaced. */
const MERGED_PRIMITIVE_LISTS = new Set(['metadata.finalizers']);

export class StrategicMergePatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StrategicMergePatchError';
  }
}

export function applyStrategicMergePatch(original: JsonObject, patch: unknown): JsonObject {
  if (!isObject(patch)) throw new StrategicMergePatchError('a strategic merge patch must be a JSON object');
  return mergeMap(structuredClone(original), patch as JsonObject, '') ?? {};
}

function mergeMap(original: JsonObject, patch: JsonObject, path: string): JsonObject | null {
  const directive = patch.$patch;
  if (directive === 'delete') return null;
  if (directive === 'replace') {
    const { $patch: _ignored, ...rest } = patch;
    return stripDirectives(rest) as JsonObject;
  }
  if (directive !== undefined && directive !== 'merge') {
    throw new StrategicMergePatchError(`unknown patch type: ${JSON.stringify(directive)} in map`);
  }
  const result: JsonObject = { ...original };
  const retain = patch.$retainKeys;
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys' || key.startsWith('$setElementOrder/')) continue;
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length);
      if (!Array.isArray(value)) throw new StrategicMergePatchError(`${key} must be a list`);
      const current = result[field];
      if (Array.isArray(current)) result[field] = current.filter((v) => !value.some((d) => same(d, v)));
      continue;
    }
    if (key.startsWith('$')) throw new StrategicMergePatchError(`unknown directive ${JSON.stringify(key)}`);
    const at = path ? `${path}.${key}` : key;
    if (value === null) {
      delete result[key];
    } else if (isObject(value)) {
      const merged = mergeMap(isObject(result[key]) ? (result[key] as JsonObject) : {}, value as JsonObject, at);
      if (merged === null) delete result[key];
      else result[key] = merged;
    } else if (Array.isArray(value)) {
      result[key] = mergeList(Array.isArray(result[key]) ? (result[key] as Json[]) : [], value, at);
      const order = patch[`$setElementOrder/${key}`];
      if (Array.isArray(order)) result[key] = orderBy(result[key] as Json[], order, MERGE_KEYS[at]);
    } else {
      result[key] = value;
    }
  }
  if (retain !== undefined) {
    if (!Array.isArray(retain)) throw new StrategicMergePatchError('$retainKeys must be a list');
    for (const key of Object.keys(result)) if (!retain.includes(key)) delete result[key];
  }
  return result;
}

function mergeList(original: Json[], patch: Json[], path: string): Json[] {
  const key = MERGE_KEYS[path];
  if (MERGED_PRIMITIVE_LISTS.has(path)) {
    const out = [...original];
    for (const v of patch) if (!out.some((o) => same(o, v))) out.push(v);
    return out;
  }
  if (!key) {
    if (patch.some((e) => isObject(e) && '$patch' in e)) {
      const replace = patch.find((e) => isObject(e) && (e as JsonObject).$patch === 'replace');
      if (replace) return patch.filter((e) => e !== replace).map(stripDirectives);
      throw new StrategicMergePatchError(`a $patch directive needs a merge key in the list at ${path}`);
    }
    return patch.map(stripDirectives);
  }
  if (patch.some((e) => isObject(e) && (e as JsonObject).$patch === 'replace')) {
    return patch.filter((e) => !(isObject(e) && (e as JsonObject).$patch === 'replace')).map(stripDirectives);
  }
  const out = [...original];
  const elementPath = `${path}[]`;
  for (const element of patch) {
    if (!isObject(element)) throw new StrategicMergePatchError(`the list at ${path} holds objects merged on ${key}`);
    const e = element as JsonObject;
    if (!(key in e))
      throw new StrategicMergePatchError(`map: ${JSON.stringify(e)} does not contain declared merge key: ${key}`);
    const index = out.findIndex((o) => isObject(o) && same((o as JsonObject)[key], e[key]));
    if (e.$patch === 'delete') {
      if (index >= 0) out.splice(index, 1);
      continue;
    }
    if (index >= 0) {
      const merged = mergeMap(out[index] as JsonObject, e, elementPath);
      if (merged === null) out.splice(index, 1);
      else out[index] = merged;
    } else {
      out.push(mergeMap({}, e, elementPath) ?? {});
    }
  }
  return out;
}

/** `$setElementOrder`: elements named in the order list come first in that order, the rest keep theirs. */
function orderBy(list: Json[], order: Json[], key: string | undefined): Json[] {
  const keyOf = (e: Json): Json => (key && isObject(e) ? (e as JsonObject)[key] : e);
  const wanted = order.map((o) => (key && isObject(o) ? (o as JsonObject)[key] : o));
  const named = wanted.flatMap((w) => list.filter((e) => same(keyOf(e), w)));
  return [...named, ...list.filter((e) => !named.includes(e))];
}

function stripDirectives(value: Json): Json {
  if (Array.isArray(value)) return value.map(stripDirectives);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value as JsonObject)
      .filter(([k]) => !k.startsWith('$'))
      .map(([k, v]) => [k, stripDirectives(v)]),
  );
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
