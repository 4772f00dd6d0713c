import { goQuote } from './field-errors';

const UINT64_MAX = 2n ** 64n - 1n;
const INT64_CUTOFF = 2n ** 63n;

/**
 * The error text of Go's `strconv.ParseInt(value, 10, 64)`, or undefined when it parses. Validation of
 * Gt/Lt toleration values surfaces this text verbatim (SEMANTICS B.2.1), so its quirks matter:
 * a leading `+`/`-` and leading zeros are accepted (`"0100"`, `"+5"`, `"-0"` parse), and the digits are
 * scanned left to right with the overflow check inside the loop, so `"99999999999999999999x"` is
 * "value out of range", not "invalid syntax".
 * @example goParseInt64Error('abc') === 'strconv.ParseInt: parsing "abc": invalid syntax'
 */
export function goParseInt64Error(value: string): string | undefined {
  const syntax = `strconv.ParseInt: parsing ${goQuote(value)}: invalid syntax`;
  const range = `strconv.ParseInt: parsing ${goQuote(value)}: value out of range`;
  if (value.length === 0) return syntax;
  let digits = value;
  let negative = false;
  if (digits[0] === '+' || digits[0] === '-') {
    negative = digits[0] === '-';
    digits = digits.slice(1);
  }
  if (digits.length === 0) return syntax;
  let n = 0n;
  for (const char of digits) {
    if (char < '0' || char > '9') return syntax;
    n = n * 10n + BigInt(char.charCodeAt(0) - 48);
    if (n > UINT64_MAX) return range; // ParseUint stops here, before looking at later characters
  }
  if (negative ? n > INT64_CUTOFF : n >= INT64_CUTOFF) return range;
  return undefined;
}
