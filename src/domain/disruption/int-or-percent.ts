import type { IntOrPercent } from './budget-types';

/**
 * `intstr.GetScaledValueFromIntOrPercent` (k8s.io/apimachinery/pkg/util/intstr/intstr.go): an integer
 * as is; "N%" as N percent of `total`, rounded up when `roundUp` (the disruption controller always
 * rounds up) and down otherwise. A string without '%' or with a non-integer number is an error, worded
 * as upstream words it.
 * @example scaledValue('50%', 3, true) === 2
 */
export function scaledValue(value: IntOrPercent, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (!value.endsWith('%')) {
    throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  }
  const digits = value.slice(0, -1);
  // strconv.Atoi: an optional sign and decimal digits, nothing else.
  if (!/^[+-]?[0-9]+$/.test(digits)) {
    throw new Error(
      `invalid value for IntOrString: invalid value "${value}": strconv.Atoi: parsing "${digits}": invalid syntax`,
    );
  }
  const percent = Number(digits);
  const scaled = (percent * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** "N%" → N (getPercentValue of apps validation); undefined for integers and other strings. */
export function percentValue(value: IntOrPercent): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^([0-9]+)%$/.exec(value);
  return match ? Number(match[1]) : undefined;
}
