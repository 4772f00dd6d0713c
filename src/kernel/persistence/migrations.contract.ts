import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, appendFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { applyMigrations, DEFAULT_MIGRATIONS_DIR, MigrationError, readMigrations, type SqlSession } from './migrations';

export const INIT = readMigrations()[0].name;
/** Every migration the service ships, in the order they apply. */
const ALL = readMigrations().map((m) => m.name);

export function tempMigrationsDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'taintwise-migrations-'));
  cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

export function addMigration(dir: string, name: string, sql: string): void {
  mkdirSync(path.join(dir, name));
  writeFileSync(path.join(dir, name, 'migration.sql'), sql);
}

export async function historyRows(session: SqlSession) {
  return session.query<{
    migration_name: string;
    checksum: string;
    applied_steps_count: number;
    finished_at: Date | null;
  }>(
    'SELECT migration_name, checksum, applied_steps_count, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
  );
}

/** The behaviour every backend must show; `session` starts on an empty database. */
export function sharedMigrationTests(open: () => Promise<{ session: SqlSession; close(): Promise<void> }>) {
  let db: { session: SqlSession; close(): Promise<void> };
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('applies every migration on an empty database and records it as Prisma does', async () => {
    const result = await applyMigrations(db.session);
    expect(result.applied).toEqual(readMigrations().map((m) => m.name));
    const rows = await historyRows(db.session);
    expect(rows).toEqual(
      ALL.map((name) =>
        expect.objectContaining({
          migration_name: name,
          checksum: createHash('sha256')
            .update(readFileSync(path.join(DEFAULT_MIGRATIONS_DIR, name, 'migration.sql')))
            .digest('hex'),
          applied_steps_count: 1,
        }),
      ),
    );
    for (const row of rows) expect(row.finished_at).not.toBeNull();
    const tables = await db.session.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    );
    expect(tables.map((t) => t.tablename)).toEqual([
      '_prisma_migrations',
      'events',
      'evictions',
      'nodes',
      'pod_disruption_budgets',
      'pods',
      'taints',
      'webhook_deliveries',
      'webhook_subscriptions',
    ]);
  });

  it('is a no-op the second time', async () => {
    const result = await applyMigrations(db.session);
    expect(result).toEqual({ applied: [], alreadyApplied: ALL, checksumMismatches: [], unknownApplied: [] });
    expect(await historyRows(db.session)).toHaveLength(ALL.length);
  });

  it('allows at most one Scheduled eviction per pod uid (partial unique index)', async () => {
    const insert = (status: string) =>
      db.session.query(
        `INSERT INTO evictions (id, pod_uid, namespace, pod_name, node_name, status, evict_at, reason)
         VALUES (gen_random_uuid(), 'uid-1', 'default', 'web-1', 'n1', $1::"EvictionStatus", now(), 'test')`,
        [status],
      );
    await insert('Scheduled');
    await expect(insert('Scheduled')).rejects.toMatchObject({ code: '23505' });
    await insert('Cancelled');
    await insert('Executed');
    await db.session.query(
      `UPDATE evictions SET status = 'Cancelled' WHERE pod_uid = 'uid-1' AND status = 'Scheduled'`,
    );
    await insert('Scheduled');
    const counts = await db.session.query<{ status: string; n: number }>(
      `SELECT status::text, count(*)::int AS n FROM evictions WHERE pod_uid = 'uid-1' GROUP BY status ORDER BY status`,
    );
    expect(counts).toEqual([
      { status: 'Cancelled', n: 2 },
      { status: 'Executed', n: 1 },
      { status: 'Scheduled', n: 1 },
    ]);
  });

  it('rolls back a failing migration whole and records nothing, then applies it once fixed', async () => {
    const dir = tempMigrationsDir();
    try {
      addMigration(dir, '20990101000000_broken', 'CREATE TABLE "half_done" (id int);\nSELECT 1/0;\n');
      const error = await applyMigrations(db.session, { migrationsDir: dir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as MigrationError).migration).toBe('20990101000000_broken');
      expect((error as Error).message).toMatch(/division by zero/);
      expect(await db.session.query("SELECT 1 FROM pg_tables WHERE tablename = 'half_done'")).toHaveLength(0);
      expect((await historyRows(db.session)).map((r) => r.migration_name)).toEqual(ALL);

      writeFileSync(path.join(dir, '20990101000000_broken', 'migration.sql'), 'CREATE TABLE "half_done" (id int);\n');
      const result = await applyMigrations(db.session, { migrationsDir: dir });
      expect(result.applied).toEqual(['20990101000000_broken']);
      expect(await db.session.query("SELECT 1 FROM pg_tables WHERE tablename = 'half_done'")).toHaveLength(1);

      // Back to the real directory: the extra migration is reported, not fatal.
      const back = await applyMigrations(db.session);
      expect(back.unknownApplied).toEqual(['20990101000000_broken']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a migration edited after it was applied, without re-applying it', async () => {
    const dir = tempMigrationsDir();
    try {
      appendFileSync(path.join(dir, INIT, 'migration.sql'), '\n-- edited\n');
      const result = await applyMigrations(db.session, { migrationsDir: dir });
      expect(result.applied).toEqual([]);
      expect(result.checksumMismatches).toEqual([INIT]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start over a migration the Prisma CLI recorded as failed', async () => {
    await db.session.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ('00000000-0000-4000-8000-000000000000', 'x', '20990202000000_failed', now(), 0)`,
    );
    await expect(applyMigrations(db.session)).rejects.toThrow(/20990202000000_failed is recorded as failed/);
    await db.session.query(
      `UPDATE "_prisma_migrations" SET rolled_back_at = now() WHERE migration_name = '20990202000000_failed'`,
    );
    await expect(applyMigrations(db.session)).resolves.toMatchObject({ applied: [] });
  });
}
