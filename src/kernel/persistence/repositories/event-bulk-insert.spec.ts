import type { PendingEvent } from '../change-set';
import { specDatabase } from '../testing/spec-database';
import { compactEvents } from './event-rows';
import { EventRepository } from './event.repository';

jest.setTimeout(120_000);

const LONG =
  'tolerationSeconds of toleration 3 for NoExecute taint maintenance.example.com/drain=true:NoExecute ran out';
const ODD = 'a long "quoted" reason with ünïcode, a backslash \\ and a control \u0001 character, repeated';

/** Events as a burst makes them: long strings repeated under one key, others unique, nested data, odd text. */
function burst(count: number, tag: string): PendingEvent[] {
  return Array.from({ length: count }, (_, i): PendingEvent => {
    const name = `${tag}/pod-${i}`;
    switch (i % 5) {
      case 0:
        return {
          type: 'EvictionScheduled',
          subjectKind: 'Pod',
          subjectName: name,
          data: { evictionId: `id-${i}`, node: 'n1', evictAt: '2026-11-25T10:00:00.000Z', reason: LONG },
        };
      case 1:
        return {
          type: 'EvictionExecuted',
          subjectKind: 'Pod',
          subjectName: name,
          data: { node: 'n2', reason: ODD, taint: { key: 'k', value: '', effect: 'NoExecute' } },
        };
      case 2:
        // Two long strings: only one can be shared, the other stays inline.
        return {
          type: 'EvictionCancelled',
          subjectKind: 'Pod',
          subjectName: name,
          data: { evictionId: `id-${i}`, reason: LONG, note: ODD },
        };
      case 3:
        return {
          type: 'TaintsApplied',
          subjectKind: 'Node',
          subjectName: `${tag}-node-${i}`,
          data: { unique: `${LONG} (${i})`, nested: { reason: LONG }, list: [LONG, 1, null], empty: '' },
        };
      default:
        return { type: 'PodUpserted', subjectKind: 'Pod', subjectName: name, data: {} };
    }
  });
}

describe('EventRepository.insert: one statement for any number of events stores and answers what createMany does', () => {
  const db = specDatabase('event-bulk');
  const repo = new EventRepository();

  const stored = async (requestId: string) =>
    (await db().prisma.event.findMany({ where: { requestId }, orderBy: { id: 'asc' } })).map((r) => ({
      id: String(r.id),
      type: r.type,
      subjectKind: r.subjectKind,
      subjectName: r.subjectName,
      data: r.data,
    }));

  it('150 events in one statement store what createMany of Prisma stores, and each answer carries its own id', async () => {
    const run = `${Date.now()}`;
    const bulkActor = { name: 'bulk', requestId: `r-${run}` };
    const reference = { name: 'reference', requestId: `s-${run}` };
    const answered = await db().prisma.$transaction((tx) =>
      repo.insert(tx as never, bulkActor, burst(150, 'x'), db().kind === 'postgres'),
    );
    // The reference: the same events through Prisma's createMany, 30 at a time.
    for (let i = 0; i < 150; i += 30)
      await db().prisma.event.createMany({
        data: burst(150, 'x')
          .slice(i, i + 30)
          .map((e) => ({
            type: e.type,
            actor: reference.name,
            requestId: reference.requestId,
            subjectKind: e.subjectKind,
            subjectName: e.subjectName,
            data: e.data as never,
          })),
      });

    const viaBulk = await stored(bulkActor.requestId);
    const viaCreateMany = await stored(reference.requestId);
    expect(viaBulk).toHaveLength(150);
    const withoutIds = (rows: typeof viaBulk) => rows.map(({ id: _id, ...rest }) => rest);
    expect(withoutIds(viaBulk)).toEqual(withoutIds(viaCreateMany));
    expect(withoutIds(viaBulk)).toEqual(
      burst(150, 'x').map((e) => ({
        type: e.type,
        subjectKind: e.subjectKind,
        subjectName: e.subjectName,
        data: e.data,
      })),
    );
    // The answer pairs every event with the id it was stored under.
    expect(answered.map((e) => ({ id: e.id, type: e.type, subjectName: e.subjectName, data: e.data }))).toEqual(
      viaBulk.map((r) => ({ id: r.id, type: r.type, subjectName: r.subjectName, data: r.data })),
    );
  });

  it('one event, and a few, go the same way: stored as given, answered with their ids, actor and time', async () => {
    for (const count of [1, 3]) {
      const actor = { name: 'few', requestId: `f-${count}-${Date.now()}` };
      const events = burst(count, `f${count}`);
      const answered = await db().prisma.$transaction((tx) =>
        repo.insert(tx as never, actor, events, db().kind === 'postgres'),
      );
      const rows = await db().prisma.event.findMany({ where: { requestId: actor.requestId }, orderBy: { id: 'asc' } });
      expect(rows.map((r) => ({ type: r.type, subjectName: r.subjectName, data: r.data }))).toEqual(
        events.map((e) => ({ type: e.type, subjectName: e.subjectName, data: e.data })),
      );
      expect(answered).toEqual(
        rows.map((r) => ({
          id: String(r.id),
          type: r.type,
          actor: 'few',
          requestId: actor.requestId,
          subjectKind: r.subjectKind,
          subjectName: r.subjectName,
          data: r.data,
          createdAt: r.createdAt.toISOString(),
        })),
      );
    }
  });

  it('sends a long string once it repeats under the same key, one per event', () => {
    const compact = compactEvents(burst(10, 'y'));
    expect(JSON.parse(compact.shared)).toEqual([{ reason: LONG }, { reason: ODD }]);
    const rows = JSON.parse(compact.rows) as unknown[][];
    // First sightings stay inline; later ones point at the fragment (event 2 shares `reason`, keeps `note`).
    expect(rows.map((r) => r[4])).toEqual([null, null, 0, null, null, 0, 1, 0, null, null]);
    expect(rows[2][3]).toEqual({ evictionId: 'id-2', note: ODD });
    expect(rows[3][3]).toEqual(burst(10, 'y')[3].data);
  });
});
