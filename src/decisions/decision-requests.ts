import type { AppConfig } from '../kernel/config/config.schema';
import { AppError } from '../kernel/errors/app-error';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { FieldError } from '../domain/types';
import { aggregateMessages, formatFieldError } from '../domain/validation/field-errors';

/** The matching options every decision uses (A.1: Gt/Lt tolerations when the setting allows them). */
export function matchOptionsOf(config: AppConfig): MatchOptions {
  return { comparisonOperators: config.COMPARISON_OPERATORS };
}

export function exactlyOne(input: Record<string, unknown>, fields: [string, string], required: boolean): void {
  const given = fields.filter((f) => input[f] !== undefined);
  if (given.length === 2) {
    throw new AppError('BadRequest', `"${fields[0]}" and "${fields[1]}" are mutually exclusive`, [
      {
        field: fields[1],
        type: 'Invalid value',
        message: `Invalid value: may not be given together with ${fields[0]}`,
      },
    ]);
  }
  if (required && given.length === 0) {
    throw new AppError('BadRequest', `one of "${fields[0]}" or "${fields[1]}" is required`, [
      {
        field: fields[0],
        type: 'Required value',
        message: `Required value: give ${fields[0]} (an inline pod spec) or ${fields[1]} ({namespace, name})`,
      },
    ]);
  }
}

export function invalidRequest(what: string, errors: FieldError[]): AppError {
  return new AppError('Invalid', `${what} is invalid: ${aggregateMessages(errors.map(formatFieldError))}`, errors);
}

/** Distinct names in code-unit order (the snapshot's node order). */
export function uniqueSorted(names: readonly string[]): string[] {
  return [...new Set(names)].sort();
}
