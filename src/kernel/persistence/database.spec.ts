import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrateDatabase, openDatabase } from './database';
import { MIGRATIONS, sharedDatabaseTests } from './database.contract';

jest.setTimeout(60_000);

describe('openDatabase with PGlite', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'taintwise-pglite-'));
  const dataDir = path.join(root, 'data');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  describe('a fresh data folder', () => {
    sharedDatabaseTests(async () => {
      const started = Date.now();
      const db = await openDatabase({ dataDir });
      // Cold start (initdb + migrations); reported, not asserted: see bench for timings.
      process.stdout.write(`PGlite cold start ${Date.now() - started} ms\n`);
      expect(db.kind).toBe('pglite');
      expect(db.migrations.applied).toEqual(MIGRATIONS);
      expect(db.databaseUrl).toBeUndefined();
      return db;
    });
  });

  it('keeps its data across close and reopen, without re-applying migrations', async () => {
    expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
    const started = Date.now();
    const db = await openDatabase({ dataDir });
    process.stdout.write(`PGlite warm start ${Date.now() - started} ms\n`);
    try {
      expect(db.migrations).toEqual({
        applied: [],
        alreadyApplied: MIGRATIONS,
        checksumMismatches: [],
        unknownApplied: [],
      });
      expect(await db.prisma.node.findMany({ orderBy: { name: 'asc' }, select: { name: true } })).toEqual([
        { name: 'counter' },
        { name: 'n2' },
      ]);
      expect(await db.prisma.taint.count({ where: { nodeName: 'n2' } })).toBe(2);
    } finally {
      await db.close();
    }
  });

  it('refuses a second opener of the same data folder while the first is open', async () => {
    const db = await openDatabase({ dataDir });
    try {
      await expect(openDatabase({ dataDir })).rejects.toThrow(/in use by this process/);
      await expect(migrateDatabase({ dataDir })).rejects.toThrow(/in use/);
    } finally {
      await db.close();
    }
    // Released on close.
    await expect(migrateDatabase({ dataDir })).resolves.toMatchObject({ applied: [] });
  });

  it('has no PostgreSQL server for dedicated clients', async () => {
    const db = await openDatabase({ dataDir });
    try {
      await expect(db.newPgClient()).rejects.toThrow(/PGlite/);
      expect(await db.embedded?.rows('SELECT 1')).toEqual([[1]]);
    } finally {
      await db.close();
    }
  });
});
