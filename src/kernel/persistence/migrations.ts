// Applies prisma/migrations at start-up, without the Prisma CLI (which cannot download its native
// engine here). Rows go to `_prisma_migrations` exactly as `prisma migrate deploy` writes them (same
// table, same sha256 checksums, applied_steps_count = 1), so the Prisma CLI sees the same history
// should anyone run it against the database later.
//
// Differences from `prisma migrate deploy`, on purpose:
// - each migration and its history row commit in ONE transaction, so a failing migration leaves
//   nothing behind (Prisma records a failed row that blocks every later deploy until resolved);
//   consequence: a migration must not use statements that refuse to run in a transaction
//   (CREATE INDEX CONCURRENTLY, ALTER TYPE ... ADD VALUE before PostgreSQL 12);
// - a migration whose file changed after it was applied is reported (checksumMismatches), not fatal.
//
// Loaded both by the service (compiled) and by scripts/migrate.mjs (through @swc-node/register), so
// it imports nothing at run time but Node built-ins.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { ClientBase } from 'pg';

/** prisma/migrations, from src/kernel/persistence and from dist/kernel/persistence alike. */
export const DEFAULT_MIGRATIONS_DIR = path.resolve(__dirname, '..', '..', '..', 'prisma', 'migrations');

/**
 * The advisory lock `prisma migrate deploy` takes, so our runner and the Prisma CLI exclude each
 * other as well as two replicas starting at once.
 */
export const MIGRATION_ADVISORY_LOCK = 72707369;

/** One database session (the same connection for every call: transactions and locks are per session). */
export interface SqlSession {
  readonly kind: 'postgres' | 'pglite';
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Runs a script of several statements (simple query protocol, no parameters). */
  exec(script: string): Promise<void>;
}

export interface MigrationFile {
  /** directory name, e.g. 20261122023946_init; migrations apply in lexicographic order of it */
  name: string;
  sql: string;
  /** hex sha256 of the file's bytes, as Prisma computes it */
  checksum: string;
}

export interface MigrationResult {
  /** applied now, in order */
  applied: string[];
  /** found already applied */
  alreadyApplied: string[];
  /** applied earlier, but the file has changed since */
  checksumMismatches: string[];
  /** recorded in the database but absent here (a newer release already migrated it) */
  unknownApplied: string[];
}

/** What opening a database reports when it was told not to migrate (`migrate: false`). */
export function nothingApplied(): MigrationResult {
  return { applied: [], alreadyApplied: [], checksumMismatches: [], unknownApplied: [] };
}

export interface ApplyMigrationsOptions {
  migrationsDir?: string;
  log?: (message: string) => void;
}

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly migration?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MigrationError';
  }
}

// The DDL Prisma's schema engine uses for its history table (checked column by column against the
// table the engine itself creates).
const CREATE_HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export function migrationChecksum(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Reads `<dir>/<name>/migration.sql` for every migration directory, in apply order. */
export function readMigrations(migrationsDir: string = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  if (!existsSync(migrationsDir)) {
    throw new MigrationError(
      `migrations directory not found: ${migrationsDir} (it ships with the service: prisma/migrations)`,
    );
  }
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const file = path.join(migrationsDir, name, 'migration.sql');
      if (!existsSync(file)) throw new MigrationError(`migration ${name} has no migration.sql`, name);
      const bytes = readFileSync(file);
      return { name, sql: bytes.toString('utf8'), checksum: migrationChecksum(bytes) };
    });
}

interface HistoryRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
}

/**
 * Applies every migration not yet recorded as applied, each in its own transaction. On PostgreSQL it
 * holds Prisma's migration advisory lock throughout, so concurrent starters wait and then find
 * nothing left to do. Re-running is a no-op.
 */
export async function applyMigrations(
  session: SqlSession,
  options: ApplyMigrationsOptions = {},
): Promise<MigrationResult> {
  const log = options.log ?? (() => {});
  const migrations = readMigrations(options.migrationsDir);
  if (session.kind === 'postgres') await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_ADVISORY_LOCK]);
  try {
    await session.exec(CREATE_HISTORY_TABLE);
    const rows = await session.query<HistoryRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at',
    );
    const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null);
    if (failed.length > 0) {
      // Only the Prisma CLI leaves such rows (ours roll back whole). Same rule as Prisma's P3009.
      throw new MigrationError(
        `migration ${failed[0].migration_name} is recorded as failed in _prisma_migrations; resolve it ` +
          '(prisma migrate resolve --rolled-back <name>, or mark the row rolled back) before starting',
        failed[0].migration_name,
      );
    }
    const done = new Map(
      rows.filter((r) => r.finished_at !== null && r.rolled_back_at === null).map((r) => [r.migration_name, r]),
    );
    const local = new Set(migrations.map((m) => m.name));
    const result: MigrationResult = {
      applied: [],
      alreadyApplied: [],
      checksumMismatches: [],
      unknownApplied: [...done.keys()].filter((name) => !local.has(name)),
    };
    if (result.unknownApplied.length > 0) {
      log(
        `database has migrations this release does not know (a newer release ran?): ${result.unknownApplied.join(', ')}`,
      );
    }
    for (const migration of migrations) {
      const row = done.get(migration.name);
      if (row) {
        result.alreadyApplied.push(migration.name);
        if (row.checksum !== migration.checksum) {
          result.checksumMismatches.push(migration.name);
          log(`migration ${migration.name} was modified after it was applied (checksum differs); not re-applied`);
        }
        continue;
      }
      await applyOne(session, migration);
      result.applied.push(migration.name);
      log(`applied migration ${migration.name}`);
    }
    return result;
  } finally {
    if (session.kind === 'postgres') {
      await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_ADVISORY_LOCK]).catch(() => {});
    }
  }
}

async function applyOne(session: SqlSession, migration: MigrationFile): Promise<void> {
  const startedAt = new Date();
  await session.exec('BEGIN');
  try {
    await session.exec(migration.sql);
    await session.query(
      `INSERT INTO "_prisma_migrations"
         (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count)
       VALUES ($1, $2, clock_timestamp(), $3, NULL, NULL, $4, 1)`,
      [randomUUID(), migration.checksum, migration.name, startedAt.toISOString()],
    );
    await session.exec('COMMIT');
  } catch (error) {
    await session.exec('ROLLBACK').catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`migration ${migration.name} failed and was rolled back: ${reason}`, migration.name, {
      cause: error,
    });
  }
}

/** A session on one checked-out `pg` client (never a Pool: locks and transactions are per connection). */
export function pgSession(client: ClientBase): SqlSession {
  return {
    kind: 'postgres',
    async query<R>(sql: string, params?: unknown[]) {
      return (await client.query(sql, params)).rows as R[];
    },
    async exec(script: string) {
      await client.query(script);
    },
  };
}

/** A session on a PGlite instance (single connection; use it before anything else queries the instance). */
export function pgliteSession(db: PGlite): SqlSession {
  return {
    kind: 'pglite',
    async query<R>(sql: string, params?: unknown[]) {
      return (await db.query<R>(sql, params)).rows;
    },
    async exec(script: string) {
      await db.exec(script);
    },
  };
}
