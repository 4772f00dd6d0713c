import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, appendFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import {
  applyMigrations,
  DEFAULT_MIGRATIONS_DIR,
  MigrationError,
  pgliteSession,
  pgSession,
  readMigrations,
  type SqlSession,
} from './migrations';
import { createTempDatabase } from './testing/temp-postgres';
import { INIT, tempMigrationsDir, addMigration, historyRows, sharedMigrationTests } from './migrations.contract';

jest.setTimeout(60_000);


describe('applyMigrations on PGlite', () => {
  sharedMigrationTests(async () => {
    const db = await PGlite.create();
    return { session: pgliteSession(db), close: () => db.close() };
  });
});
