import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WebhookAttempt } from '../../model/stored-webhook';
import { openDatabase, type Database } from '../database';
import { MARK_DELIVERED, markDeliveredParameters, WebhookDeliveryRepository } from './webhook-delivery.repository';

jest.setTimeout(120_000);

/** Pending rows behind the batches: the backlog a mark must not read. */
const BACKLOG = 4_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** Every node of a plan that reads webhook_deliveries (its table or one of its indexes), with the rows it read. */
function deliveryReads(node: PlanNode): Array<{ node: string; rows: number }> {
  const own =
    node['Relation Name'] === 'webhook_deliveries' || node['Index Name']?.startsWith('webhook_deliveries')
      ? [
          {
            node: `${node['Node Type']} ${node['Index Name'] ?? ''}`.trim(),
            rows: node['Actual Rows'] * node['Actual Loops'],
          },
        ]
      : [];
  return [...own, ...(node.Plans ?? []).flatMap(deliveryReads)];
}

describe('WebhookDeliveryRepository.markDelivered: acknowledged rows, found by id whatever the backlog', () => {
  const url = process.env.DATABASE_URL || undefined;
  const root = mkdtempSync(path.join(tmpdir(), 'taintwise-webhook-mark-'));
  const repo = new WebhookDeliveryRepository();
  let db: Database;
  let subscription: string;
  let ids: string[];

  beforeAll(async () => {
    db = await openDatabase({ databaseUrl: url, dataDir: path.join(root, 'data') });
    subscription = randomUUID();
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO webhook_subscriptions (id, url, secret, updated_at) VALUES ($1::uuid, 'http://127.0.0.1:9/hook', 'whsec_x', now())`,
      subscription,
    );
    const rows = await db.prisma.$queryRawUnsafe<Array<{ id: string }>>(
      `INSERT INTO webhook_deliveries (subscription_id, event_id, event_type)
       SELECT $1::uuid, g, 'EvictionScheduled' FROM generate_series(1, $2::int) g
       RETURNING id::text AS id`,
      subscription,
      BACKLOG,
    );
    ids = rows.map((r) => r.id).sort((a, b) => Number(a) - Number(b));
  });
  afterAll(async () => {
    await db?.prisma.$executeRawUnsafe(`DELETE FROM webhook_subscriptions WHERE id = $1::uuid`, subscription);
    await db?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const attempt = (i: number): WebhookAttempt => ({
    at: new Date(Date.UTC(2026, 10, 26, 2, 0, i)).toISOString(),
    latencyMs: 0.5 + i,
    statusCode: 200,
  });

  it('marks each Pending row once, with its attempt logged and its finish time, and answers the ids it marked', async () => {
    const batch = ids.slice(0, 3).map((id, i) => ({ id, attempt: attempt(i) }));
    expect((await repo.markDelivered(db.prisma, batch)).sort()).toEqual(ids.slice(0, 3).sort());
    // Answered twice (another replica, a retry): already Delivered, nothing changes.
    expect(await repo.markDelivered(db.prisma, batch)).toEqual([]);
    const stored = await db.prisma.webhookDelivery.findMany({
      where: { id: { in: ids.slice(0, 3).map(BigInt) } },
      orderBy: { id: 'asc' },
    });
    expect(
      stored.map((r) => ({ status: r.status, attempts: r.attempts, log: r.attemptLog, finishedAt: r.finishedAt })),
    ).toEqual(
      batch.map((b) => ({ status: 'Delivered', attempts: 1, log: [b.attempt], finishedAt: new Date(b.attempt.at) })),
    );
    // The rest of the backlog is untouched.
    expect(await db.prisma.webhookDelivery.count({ where: { subscriptionId: subscription, status: 'Pending' } })).toBe(
      BACKLOG - 3,
    );
  });

  it('reads only the batch’s own rows, not every Pending row (the plan of a 60-row mark over a 4,000-row backlog)', async () => {
    const batch = ids.slice(100, 160).map((id, i) => ({ id, attempt: attempt(i) }));
    const [{ 'QUERY PLAN': plan }] = await db.prisma.$queryRawUnsafe<Array<{ 'QUERY PLAN': unknown }>>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${MARK_DELIVERED}`,
      ...markDeliveredParameters(batch),
    );
    const root = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: PlanNode }>;
    const reads = deliveryReads(root[0].Plan);
    expect(reads.length).toBeGreaterThan(0);
    // With the join alone, a Seq Scan or a bitmap over the status index read all ~3,900 Pending rows here.
    expect(reads.filter((r) => r.rows > batch.length)).toEqual([]);
    expect(
      await db.prisma.webhookDelivery.count({
        where: { id: { in: batch.map((b) => BigInt(b.id)) }, status: 'Delivered' },
      }),
    ).toBe(60);
  });
});
