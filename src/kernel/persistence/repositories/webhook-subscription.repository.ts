import { Injectable } from '@nestjs/common';
import type { StoredWebhook } from '../../model/stored-webhook';
import type { Db } from '../prisma-types';

export interface WebhookWrite {
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  disabledReason: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  /** Cleared when an admin re-enables the subscription. */
  failingSince?: Date | null;
}

type Row = Awaited<ReturnType<Db['webhookSubscription']['findMany']>>[number];

/**
 * Webhook subscriptions (issue 15), the only reader and writer of `webhook_subscriptions`: CRUD for the
 * service, and the delivery lease the worker takes so that one replica at a time delivers a
 * subscription's rows, in order.
 */
@Injectable()
export class WebhookSubscriptionRepository {
  async create(tx: Db, id: string, write: WebhookWrite): Promise<StoredWebhook> {
    return toWebhook(await tx.webhookSubscription.create({ data: { id, ...write } }));
  }

  async find(db: Db, id: string): Promise<StoredWebhook | undefined> {
    if (!UUID.test(id)) return undefined;
    const row = await db.webhookSubscription.findUnique({ where: { id } });
    return row ? toWebhook(row) : undefined;
  }

  /** The row locked FOR UPDATE (a change to it is one at a time). */
  async lock(tx: Db, id: string): Promise<StoredWebhook | undefined> {
    if (!UUID.test(id)) return undefined;
    const rows = await tx.$queryRawUnsafe<unknown[]>(
      'SELECT 1 FROM webhook_subscriptions WHERE id = $1::uuid FOR UPDATE',
      id,
    );
    return rows.length ? this.find(tx, id) : undefined;
  }

  /** By creation time then id, after the given position. */
  async list(db: Db, after: { createdAt: Date; id: string } | undefined, take: number): Promise<StoredWebhook[]> {
    const rows = await db.webhookSubscription.findMany({
      where: after
        ? {
            OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }],
          }
        : {},
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take,
    });
    return rows.map(toWebhook);
  }

  async update(tx: Db, id: string, write: Partial<WebhookWrite>): Promise<StoredWebhook> {
    return toWebhook(await tx.webhookSubscription.update({ where: { id }, data: write }));
  }

  async delete(tx: Db, id: string): Promise<void> {
    await tx.webhookSubscription.delete({ where: { id } });
  }

  // ---- the delivery lease ----

  /**
   * Takes the delivery lease of up to `limit` enabled subscriptions whose oldest pending delivery is due
   * and whose lease is free or expired, without waiting on rows another replica is claiming
   * (`FOR UPDATE SKIP LOCKED`). Answers them with their secrets.
   */
  async claim(db: Db, owner: string, now: Date, leaseUntil: Date, limit: number): Promise<StoredWebhook[]> {
    const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(
      `WITH candidates AS (
         SELECT s.id FROM webhook_subscriptions s
         WHERE s.enabled AND (s.lease_until IS NULL OR s.lease_until < $1::timestamptz)
           AND (SELECT d.next_attempt_at FROM webhook_deliveries d
                WHERE d.subscription_id = s.id AND d.status = 'Pending' ORDER BY d.id LIMIT 1) <= $1::timestamptz
         ORDER BY s.lease_until NULLS FIRST, s.id
         LIMIT $4
         FOR UPDATE SKIP LOCKED)
       UPDATE webhook_subscriptions s SET lease_owner = $2, lease_until = $3::timestamptz
       FROM candidates c WHERE s.id = c.id
       RETURNING s.id::text AS id`,
      now.toISOString(),
      owner,
      leaseUntil.toISOString(),
      limit,
    );
    if (rows.length === 0) return [];
    const found = await db.webhookSubscription.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
    return found.map(toWebhook);
  }

  /** Extends a lease this owner holds; false if it lost it (expired and taken, or the row is gone or disabled). */
  async renew(db: Db, id: string, owner: string, leaseUntil: Date): Promise<boolean> {
    const n = await db.$executeRawUnsafe(
      `UPDATE webhook_subscriptions SET lease_until = $3::timestamptz WHERE id = $1::uuid AND lease_owner = $2 AND enabled`,
      id,
      owner,
      leaseUntil.toISOString(),
    );
    return n > 0;
  }

  /** Extends every lease of this owner among `ids` (the worker's heartbeat); answers the ids still held. */
  async renewMany(db: Db, ids: readonly string[], owner: string, leaseUntil: Date): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(
      `UPDATE webhook_subscriptions SET lease_until = $3::timestamptz
       WHERE id = ANY($1::uuid[]) AND lease_owner = $2 AND enabled RETURNING id::text AS id`,
      [...ids],
      owner,
      leaseUntil.toISOString(),
    );
    return rows.map((r) => r.id);
  }

  /** Gives back every lease this owner holds (shutdown), so another replica or the restart goes on at once. */
  async releaseAll(db: Db, owner: string): Promise<void> {
    await db.$executeRawUnsafe(
      'UPDATE webhook_subscriptions SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1',
      owner,
    );
  }

  /**
   * Gives the lease back, unless a delivery became due meanwhile (a commit on a replica that could not
   * take the lease because this one held it): then it stays and false tells the owner to go on.
   */
  async release(db: Db, id: string, owner: string, now: Date): Promise<boolean> {
    const n = await db.$executeRawUnsafe(
      `UPDATE webhook_subscriptions s SET lease_owner = NULL, lease_until = NULL
       WHERE s.id = $1::uuid AND s.lease_owner = $2
         AND NOT (s.enabled AND COALESCE((SELECT d.next_attempt_at <= $3::timestamptz FROM webhook_deliveries d
                  WHERE d.subscription_id = s.id AND d.status = 'Pending' ORDER BY d.id LIMIT 1), false))`,
      id,
      owner,
      now.toISOString(),
    );
    if (n > 0) return true;
    // Lost (not ours any more) counts as released too.
    const held = await db.$queryRawUnsafe<unknown[]>(
      'SELECT 1 FROM webhook_subscriptions WHERE id = $1::uuid AND lease_owner = $2 AND enabled',
      id,
      owner,
    );
    return held.length === 0;
  }

  /** After an attempt: a success clears `failingSince`, a failure sets it if it was not set. */
  async recordAttempt(db: Db, id: string, succeeded: boolean, now: Date): Promise<Date | null> {
    const rows = await db.$queryRawUnsafe<Array<{ failing_since: Date | string | null }>>(
      succeeded
        ? `UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = $1::uuid AND failing_since IS NOT NULL AND $2::timestamptz IS NOT NULL RETURNING failing_since`
        : `UPDATE webhook_subscriptions SET failing_since = COALESCE(failing_since, $2::timestamptz) WHERE id = $1::uuid RETURNING failing_since`,
      id,
      now.toISOString(),
    );
    const since = rows[0]?.failing_since;
    return since ? new Date(since) : null;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toWebhook(r: Row): StoredWebhook {
  return {
    id: r.id,
    url: r.url,
    events: r.events,
    description: r.description,
    enabled: r.enabled,
    disabledReason: r.disabledReason,
    secret: r.secret,
    previousSecret: r.previousSecret,
    previousSecretUntil: r.previousSecretUntil,
    failingSince: r.failingSince,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
