import type { ResourceList, ResourceVector } from '../types';

/**
 * Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource/quantity.go), reduced to what
 * taintwise needs: parse a quantity string, and convert resource lists to integer vectors in the units
 * the scheduler compares (cpu in millicores, everything else in base units), rounding UP exactly as
 * `Quantity.MilliValue()` / `Quantity.Value()` do (they return ceil(q / 10^scale)).
 *
 * Parsing is done on exact decimals (bigint mantissa, power of ten, power of two) so that `0.1` cpu is
 * 100 millicores, not 101 after a float round-trip.
 */

/** An exact quantity: (negative ? -1 : 1) × mantissa × 10^exp10 × 2^exp2 (exp2 ≥ 0). */
interface ExactQuantity {
  negative: boolean;
  mantissa: bigint;
  exp10: number;
  exp2: number;
}

/** Decimal SI suffixes (quantity.go `decimalSuffixes`); `""` is the bare number. */
const DECIMAL_SUFFIX_EXPONENTS: Readonly<Record<string, number>> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
/** Binary SI suffixes (quantity.go `binarySuffixes`), as powers of two. */
const BINARY_SUFFIX_EXPONENTS: Readonly<Record<string, number>> = {
  Ki: 10,
  Mi: 20,
  Gi: 30,
  Ti: 40,
  Pi: 50,
  Ei: 60,
};

/**
 * The grammar of `parseQuantityString`: optional sign, digits with an optional fraction (at least one
 * digit overall), then a suffix made of the letters `eEinumkKMGTP`, optionally followed by a signed
 * integer (only meaningful for the exponent form `e3`, `E-2`, `e+3`).
 */
const QUANTITY = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*(?:[+-]?[0-9]+)?)$/;
const EXPONENT_SUFFIX = /^[eE]([+-]?[0-9]+)$/;
/** Keeps 10^n of absurd exponents (`1e999999`) from building gigantic bigints; such values are rejected. */
const MAX_ABS_EXPONENT = 400;

function parseExactQuantity(text: string): ExactQuantity | undefined {
  const parts = QUANTITY.exec(text);
  if (!parts) return undefined;
  const [, sign, whole, fraction = '', suffix] = parts;
  if (whole.length + fraction.length === 0) return undefined;
  let exp10 = -fraction.length;
  let exp2 = 0;
  const decimal = DECIMAL_SUFFIX_EXPONENTS[suffix];
  const binary = BINARY_SUFFIX_EXPONENTS[suffix];
  if (Object.hasOwn(DECIMAL_SUFFIX_EXPONENTS, suffix)) {
    exp10 += decimal;
  } else if (Object.hasOwn(BINARY_SUFFIX_EXPONENTS, suffix)) {
    exp2 = binary;
  } else {
    // quantitySuffixer.interpret: anything else longer than one character starting with e/E is an exponent.
    const exponent = EXPONENT_SUFFIX.exec(suffix);
    if (!exponent) return undefined;
    const value = Number(exponent[1]);
    if (Math.abs(value) > MAX_ABS_EXPONENT) return undefined;
    exp10 += value;
  }
  return { negative: sign === '-', mantissa: BigInt(whole + fraction), exp10, exp2 };
}

/**
 * The quantity in base units as a (possibly inexact) number, or undefined when `text` is not a
 * Kubernetes quantity.
 * @example parseQuantity('100m') === 0.1; parseQuantity('128Mi') === 134217728; parseQuantity('1e3') === 1000
 */
export function parseQuantity(text: string): number | undefined {
  const exact = parseExactQuantity(text);
  if (!exact) return undefined;
  const value = Number(`${exact.mantissa}e${exact.exp10}`) * 2 ** exact.exp2;
  if (!Number.isFinite(value)) return undefined;
  return exact.negative && value !== 0 ? -value : value;
}

/** ceil(|q| × 10^scale10) as a bigint, like `Quantity.ScaledValue(-scale10)` on a non-negative quantity. */
function scaledCeil(q: ExactQuantity, scale10: number): bigint {
  let numerator = q.mantissa;
  let denominator = 1n;
  const exp10 = q.exp10 + scale10;
  if (exp10 >= 0) numerator *= 10n ** BigInt(exp10);
  else denominator *= 10n ** BigInt(-exp10);
  numerator *= 2n ** BigInt(q.exp2); // binary suffixes are all positive powers of two
  return (numerator + denominator - 1n) / denominator;
}

/** cpu is compared in millicores (`MilliValue`); every other resource by `Value()`. */
function unitScale(resource: string): number {
  return resource === 'cpu' ? 3 : 0;
}

/**
 * Whether the text is a well-formed quantity below zero (`-1`, `-500m`): Kubernetes parses it, then
 * refuses it with `must be greater than or equal to 0` (`ValidateNonnegativeQuantity`).
 * @example isNegativeQuantity('-1Gi') === true; isNegativeQuantity('-0') === false; isNegativeQuantity('x') === false
 */
export function isNegativeQuantity(text: string): boolean {
  const exact = parseExactQuantity(text);
  return exact !== undefined && exact.negative && exact.mantissa !== 0n;
}

/**
 * The canonical integer amount of `resource` for `text`, or undefined when the text is not a
 * quantity, is negative (requests, limits and allocatable must be ≥ 0), or does not fit a safe integer.
 * @example canonicalAmount('cpu', '0.1') === 100; canonicalAmount('memory', '1.5Ki') === 1536
 */
export function canonicalAmount(resource: string, text: string): number | undefined {
  const exact = parseExactQuantity(text);
  if (!exact || (exact.negative && exact.mantissa !== 0n)) return undefined;
  const amount = scaledCeil(exact, unitScale(resource));
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return Number(amount);
}

export interface QuantityError {
  resource: string;
  value: string;
}

export interface ResourceVectorResult {
  vector: ResourceVector;
  /** Entries that are not valid non-negative quantities; they are left out of `vector`. */
  errors: QuantityError[];
}

/**
 * A resource list in canonical integer units: cpu → millicores (rounded up), memory,
 * ephemeral-storage, hugepages-*, pods and extended resources → base units (rounded up).
 * @example toResourceVector({ cpu: '250m', memory: '1Gi' }).vector // { cpu: 250, memory: 1073741824 }
 */
export function toResourceVector(list: ResourceList | null | undefined): ResourceVectorResult {
  const vector: ResourceVector = {};
  const errors: QuantityError[] = [];
  for (const [resource, value] of Object.entries(list ?? {})) {
    const amount = typeof value === 'string' ? canonicalAmount(resource, value) : undefined;
    if (amount === undefined) errors.push({ resource, value: String(value) });
    else vector[resource] = amount;
  }
  return { vector, errors };
}

/**
 * Back to a resource list: cpu as whole cores when it is a multiple of 1000 millicores (`"4"`, as
 * Kubernetes prints its canonical form), else millicores (`"250m"`); everything else as an integer string.
 * @example fromResourceVector({ cpu: 250, memory: 1024 }) // { cpu: '250m', memory: '1024' }
 */
export function fromResourceVector(vector: ResourceVector): ResourceList {
  const list: ResourceList = {};
  for (const [resource, amount] of Object.entries(vector)) {
    if (resource === 'cpu') list[resource] = amount % 1000 === 0 ? String(amount / 1000) : `${amount}m`;
    else list[resource] = String(amount);
  }
  return list;
}

/** a + b, per resource (a resource missing on one side counts as 0). */
export function addResourceVectors(a: ResourceVector, b: ResourceVector): ResourceVector {
  const sum: ResourceVector = { ...a };
  for (const [resource, amount] of Object.entries(b)) sum[resource] = (sum[resource] ?? 0) + amount;
  return sum;
}

/** a − b, per resource (may go negative; a resource missing on one side counts as 0). */
export function subtractResourceVectors(a: ResourceVector, b: ResourceVector): ResourceVector {
  const difference: ResourceVector = { ...a };
  for (const [resource, amount] of Object.entries(b)) difference[resource] = (difference[resource] ?? 0) - amount;
  return difference;
}
