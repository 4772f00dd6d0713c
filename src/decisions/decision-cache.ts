import { FNV_PRIME, fnv1a } from '../kernel/cache/fnv1a';

/**
 * JSON with object keys sorted at every level (arrays keep their order), undefined properties left
 * out as JSON.stringify does: equal for two values that differ only in key order, as request bodies
 * that mean the same do.
 * @example canonicalJson({ b: 1, a: [{ y: 2, x: undefined }] }) === '{"a":[{"y":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, Infinity)!;
}

/**
 * canonicalJson of an unvalidated body, or undefined when it nests deeper than `maxDepth` (a hostile body of
 * thousands of nested arrays must be refused by validation, not overflow the stack computing a cache key).
 */
export function canonicalJsonWithin(value: unknown, maxDepth: number): string | undefined {
  return canonical(value, maxDepth);
}

/**
 * A 32-bit hash equal for any two values `canonicalJson` makes equal (object entries are summed, so key order
 * does not count), computed without building the text: what a cache asks first, so a question never seen
 * before costs no canonical key. Different values may share a hash; only the canonical text tells them apart.
 */
export function canonicalHash(value: unknown): number {
  if (value === null || typeof value !== 'object') return fnv1a(JSON.stringify(value) ?? 'null');
  if (Array.isArray(value)) {
    let h = 0x2f1c3a5b;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      h = Math.imul(
        h ^ (item === undefined || typeof item === 'function' ? NULL_HASH : canonicalHash(item)),
        FNV_PRIME,
      );
    }
    return Math.imul(h ^ value.length, FNV_PRIME) >>> 0;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return canonicalHash((value as { toJSON(): unknown }).toJSON());
  const record = value as Record<string, unknown>;
  let sum = 0x6b43a9b5;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const item = record[key];
    if (item === undefined || typeof item === 'function') continue;
    sum = (sum + Math.imul(fnv1a(key) ^ Math.imul(canonicalHash(item), 0x85ebca6b), 0xc2b2ae35)) | 0;
  }
  return sum >>> 0;
}

const NULL_HASH = fnv1a('null');

function canonical(value: unknown, depthLeft: number): string | undefined {
  if (depthLeft < 0) return undefined;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item = value[i];
      const text = item === undefined || typeof item === 'function' ? 'null' : canonical(item, depthLeft - 1);
      if (text === undefined) return undefined;
      out += text;
    }
    return `${out}]`;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return canonical((value as { toJSON(): unknown }).toJSON(), depthLeft);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined || typeof item === 'function') continue;
    if (!first) out += ',';
    first = false;
    const text = canonical(item, depthLeft - 1);
    if (text === undefined) return undefined;
    out += `${JSON.stringify(key)}:${text}`;
  }
  return `${out}}`;
}
