/**
 * Structural readers for decoded Kubernetes objects: each takes a value and its field path, returns
 * the typed value, and records a problem (worded like the API server's decoding errors) when the
 * type is wrong. `null` reads as absent, as Go's JSON decoding does.
 */

export type Obj = Record<string, unknown>;

export interface FieldProblem {
  field: string;
  message: string;
}

export class Problems {
  readonly list: FieldProblem[] = [];
  add(field: string, message: string): void {
    this.list.push({ field, message });
  }
  get empty(): boolean {
    return this.list.length === 0;
  }
}

export function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `an object`, `a string "x"`, `a number 5`: for messages. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return `a timestamp ${value.toISOString()}`;
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return `a string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case 'number':
    case 'boolean':
      return `a ${typeof value} ${String(value)}`;
    default:
      return typeof value;
  }
}

function wrongType(p: Problems, field: string, expected: string, value: unknown): undefined {
  p.add(field, `expected ${expected}, got ${describeValue(value)}`);
  return undefined;
}

export function optObject(value: unknown, field: string, p: Problems): Obj | undefined {
  if (value === undefined || value === null) return undefined;
  return isObject(value) ? value : wrongType(p, field, 'an object', value);
}

export function optArray(value: unknown, field: string, p: Problems): unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? value : wrongType(p, field, 'an array', value);
}

export function optString(value: unknown, field: string, p: Problems): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : wrongType(p, field, 'a string', value);
}

export function optBoolean(value: unknown, field: string, p: Problems): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'boolean' ? value : wrongType(p, field, 'a boolean', value);
}

/** An integer that fits int64 as a JavaScript number can hold it exactly (or is at least an integer). */
export function optInteger(value: unknown, field: string, p: Problems): number | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'number' && Number.isInteger(value) ? value : wrongType(p, field, 'an integer', value);
}

/** A required non-empty string (`metadata.name`, a taint's key...). */
export function requiredString(value: unknown, field: string, p: Problems): string | undefined {
  if (value === undefined || value === null || value === '') {
    p.add(field, 'Required value');
    return undefined;
  }
  return optString(value, field, p);
}

/** A map of strings to strings (labels, nodeSelector); absent → `{}`. */
export function stringMap(value: unknown, field: string, p: Problems): Record<string, string> {
  const obj = optObject(value, field, p);
  const out: Record<string, string> = {};
  if (!obj) return out;
  for (const [key, entry] of Object.entries(obj)) {
    if (key === '__proto__') p.add(`${field}[${JSON.stringify(key)}]`, 'Invalid value: not a valid key');
    else if (typeof entry === 'string') out[key] = entry;
    else wrongType(p, `${field}[${JSON.stringify(key)}]`, 'a string', entry);
  }
  return out;
}

/**
 * A resource list (`allocatable`, `requests`): quantities as strings. Numbers are accepted and kept as
 * their decimal text, since a Kubernetes Quantity also unmarshals from a JSON number.
 */
export function quantityMap(value: unknown, field: string, p: Problems): Record<string, string> | undefined {
  const obj = optObject(value, field, p);
  if (!obj) return undefined;
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(obj)) {
    if (key === '__proto__') p.add(`${field}[${JSON.stringify(key)}]`, 'Invalid value: not a valid resource name');
    else if (typeof entry === 'string') out[key] = entry;
    else if (typeof entry === 'number' && Number.isFinite(entry)) out[key] = String(entry);
    else wrongType(p, `${field}[${JSON.stringify(key)}]`, 'a quantity string', entry);
  }
  return out;
}

/** RFC 3339 as Kubernetes' metav1.Time marshals and accepts it. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 time; absent, null and `""` read as undefined. */
export function optTime(value: unknown, field: string, p: Problems): Date | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? wrongType(p, field, 'an RFC 3339 time', value) : value;
  if (typeof value !== 'string') return wrongType(p, field, 'an RFC 3339 time string', value);
  const time = RFC3339.test(value) ? new Date(value) : undefined;
  if (!time || Number.isNaN(time.getTime())) {
    p.add(field, `expected an RFC 3339 time such as "2024-05-01T12:00:00Z", got ${describeValue(value)}`);
    return undefined;
  }
  return time;
}
