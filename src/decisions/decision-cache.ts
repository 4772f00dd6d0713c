/**
 * JSON with object keys sorted at every level (arrays keep their order), undefined properties left
 * out as JSON.stringify does: equal for two values that differ only in key order, as request bodies
 * that mean the same do.
 * @example canonicalJson({ b: 1, a: [{ y: 2, x: undefined }] }) === '{"a":[{"y":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item = value[i];
      out += item === undefined || typeof item === 'function' ? 'null' : canonicalJson(item);
    }
    return `${out}]`;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonicalJson((value as { toJSON(): unknown }).toJSON());
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined || typeof item === 'function') continue;
    if (!first) out += ',';
    first = false;
    out += `${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}
