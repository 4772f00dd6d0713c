/**
 * A small least-recently-used map: `get` refreshes an entry, `set` evicts the oldest entries beyond
 * `maxEntries` or beyond `maxWeight` (the sum of `weigh` over the entries; e.g. answer sizes, so a
 * few 5,000-node answers cannot hold hundreds of megabytes).
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private totalWeight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Infinity,
    private readonly weigh: (value: V) => number = () => 1,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.totalWeight += weight;
    while (this.entries.size > this.maxEntries || this.totalWeight > this.maxWeight) this.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
    this.totalWeight = 0;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
  }
}

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
