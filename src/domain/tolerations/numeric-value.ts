/**
 * Canonical decimal integers, as apimachinery `content.IsDecimalInteger` accepts them (SEMANTICS B.1.1 step 4):
 * `"0"`, or an optional `-` then a digit 1-9 then digits. No `+`, no leading zeros, no `-0`, no spaces.
 */
const CANONICAL_DECIMAL = /^(0|-?[1-9][0-9]*)$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function isCanonicalDecimalInteger(value: string): boolean {
  return CANONICAL_DECIMAL.test(value);
}

/**
 * The value as an int64, or undefined when it is not canonical or does not fit int64
 * (`strconv.ParseInt(v, 10, 64)` fails): such values never match Gt/Lt (B.8.2, B.8.3).
 * @example parseCanonicalInt64("950") === 950n; parseCanonicalInt64("0100") === undefined
 */
export function parseCanonicalInt64(value: string): bigint | undefined {
  if (!isCanonicalDecimalInteger(value)) return undefined;
  const n = BigInt(value);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}
