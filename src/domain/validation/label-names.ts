import type { FieldError } from '../types';
import { invalid } from './field-errors';

/**
 * Label keys and values as k8s.io/apimachinery checks them, with the exact message texts, since they reach
 * users through validation errors (B.2.1, B.2.2) and kubectl's `invalid taint spec: ...` (B.3.2).
 * Upstream moved these checks to `pkg/api/validate/content` (kube.go `IsLabelKey`, `IsLabelValue`; dns.go
 * `IsDNS1123Subdomain`; errors.go `MaxLenError`, commit eed236ce, 2026-07-23): lengths are counted in bytes
 * and now say so; `pkg/util/validation` keeps "characters" for object names (docs/SEMANTICS.md B.2.1).
 */

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_ERR =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX = 63;
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MAX = 63;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MAX = 253;
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

/**
 * The length of `value` encoded as UTF-8 (TextEncoder's: a lone surrogate becomes U+FFFD, 3 bytes), counted
 * without encoding: TextEncoder.encode allocated a buffer per label key and value checked (~3 % of a
 * feasible-nodes request's CPU, bench/ANALYSIS.md).
 */
export function utf8ByteLength(value: string): number {
  let bytes = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
const byteLength = utf8ByteLength;

/** `EmptyError()` */
export const EMPTY_ERROR = 'must be non-empty';

/** `content.MaxLenError(n)`: label keys, label values and their DNS-subdomain prefixes. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} bytes`;
}

/** `validation.MaxLenError(n)` (pkg/util/validation): object names and namespaces still say "characters". */
export function maxLenCharactersError(length: number): string {
  return `must be no more than ${length} characters`;
}

/**
 * `RegexError(msg, fmt, examples...)`. The doubled space in `'MyName',  or 'my.name'` is upstream's:
 * each example is followed by `", "` and the next one is preceded by `" or "`.
 */
export function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  const listed = examples.map((example) => `'${example}', `).join(' or ');
  return `${message} (e.g. ${listed}regex used for validation is '${format}')`;
}

/** The shape of a lowercase RFC 1123 subdomain, length aside (`dns1123SubdomainRegexp`). */
export function matchesDns1123Subdomain(value: string): boolean {
  return DNS1123_SUBDOMAIN_RE.test(value);
}

/**
 * `IsDNS1123Subdomain`: at most 253 bytes, lowercase RFC 1123 labels separated by dots. The length message
 * is content's ("bytes") for label-key prefixes; object names pass util/validation's ("characters").
 */
export function isDns1123Subdomain(value: string, lengthError: (max: number) => string = maxLenError): string[] {
  const errors: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX) errors.push(lengthError(DNS1123_SUBDOMAIN_MAX));
  if (!DNS1123_SUBDOMAIN_RE.test(value))
    errors.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errors;
}

/**
 * `IsLabelKey` (formerly `IsQualifiedName`): an optional DNS-1123 subdomain prefix and `/`, then a name of
 * at most 63 bytes.
 * Empty list = valid. More than one `/` is a single error about the whole value.
 * @example isQualifiedName('example.com/my-key') => []; isQualifiedName('') => ['name part must be non-empty', 'name
 * part must consist of ...']
 */
export function isQualifiedName(value: string): string[] {
  const errors: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errors.push(`prefix part ${EMPTY_ERROR}`);
    else errors.push(...isDns1123Subdomain(prefix).map((message) => `prefix part ${message}`));
  } else {
    return [
      `a valid label key ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errors.push(`name part ${EMPTY_ERROR}`);
  else if (byteLength(name) > QUALIFIED_NAME_MAX) errors.push(`name part ${maxLenError(QUALIFIED_NAME_MAX)}`);
  if (!QUALIFIED_NAME_RE.test(name)) {
    errors.push(`name part ${regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errors;
}

/**
 * `IsLabelValue` (formerly `IsValidLabelValue`): empty, or at most 63 bytes of alphanumerics, `-`, `_`, `.`, starting
 * and
 * ending with an alphanumeric.
 */
export function isValidLabelValue(value: string): string[] {
  const errors: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX) errors.push(maxLenError(LABEL_VALUE_MAX));
  if (!LABEL_VALUE_RE.test(value))
    errors.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errors;
}

/** `ValidateLabelName` (apimachinery metav1 validation): one `Invalid value` per `IsQualifiedName` message. */
export function validateLabelName(value: string, field: string): FieldError[] {
  return isQualifiedName(value).map((message) => invalid(field, value, message));
}
