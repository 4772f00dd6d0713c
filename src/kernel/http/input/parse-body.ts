import type { z } from 'zod';
import { AppError } from '../../errors/app-error';
import type { FieldError } from '../../../domain/types';

/**
 * Parses an untrusted body against a structural schema; a mismatch is a 400 listing every problem
 * with its field path in taintwise's JSON (`taints[0].effect`), never a 500.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, what: string, basePath = ''): z.infer<S> {
  if (body === undefined || body === null) {
    throw new AppError('BadRequest', `${what}: a JSON object is required`, [
      { field: basePath || '(body)', type: 'Required value', message: 'Required value' },
    ]);
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors: FieldError[] = parsed.error.issues.slice(0, 50).flatMap((issue): FieldError[] => {
    const path = joinPath(basePath, issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({
        field: joinPath(path, [k]),
        type: 'Invalid value' as const,
        message: `unknown field "${k}"`,
      }));
    }
    return [{ field: path || '(body)', type: 'Invalid value' as const, message: describeIssue(issue) }];
  });
  const detail = `${what} is malformed: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`;
  throw new AppError('BadRequest', detail, errors);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  if (issue.code === 'too_big') return `too long or too large (maximum ${String(issue.maximum)})`;
  if (issue.code === 'too_small') return `too small (minimum ${String(issue.minimum)})`;
  if (issue.code === 'invalid_format') return `expected an RFC 3339 date-time`;
  return issue.message;
}

/** `taints`, 0, `effect` → `taints[0].effect`. */
export function joinPath(base: string, segments: ReadonlyArray<PropertyKey>): string {
  let out = base;
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += out ? `.${String(s)}` : String(s);
  }
  return out;
}
