import { AppError } from '../kernel/errors/app-error';
import { MAX_LIMIT } from '../kernel/http/paging';

/**
 * `limit` as the API server reads it (apiserver endpoints/handlers/get.go, ListOptions.Limit): absent
 * or 0 means the whole list; a larger limit than taintwise's page size is served as a page of that size
 * with a `continue` token, which the API contract allows ("may return fewer than limit").
 * Undefined = no limit.
 */
export function kubeLimit(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(n)) {
    throw new AppError('BadRequest', `invalid limit ${JSON.stringify(raw)}: must be an integer`);
  }
  if (n <= 0) return undefined;
  return Math.min(n, MAX_LIMIT);
}
