import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../database';

/**
 * The database a repository spec runs on, opened before the suite and closed (its folder removed) after it:
 * PostgreSQL when DATABASE_URL names a migrated database (CI's server-backed tier), else an embedded PGlite in a
 * fresh temporary folder. Call it in a `describe`; the function it returns gives the open database in the tests.
 */
export function specDatabase(name: string): () => Database {
  const root = mkdtempSync(path.join(tmpdir(), `taintwise-${name}-`));
  let db: Database | undefined;
  beforeAll(async () => {
    db = await openDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: path.join(root, 'data') });
  });
  afterAll(async () => {
    await db?.close();
    rmSync(root, { recursive: true, force: true });
  });
  return () => {
    if (!db) throw new Error(`the ${name} spec database is not open (use it inside a test or a later beforeAll)`);
    return db;
  };
}
