import { AppError } from '../kernel/errors/app-error';

/** `?types=A,B` (or repeated): event types to keep; undefined = every type. */
export function parseTypes(raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const parts = (Array.isArray(raw) ? raw : [raw])
    .flatMap((v) => String(v).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.some((p) => !/^[A-Za-z][A-Za-z0-9]{0,63}$/.test(p))) {
    throw new AppError(
      'BadRequest',
      'types must be a comma-separated list of event types such as EvictionExecuted,TaintsApplied',
      [{ field: 'types', type: 'Invalid value', message: 'Invalid value: not a list of event types' }],
    );
  }
  return parts.length ? parts : undefined;
}

/** A position in the event log: an event id (digits: events after it) or an RFC 3339 time (events at or after it). */
export type EventPosition = { afterId: bigint } | { since: Date };

const MAX_EVENT_ID = 2n ** 63n - 1n;

export function parsePosition(raw: unknown, field: string): EventPosition | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = String(raw).trim();
  // Event ids are PostgreSQL bigints: a larger number can name no event, and the database would refuse it.
  if (/^\d{1,19}$/.test(text) && BigInt(text) <= MAX_EVENT_ID) return { afterId: BigInt(text) };
  const time = Date.parse(text);
  if (/^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(time)) return { since: new Date(time) };
  throw new AppError('BadRequest', `${field} must be an event id or an RFC 3339 time`, [
    {
      field,
      type: 'Invalid value',
      message: `Invalid value: ${JSON.stringify(text)}: must be an event id or an RFC 3339 time`,
    },
  ]);
}
