import { Injectable } from '@nestjs/common';
import type { Actor, PendingEvent } from '../change-set';
import type { Db } from '../prisma-types';
import { compactEvents } from './event-rows';
import type { TaintwiseEvent } from '../../events/event-bus';

/**
 * Held from the events INSERT to COMMIT by every PostgreSQL transaction that writes events: the next one takes its
 * ids only after this one committed, so event ids follow commit order (a sequence alone follows the order of
 * `nextval`, and two transactions side by side, as the due-eviction sweep runs, could commit the other way round).
 * Then a stream resumed after id N has seen every event below N. Taken after every row lock of the transaction,
 * and before the webhook outbox's lock (always in that order), so it cannot deadlock with them.
 */
const EVENT_ORDER_LOCK = `SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext('taintwise:events'))) l`;

export interface EventQuery {
  /** Events with a greater id. */
  afterId?: bigint;
  /** Events created at or after this time. */
  since?: Date;
  types?: readonly string[];
  actor?: string;
  subjectKind?: string;
  subjectName?: string;
}

/**
 * The append-only event log, its only reader and writer: appends for UnitOfWork, replay for the stream, the audit
 * history.
 */
@Injectable()
export class EventRepository {
  /**
   * Appends a mutation's events in its transaction; answers them as stored (ids, times), in order. `serialize`: take
   * the commit-order lock first (PostgreSQL; embedded PGlite runs one transaction at a time).
   */
  async insert(tx: Db, actor: Actor, events: readonly PendingEvent[], serialize: boolean): Promise<TaintwiseEvent[]> {
    if (events.length === 0) return [];
    // What needs no id is made before the lock: every other writer's commit waits while it is held (an eviction
    // sweep's two transactions on PostgreSQL, each with 5,000 events, waited ~85 ms for each other's).
    const doc = compactEvents(events);
    // The data as the stored jsonb gives it back (dates as strings, no undefined): one JSON round trip for all
    // of them, which is what one per event did, with one call instead of 11,000 each way.
    const data = JSON.parse(JSON.stringify(events.map((e) => e.data))) as Array<Record<string, unknown>>;
    if (serialize) await tx.$queryRawUnsafe(EVENT_ORDER_LOCK);
    return this.insertMany(tx, actor, events, doc, data);
  }

  /**
   * Any number of events (one for a cordon, thousands for a NoExecute taint over many pods or a burst of
   * evictions) in one statement with one JSON document parameter. Prisma's createMany binds every value
   * separately (~2.5 ms per row on PGlite), and even one array parameter per column costs the driver a
   * conversion per element; one JSON document, unpacked in SQL, is about twice as fast again. Small
   * counts went through createManyAndReturn until 2026-11-27: Prisma compiles a query plan per distinct
   * row count (the list of rows is not a parameter), 3-20 ms each, paid inside the eviction sweeps that
   * evict a node's pods (bench/ANALYSIS.md). The document is compact (`compactEvents`: rows as arrays, a
   * long string repeated across events sent once). Ids are assigned in `ord` order, so the ids in order pair
   * with the events; they come back as one array value with the statement's created_at, not as a row per
   * event (every value of a result is decoded, mapped and, embedded, copied between threads on its own).
   */
  private async insertMany(
    tx: Db,
    actor: Actor,
    events: readonly PendingEvent[],
    doc: ReturnType<typeof compactEvents>,
    data: ReadonlyArray<Record<string, unknown>>,
  ): Promise<TaintwiseEvent[]> {
    // Every row of the statement has the same created_at (DEFAULT now(): the transaction's start): min() is it.
    const [inserted] = await tx.$queryRawUnsafe<Array<{ ids: string; created_at: Date | string }>>(
      `WITH inserted AS (
         INSERT INTO events (type, actor, request_id, subject_kind, subject_name, data)
         SELECT u.r->>0, $1, $2, u.r->>1, u.r->>2,
                CASE WHEN u.r->>4 IS NULL THEN u.r->3 ELSE (u.r->3) || ((SELECT $4::jsonb) -> ((u.r->>4)::int)) END
         FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS u(r, ord)
         ORDER BY u.ord
         RETURNING id, created_at)
       SELECT array_agg(id ORDER BY id)::text AS ids, min(created_at) AS created_at FROM inserted`,
      actor.name,
      actor.requestId ?? null,
      doc.rows,
      doc.shared,
    );
    // A bigint[] as text: {1,2,3}.
    const ids = inserted.ids.slice(1, -1).split(',');
    if (ids.length !== events.length) throw new Error(`events: ${events.length} inserted, ${ids.length} ids returned`);
    const createdAt = new Date(inserted.created_at).toISOString();
    return events.map((e, i) => ({
      id: ids[i],
      type: e.type,
      actor: actor.name,
      requestId: actor.requestId ?? null,
      subjectKind: e.subjectKind,
      subjectName: e.subjectName,
      data: data[i],
      createdAt,
    }));
  }

  /** Other replicas' committed events, by id (or the inclusive id range a bulk change names), oldest first. */
  async findCommitted(db: Db, ids: readonly string[], range: boolean): Promise<TaintwiseEvent[]> {
    const where = range
      ? { id: { gte: BigInt(ids[0]), lte: BigInt(ids[1]) } }
      : { id: { in: ids.map((id) => BigInt(id)) } };
    const rows = await db.event.findMany({ where, orderBy: { id: 'asc' }, take: 10_000 });
    return rows.map(toEvent);
  }

  /** Oldest first, by id. */
  async list(db: Db, query: EventQuery, limit: number): Promise<TaintwiseEvent[]> {
    const rows = await db.event.findMany({
      where: {
        ...(query.afterId !== undefined ? { id: { gt: query.afterId } } : {}),
        ...(query.since ? { createdAt: { gte: query.since } } : {}),
        ...(query.types?.length ? { type: { in: [...query.types] } } : {}),
        ...(query.actor !== undefined ? { actor: query.actor } : {}),
        ...(query.subjectKind !== undefined ? { subjectKind: query.subjectKind } : {}),
        ...(query.subjectName !== undefined ? { subjectName: query.subjectName } : {}),
      },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map(toEvent);
  }
}

type EventRow = Awaited<ReturnType<Db['event']['findMany']>>[number];

function toEvent(r: EventRow): TaintwiseEvent {
  return {
    id: String(r.id),
    type: r.type,
    actor: r.actor,
    requestId: r.requestId,
    subjectKind: r.subjectKind,
    subjectName: r.subjectName,
    data: r.data as Record<string, unknown>,
    createdAt: r.createdAt.toISOString(),
  };
}
