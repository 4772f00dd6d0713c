import { AppError } from '../errors/app-error';

/** Kubernetes-style paging: `limit` plus an opaque `continue` token naming the last item returned. */
export const DEFAULT_LIMIT = 500;
export const MAX_LIMIT = 5000;

export function parseLimit(raw: unknown, fallback = DEFAULT_LIMIT): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT)
    throw new AppError('BadRequest', `limit must be an integer from 1 to ${MAX_LIMIT}`, [
      {
        field: 'limit',
        type: 'Invalid value',
        message: `Invalid value: ${JSON.stringify(raw)}: must be an integer from 1 to ${MAX_LIMIT}`,
      },
    ]);
  return n;
}

export function encodeContinue(position: string[]): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

export function decodeContinue(token: unknown, parts: number): string[] | undefined {
  if (token === undefined || token === '') return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(String(token), 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === parts && value.every((v) => typeof v === 'string'))
      return value as string[];
  } catch {
    // fall through
  }
  throw new AppError('BadRequest', 'continue token is not valid: pass the value of `continue` from the previous page', [
    { field: 'continue', type: 'Invalid value', message: 'Invalid value: not a continue token of this list' },
  ]);
}

export interface Page<T> {
  items: T[];
  continue?: string;
}

/**
 * The one pager over a stored list: reads one more than `limit`, so the page knows whether another follows,
 * and names the last item returned in the `continue` token (`positionOf`).
 * @example await readPage(limit, (take) => repo.list(db, filter, take, after), (p) => [p.namespace, p.name])
 */
export async function readPage<T>(
  limit: number,
  read: (take: number) => Promise<T[]>,
  positionOf: (last: T) => string[],
): Promise<Page<T>> {
  const items = await read(limit + 1);
  if (items.length <= limit) return { items };
  const page = items.slice(0, limit);
  return { items: page, continue: encodeContinue(positionOf(page[page.length - 1])) };
}
