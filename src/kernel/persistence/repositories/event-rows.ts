import type { PendingEvent } from '../change-set';

/** A top-level string at least this long, equal to one an earlier event had under the same key, is sent once. */
const SHARED_MIN_LENGTH = 40;

/**
 * The bulk event insert's parameters (EventRepository): one array per event, [type, subjectKind, subjectName,
 * data, shared] in order, and the list of shared fragments `shared` indexes (or null). A burst of evictions repeats
 * the same long `reason` in thousands of events; that one field becomes a one-key fragment sent once, and SQL puts
 * it back (`data || fragment`, disjoint keys: the same jsonb as the whole object). Rows as arrays carry no key
 * names. The document is copied by Prisma, encoded by PGlite and parsed as jsonb, byte by byte: smaller is faster.
 */
export function compactEvents(events: readonly PendingEvent[]): { rows: string; shared: string } {
  const seen = new Map<string, number | null>();
  const fragments: string[] = [];
  const rows = events.map((e) => {
    let data = e.data;
    let shared: number | null = null;
    for (const [key, value] of Object.entries(e.data)) {
      if (typeof value !== 'string' || value.length < SHARED_MIN_LENGTH) continue;
      const id = `${key}\u0000${value}`;
      let index = seen.get(id);
      if (index === undefined) {
        // First sighting: kept inline; a second one makes it a fragment.
        seen.set(id, null);
        continue;
      }
      if (index === null) {
        index = fragments.length;
        fragments.push(JSON.stringify({ [key]: value }));
        seen.set(id, index);
      }
      const { [key]: _moved, ...rest } = e.data;
      data = rest;
      shared = index;
      break;
    }
    return [e.type, e.subjectKind, e.subjectName, data, shared];
  });
  return { rows: JSON.stringify(rows), shared: `[${fragments.join(',')}]` };
}
