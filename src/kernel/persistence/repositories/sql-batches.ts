/**
 * Set-based writes take whole columns as arrays (`unnest($1::text[], ...)`), so a chunk of thousands of
 * rows is one round trip and never hits the 65,535 bind-parameter limit. Rows per statement: big enough
 * to amortise round trips, small enough for statement_timeout.
 */
export const CHUNK = 5000;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A timestamp as the embedded and the server adapters return it (a Date, or its text). */
export function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}
