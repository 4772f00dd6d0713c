import { Injectable } from '@nestjs/common';
import type {
  DueWebhookDelivery,
  StoredWebhookDelivery,
  WebhookAttempt,
  WebhookDeliveryStatus,
} from '../../model/stored-webhook';
import type { TaintwiseEvent } from '../../events/event-bus';
import type { Db } from '../prisma-types';

/**
 * Held from the outbox INSERT to COMMIT by every PostgreSQL transaction that writes outbox rows: the
 * next transaction with rows takes its ids only after this one committed, so delivery ids follow commit
 * order (a plain sequence only follows the order of `nextval`). Held for the last statements of a
 * transaction, after every row lock it takes, so it cannot deadlock with them.
 */
const OUTBOX_ORDER_LOCK = `SELECT 1 AS locked FROM (
  SELECT pg_advisory_xact_lock(hashtext('taintwise:webhook-outbox')) FROM webhook_subscriptions WHERE enabled LIMIT 1) l`;

/** Which subscriptions want an event: enabled, with no type filter or the event's type in it. */
const MATCHES = `s.enabled AND (s.events IS NULL OR cardinality(s.events) = 0 OR u.type = ANY(s.events))`;

/**
 * Marks acknowledged rows Delivered: $1 the batch as JSON `[{ id, attempt }]`, $2 its ids.
 *
 * The rows are found by their ids (`d.id = ANY($2)`, the primary key), not only through the join with the
 * batch: joined alone, PostgreSQL and PGlite both plan a hash join over every Pending row of the table, so
 * each mark cost time in proportion to the backlog (10,000 pending: 2-6 ms per batch of ~70 rows; a backlog
 * ten times larger would take longer to mark than the batches take to arrive). The status is compared as text
 * so that no index on it serves the comparison: PGlite keeps no statistics (nothing runs ANALYZE there), so it
 * guessed the status index selective and read every Pending row through it into a BitmapAnd with the ids.
 */
export const MARK_DELIVERED = `UPDATE webhook_deliveries d
  SET status = 'Delivered', attempts = d.attempts + 1, attempt_log = d.attempt_log || jsonb_build_array(u.attempt),
      finished_at = (u.attempt->>'at')::timestamptz
  FROM jsonb_to_recordset($1::jsonb) AS u(id bigint, attempt jsonb)
  WHERE d.id = ANY($2::bigint[]) AND d.id = u.id AND d.status::text = 'Pending'
  RETURNING d.id::text AS id`;

/** The two parameters of {@link MARK_DELIVERED} for a batch. */
export function markDeliveredParameters(
  done: ReadonlyArray<{ id: string; attempt: WebhookAttempt }>,
): [string, string[]] {
  return [JSON.stringify(done.map((d) => ({ id: d.id, attempt: d.attempt }))), done.map((d) => d.id)];
}

/**
 * The webhook outbox (issue 15), the only reader and writer of `webhook_deliveries`: rows written in
 * the transaction of the events they carry, claimed and marked by the delivery worker, listed as the
 * delivery log, re-queued by a retry or a replay, pruned after the retention period.
 */
@Injectable()
export class WebhookDeliveryRepository {
  /**
   * One row per (event, matching subscription), in the events' transaction, with one statement for the
   * lot (a NoExecute taint over 10,000 pods is one INSERT … SELECT, not 10,000). Rows are numbered in
   * event order then subscription. `serialize`: take the commit-order lock first (PostgreSQL; embedded
   * PGlite runs one transaction at a time). Answers how many rows were written.
   */
  async enqueue(tx: Db, events: readonly TaintwiseEvent[], now: Date, serialize: boolean): Promise<number> {
    if (events.length === 0) return 0;
    if (serialize) {
      const locked = await tx.$queryRawUnsafe<unknown[]>(OUTBOX_ORDER_LOCK);
      if (locked.length === 0) return 0; // no enabled subscription: nothing to write
    }
    return tx.$executeRawUnsafe(
      `INSERT INTO webhook_deliveries (subscription_id, event_id, event_type, next_attempt_at, created_at)
       SELECT s.id, u.id, u.type, $3::timestamptz, $3::timestamptz
       FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS u(id, type, ord)
       JOIN webhook_subscriptions s ON ${MATCHES}
       ORDER BY u.ord, s.id`,
      events.map((e) => e.id),
      events.map((e) => e.type),
      now.toISOString(),
    );
  }

  /**
   * Rows for events since `since` to deliver (again) to one subscription: its delivered or failed rows
   * of those events back to Pending (same ids: receivers that de-duplicate on webhook-id see a replay
   * of the same message), and new rows for matching events it has none for. Answers both counts.
   */
  async replaySince(
    tx: Db,
    subscription: { id: string; events: readonly string[] },
    since: Date,
    now: Date,
  ): Promise<{ requeued: number; added: number }> {
    const requeued = await tx.$executeRawUnsafe(
      `UPDATE webhook_deliveries d SET status = 'Pending', next_attempt_at = $3::timestamptz, finished_at = NULL
       FROM events e
       WHERE d.subscription_id = $1::uuid AND d.status <> 'Pending' AND e.id = d.event_id AND e.created_at >= $2::timestamptz`,
      subscription.id,
      since.toISOString(),
      now.toISOString(),
    );
    const added = await tx.$executeRawUnsafe(
      `INSERT INTO webhook_deliveries (subscription_id, event_id, event_type, next_attempt_at, created_at)
       SELECT $1::uuid, e.id, e.type, $3::timestamptz, $3::timestamptz FROM events e
       WHERE e.created_at >= $2::timestamptz AND (cardinality($4::text[]) = 0 OR e.type = ANY($4::text[]))
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = $1::uuid AND d.event_id = e.id)
       ORDER BY e.id`,
      subscription.id,
      since.toISOString(),
      now.toISOString(),
      [...subscription.events],
    );
    return { requeued, added };
  }

  /** One delivery back to Pending, due now (a manual retry); undefined if the subscription has no such row. */
  async requeue(tx: Db, subscriptionId: string, id: string, now: Date): Promise<StoredWebhookDelivery | undefined> {
    if (!/^\d{1,18}$/.test(id)) return undefined;
    const n = await tx.$executeRawUnsafe(
      `UPDATE webhook_deliveries SET status = 'Pending', next_attempt_at = $3::timestamptz, finished_at = NULL
       WHERE id = $2::bigint AND subscription_id = $1::uuid`,
      subscriptionId,
      id,
      now.toISOString(),
    );
    return n ? this.find(tx, subscriptionId, id) : undefined;
  }

  /**
   * A subscription's pending rows in delivery order (by id: commit order), with their events; the
   * worker sends them one after the other and stops at the first that is not due (a retry waiting).
   */
  async pendingInOrder(db: Db, subscriptionId: string, limit: number): Promise<DueWebhookDelivery[]> {
    const rows = await db.$queryRawUnsafe<
      Array<{
        id: string;
        attempts: number;
        next_attempt_at: Date | string;
        created_at: Date | string;
        event_id: string;
        type: string | null;
        actor: string | null;
        request_id: string | null;
        subject_kind: string | null;
        subject_name: string | null;
        event_created_at: Date | string | null;
        data: Record<string, unknown> | string | null;
      }>
    >(
      `SELECT d.id::text AS id, d.attempts, d.next_attempt_at, d.created_at,
              d.event_id::text AS event_id, e.type, e.actor, e.request_id, e.subject_kind, e.subject_name,
              e.created_at AS event_created_at, e.data
       FROM webhook_deliveries d LEFT JOIN events e ON e.id = d.event_id
       WHERE d.subscription_id = $1::uuid AND d.status = 'Pending'
       ORDER BY d.id LIMIT $2`,
      subscriptionId,
      limit,
    );
    return rows.map((r) => ({
      id: r.id,
      attempts: r.attempts,
      nextAttemptAt: new Date(r.next_attempt_at),
      createdAt: new Date(r.created_at),
      event:
        r.type === null
          ? null
          : {
              id: r.event_id,
              type: r.type,
              actor: r.actor!,
              requestId: r.request_id,
              subjectKind: r.subject_kind!,
              subjectName: r.subject_name!,
              createdAt: new Date(r.event_created_at!),
              data: (typeof r.data === 'string' ? JSON.parse(r.data) : (r.data ?? {})) as Record<string, unknown>,
            },
    }));
  }

  /**
   * Acknowledged deliveries (2xx), in one statement ({@link MARK_DELIVERED}). Only Pending rows change:
   * a row is marked Delivered once, whatever replica or retry answers second. Answers the ids it marked.
   */
  async markDelivered(db: Db, done: ReadonlyArray<{ id: string; attempt: WebhookAttempt }>): Promise<string[]> {
    if (done.length === 0) return [];
    const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(MARK_DELIVERED, ...markDeliveredParameters(done));
    return rows.map((r) => r.id);
  }

  /** A failed attempt: retried at `retryAt`, or Failed for good when there is none. False if not Pending any more. */
  async markAttemptFailed(db: Db, id: string, attempt: WebhookAttempt, retryAt: Date | null): Promise<boolean> {
    const n = await db.$executeRawUnsafe(
      `UPDATE webhook_deliveries
       SET attempts = attempts + 1, attempt_log = attempt_log || jsonb_build_array($2::jsonb),
           status = CASE WHEN $3::timestamptz IS NULL THEN 'Failed'::"WebhookDeliveryStatus" ELSE status END,
           next_attempt_at = COALESCE($3::timestamptz, next_attempt_at),
           finished_at = CASE WHEN $3::timestamptz IS NULL THEN $4::timestamptz ELSE NULL END
       WHERE id = $1::bigint AND status = 'Pending'`,
      id,
      JSON.stringify(attempt),
      retryAt ? retryAt.toISOString() : null,
      attempt.at,
    );
    return n > 0;
  }

  async find(db: Db, subscriptionId: string, id: string): Promise<StoredWebhookDelivery | undefined> {
    if (!/^\d{1,18}$/.test(id)) return undefined;
    const row = await db.webhookDelivery.findFirst({ where: { id: BigInt(id), subscriptionId } });
    return row ? toDelivery(row) : undefined;
  }

  /** A subscription's delivery log, newest first, before `beforeId`; optionally one status. */
  async list(
    db: Db,
    subscriptionId: string,
    query: { beforeId?: string; status?: WebhookDeliveryStatus },
    take: number,
  ): Promise<StoredWebhookDelivery[]> {
    const rows = await db.webhookDelivery.findMany({
      where: {
        subscriptionId,
        ...(query.beforeId ? { id: { lt: BigInt(query.beforeId) } } : {}),
        ...(query.status ? { status: query.status } : {}),
      },
      orderBy: { id: 'desc' },
      take,
    });
    return rows.map(toDelivery);
  }

  /** Pending rows (due or waiting for a retry) and the creation time of the oldest. */
  async pendingStats(db: Db): Promise<{ depth: number; oldest: Date | null }> {
    const rows = await db.$queryRawUnsafe<Array<{ depth: number | bigint | string; oldest: Date | string | null }>>(
      `SELECT count(*)::int AS depth, min(created_at) AS oldest FROM webhook_deliveries WHERE status = 'Pending'`,
    );
    const r = rows[0];
    return { depth: Number(r?.depth ?? 0), oldest: r?.oldest ? new Date(r.oldest) : null };
  }

  /** Deletes finished rows created before `before` (the retention period); answers how many. */
  async prune(db: Db, before: Date): Promise<number> {
    return db.$executeRawUnsafe(
      `DELETE FROM webhook_deliveries WHERE status <> 'Pending' AND created_at < $1::timestamptz`,
      before.toISOString(),
    );
  }
}

type Row = Awaited<ReturnType<Db['webhookDelivery']['findMany']>>[number];

function toDelivery(r: Row): StoredWebhookDelivery {
  return {
    id: String(r.id),
    subscriptionId: r.subscriptionId,
    eventId: String(r.eventId),
    eventType: r.eventType,
    status: r.status,
    attempts: r.attempts,
    attemptLog: (Array.isArray(r.attemptLog) ? r.attemptLog : []) as unknown as WebhookAttempt[],
    nextAttemptAt: r.nextAttemptAt,
    createdAt: r.createdAt,
    finishedAt: r.finishedAt,
  };
}
