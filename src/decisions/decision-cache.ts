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
