import type { FieldError } from '../types';
import { invalid } from './field-errors';

/**
 * Reads a string field of an object that came from JSON. Absent and null read as `""` (Go's zero
 * value). A value of another type is reported as `Invalid value ...: must be a string` and read as
 * undefined, so the validators can skip that field's other checks instead of throwing.
 */
export function readStringField(
  record: Record<string, unknown>,
  name: string,
  path: string,
  errors: FieldError[],
): string | undefined {
  const value = record[name];
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  errors.push(invalid(`${path}.${name}`, value, 'must be a string'));
  return undefined;
}

/** Whether a list element is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
