import { Prisma } from '../../generated/prisma/client';
import { type Database } from './database';
import { readMigrations } from './migrations';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const MIGRATIONS = readMigrations().map((m) => m.name);

/** Behaviour both storage kinds must share; `open` gives a freshly migrated, empty database. */
export function sharedDatabaseTests(open: () => Promise<Database>) {
  let db: Database;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('answers ping', async () => {
    await expect(db.ping()).resolves.toBeUndefined();
  });

  it('stores nodes with ordered taints, and cascades their deletion', async () => {
    await db.prisma.node.create({
      data: {
        name: 'n1',
        labels: { zone: 'a' },
        allocatable: { cpu: '4' },
        taints: {
          create: [
            { key: 'dedicated', value: 'gpu', effect: 'NoSchedule', position: 0 },
            { key: 'maintenance', effect: 'NoExecute', position: 1 },
          ],
        },
      },
    });
    const node = await db.prisma.node.findUniqueOrThrow({
      where: { name: 'n1' },
      include: { taints: { orderBy: { position: 'asc' } } },
    });
    expect(node.labels).toEqual({ zone: 'a' });
    expect(node.conditions).toEqual([]);
    expect(node.taints.map((t) => [t.key, t.value, t.effect])).toEqual([
      ['dedicated', 'gpu', 'NoSchedule'],
      ['maintenance', '', 'NoExecute'],
    ]);
    await db.prisma.node.delete({ where: { name: 'n1' } });
    expect(await db.prisma.taint.count({ where: { nodeName: 'n1' } })).toBe(0);
  });

  it('maps unique violations to P2002 (taints unique by node, key and effect)', async () => {
    await db.prisma.node.create({
      data: { name: 'n2', taints: { create: [{ key: 'k', effect: 'NoSchedule', position: 0 }] } },
    });
    const error = await db.prisma.taint
      .create({ data: { nodeName: 'n2', key: 'k', effect: 'NoSchedule', position: 1 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect((error as Prisma.PrismaClientKnownRequestError).code).toBe('P2002');
    await db.prisma.taint.create({ data: { nodeName: 'n2', key: 'k', effect: 'NoExecute', position: 1 } });
  });

  it('rolls an interactive transaction back when its callback throws', async () => {
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.node.create({ data: { name: 'doomed' } });
        await tx.event.create({
          data: { type: 'NodeUpserted', actor: 'test', subjectKind: 'Node', subjectName: 'doomed' },
        });
        expect(await tx.node.count({ where: { name: 'doomed' } })).toBe(1);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.prisma.node.count({ where: { name: 'doomed' } })).toBe(0);
    expect(await db.prisma.event.count({ where: { subjectName: 'doomed' } })).toBe(0);
  });

  it('rolls back when a statement inside the transaction fails (Scheduled eviction twice)', async () => {
    const eviction = {
      podUid: 'uid-9',
      namespace: 'default',
      podName: 'web-9',
      nodeName: 'n2',
      evictAt: new Date(),
      reason: 'test',
    };
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.event.create({
          data: { type: 'EvictionScheduled', actor: 'test', subjectKind: 'Pod', subjectName: 'default/web-9' },
        });
        await tx.eviction.create({ data: eviction });
        await tx.eviction.create({ data: eviction });
      }),
    ).rejects.toMatchObject({ code: 'P2002' });
    expect(await db.prisma.eviction.count({ where: { podUid: 'uid-9' } })).toBe(0);
    expect(await db.prisma.event.count({ where: { subjectName: 'default/web-9' } })).toBe(0);
  });

  it('serializes concurrent read-modify-write transactions and keeps queries outside them working', async () => {
    await db.prisma.node.create({ data: { name: 'counter', resourceVersion: 0 } });
    const increments = Array.from({ length: 10 }, () =>
      db.prisma.$transaction(
        async (tx) => {
          // Row lock on PostgreSQL; PGlite runs one transaction at a time anyway.
          await tx.$executeRaw`SELECT 1 FROM nodes WHERE name = 'counter' FOR UPDATE`;
          const node = await tx.node.findUniqueOrThrow({ where: { name: 'counter' } });
          await sleep(5);
          await tx.node.update({ where: { name: 'counter' }, data: { resourceVersion: node.resourceVersion + 1 } });
        },
        { maxWait: 20_000, timeout: 20_000 },
      ),
    );
    // Plain queries issued meanwhile, outside any transaction, complete and see committed states only.
    const reads = Array.from({ length: 10 }, async () => {
      const node = await db.prisma.node.findUniqueOrThrow({ where: { name: 'counter' } });
      return node.resourceVersion;
    });
    const [, seen] = await Promise.all([Promise.all(increments), Promise.all(reads)]);
    for (const version of seen) expect(version).toBeGreaterThanOrEqual(0);
    expect((await db.prisma.node.findUniqueOrThrow({ where: { name: 'counter' } })).resourceVersion).toBe(10);
  });

  it('stores events with bigint ids in insertion order', async () => {
    const a = await db.prisma.event.create({
      data: { type: 'NodeUpserted', actor: 'test', subjectKind: 'Node', subjectName: 'n2', data: { x: 1 } },
    });
    const b = await db.prisma.event.create({
      data: { type: 'NodeDeleted', actor: 'test', requestId: 'r-1', subjectKind: 'Node', subjectName: 'n2' },
    });
    expect(typeof a.id).toBe('bigint');
    expect(b.id > a.id).toBe(true);
  });
}
