import type { FieldError } from '../types';

/**
 * Field errors worded exactly as k8s.io/apimachinery/pkg/util/validation/field/errors.go words them
 * (SEMANTICS B.2): `<Type>: <badValue>: <detail>`. The path is kept apart in `FieldError.field`;
 * `formatFieldError` and `formatInvalidObject` join them the way the API server does.
 */

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const GO_PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const GO_SHORT_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/**
 * A string quoted as Go's `strconv.Quote` / `%q` does: printable Unicode kept as is, `\a \b \f \n \r \t \v`,
 * other control bytes as `\xNN`, other non-printable runes as `\uNNNN` / `\UNNNNNNNN`. Upstream messages
 * (`Invalid value: "abc"`, `strconv.ParseInt: parsing "abc"`, `taint "k:NoSchedule" not found`) all use it.
 * A lone UTF-16 surrogate (which Go could never hold) is shown as U+FFFD, as a JSON decoder would make it.
 * @example goQuote('a"b\n') === '"a\\"b\\n"'
 */
export function goQuote(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    const short = GO_SHORT_ESCAPES[char];
    if (short) out += short;
    else if (code >= 0xd800 && code <= 0xdfff) out += '\ufffd';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (GO_PRINTABLE.test(char)) out += char;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** Go's `json.Marshal` escapes `<`, `>`, `&`, U+2028 and U+2029 (HTML-safe); JSON.stringify does not. */
function goJson(value: unknown): string {
  const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  if (json === undefined) return 'null';
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Dates render as metav1.Time does (RFC 3339, second precision); other values untouched. */
function withRfc3339Dates(value: unknown): unknown {
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? null : value.toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (Array.isArray(value)) return value.map(withRfc3339Dates);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withRfc3339Dates(v)]));
  }
  return value;
}

/**
 * The bad value as `ErrorBody` renders it: strings with `%q`, numbers and booleans with `%v`, anything
 * else through `json.Marshal` (so a taint reads `{"key":"k","value":"v","effect":"NoSchedule"}`; build
 * the object with the fields in Kubernetes' order). null/undefined render as `null`.
 */
export function renderBadValue(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return 'null';
  try {
    return goJson(withRfc3339Dates(value));
  } catch {
    return String(value); // cycles: the API never sends them, but a message must never throw
  }
}

function withDetail(body: string, detail: string): string {
  return detail.length > 0 ? `${body}: ${detail}` : body;
}

/** `Invalid value: "abc": <detail>` (`field.Invalid`). */
export function invalid(field: string, badValue: unknown, detail: string): FieldError {
  return { field, type: 'Invalid value', message: withDetail(`Invalid value: ${renderBadValue(badValue)}`, detail) };
}

/**
 * `Unsupported value: "Foo": supported values: "Equal", "Exists"` (`field.NotSupported`). The valid
 * values keep the caller's order: upstream quotes them as given and does not sort (B.2, B.8.9).
 */
export function notSupported(field: string, badValue: unknown, validValues: readonly string[]): FieldError {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map(goQuote).join(', ')}` : '';
  return {
    field,
    type: 'Unsupported value',
    message: withDetail(`Unsupported value: ${renderBadValue(badValue)}`, detail),
  };
}

/** `Required value` (+ `: detail`) — upstream never prints the (empty) bad value here. */
export function required(field: string, detail = ''): FieldError {
  return { field, type: 'Required value', message: withDetail('Required value', detail) };
}

/** `Duplicate value: <badValue>` (+ `: detail`); upstream sets the detail afterwards, e.g. for node taints (B.2.2). */
export function duplicate(field: string, badValue: unknown, detail = ''): FieldError {
  return {
    field,
    type: 'Duplicate value',
    message: withDetail(`Duplicate value: ${renderBadValue(badValue)}`, detail),
  };
}

/** `Forbidden: <detail>` (`field.Forbidden`). */
export function forbidden(field: string, detail: string): FieldError {
  return { field, type: 'Forbidden', message: withDetail('Forbidden', detail) };
}

/** `<path>: <message>`, as `field.Error.Error()`. */
export function formatFieldError(error: FieldError): string {
  return `${error.field}: ${error.message}`;
}

/**
 * The API server's 422 message (`errors.NewInvalid`): `Node "n1" is invalid: taints[0].effect: ...`.
 * Several errors are aggregated as `utilerrors.Aggregate` prints them: identical messages once, and
 * `[a, b]` only when more than one distinct message remains.
 * @example formatInvalidObject('Pod', 'x', [e1, e2]) === 'Pod "x" is invalid: [tolerations[0].operator: ...,
 * tolerations[1].effect: ...]'
 */
export function formatInvalidObject(kind: string, name: string, errors: readonly FieldError[]): string {
  const head = `${kind} ${goQuote(name)} is invalid`;
  const aggregate = aggregateMessages(errors.map(formatFieldError));
  return aggregate === '' ? head : `${head}: ${aggregate}`;
}

/** `utilerrors.NewAggregate(errs).Error()`: one message as is, several de-duplicated inside `[...]`. */
export function aggregateMessages(messages: readonly string[]): string {
  if (messages.length === 1) return messages[0];
  const distinct = [...new Set(messages)];
  return distinct.length === 1 ? distinct[0] : distinct.length === 0 ? '' : `[${distinct.join(', ')}]`;
}
