// Opens the inventory database: PostgreSQL through @prisma/adapter-pg when a URL is given (production,
// several replicas), else an embedded PGlite in a data folder (the zero-setup default). Either way the
// migrations in prisma/migrations are applied before the client is handed out, and the same Prisma
// schema and queries serve both.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool, Client, type PoolConfig } from 'pg';
import { PrismaClient } from '../../generated/prisma/client';
import { applyMigrations, nothingApplied, pgSession, type MigrationResult } from './migrations';
import { PgliteThread } from './pglite-thread';

export type DatabaseKind = 'postgres' | 'pglite';

export interface OpenDatabaseOptions {
  /** postgres:// URL; absent or empty: embedded PGlite in `dataDir` */
  databaseUrl?: string;
  /** data folder (created if missing); PGlite keeps its cluster in <dataDir>/pglite. Ignored with a URL. */
  dataDir: string;
  log?: (message: string) => void;
  /** server-side statement_timeout for every pooled connection (PostgreSQL). Default 15 s. */
  statementTimeoutMs?: number;
  /** time to wait for a new connection (PostgreSQL). Default 5 s. */
  connectionTimeoutMs?: number;
  /** pool size (PostgreSQL). Default 10. */
  poolSize?: number;
  /** Prisma interactive-transaction defaults. Default { maxWait: 5 s, timeout: 15 s }. */
  transactionOptions?: { maxWait?: number; timeout?: number };
  /** apply prisma/migrations before returning. Default true. */
  migrate?: boolean;
  migrationsDir?: string;
  /** application_name shown in pg_stat_activity. Default "taintwise". */
  applicationName?: string;
  /** The embedded database thread's nice value (Linux): runtime/thread-priority.ts. Default 0 (unchanged). */
  embeddedThreadNice?: number;
}

/**
 * An open inventory database.
 *
 * PGlite is ONE connection: its adapter runs one transaction at a time, and a query issued outside a
 * transaction waits until the running one ends. So inside `prisma.$transaction(async (tx) => ...)`
 * use `tx` only: a query on `prisma` there waits for the transaction that waits for it, until the
 * transaction's `timeout` fails it (P2028). On PostgreSQL the same mistake silently runs outside the
 * transaction; the tests on both storages catch it.
 */
export interface Database {
  readonly kind: DatabaseKind;
  readonly prisma: PrismaClient;
  /**
   * The PostgreSQL URL (kind 'postgres'), for a dedicated LISTEN connection: LISTEN needs a session of
   * its own, not a pooled one. Undefined on PGlite.
   */
  readonly databaseUrl?: string;
  /** The embedded database's thread (kind 'pglite'): plain SQL with rows as arrays, beside Prisma's client. */
  readonly embedded?: Pick<PgliteThread, 'rows'>;
  /** What start-up migration did. */
  readonly migrations: MigrationResult;
  /** A dedicated (unpooled) pg client with the same settings; the caller ends it. PostgreSQL only. */
  newPgClient(): Promise<Client>;
  /** Resolves when the database answers `SELECT 1`; rejects otherwise (readiness). */
  ping(): Promise<void>;
  /** Disconnects Prisma and closes the pool or the PGlite instance. Idempotent. */
  close(): Promise<void>;
}

const DEFAULTS = {
  statementTimeoutMs: 15_000,
  connectionTimeoutMs: 5_000,
  poolSize: 10,
  transactionOptions: { maxWait: 5_000, timeout: 15_000 },
  applicationName: 'taintwise',
};

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options);
}

function pgConfig(databaseUrl: string, options: OpenDatabaseOptions): PoolConfig {
  return {
    connectionString: databaseUrl,
    application_name: options.applicationName ?? DEFAULTS.applicationName,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? DEFAULTS.connectionTimeoutMs,
    statement_timeout: options.statementTimeoutMs ?? DEFAULTS.statementTimeoutMs,
    // A transaction left open by a crashed request must not hold row locks forever.
    idle_in_transaction_session_timeout: Math.max(
      60_000,
      (options.transactionOptions?.timeout ?? DEFAULTS.transactionOptions.timeout) * 2,
    ),
    keepAlive: true,
  };
}

async function openPostgres(databaseUrl: string, options: OpenDatabaseOptions): Promise<Database> {
  const log = options.log ?? (() => {});
  const config = pgConfig(databaseUrl, options);
  let migrations = nothingApplied();
  if (options.migrate !== false) {
    // Migrations run on their own connection without statement_timeout: DDL on a big table may be slow.
    const client = await connectClient({ ...config, statement_timeout: undefined });
    try {
      migrations = await applyMigrations(pgSession(client), { migrationsDir: options.migrationsDir, log });
    } finally {
      await client.end().catch(() => {});
    }
  }
  const pool = new Pool({ ...config, max: options.poolSize ?? DEFAULTS.poolSize, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (server restart) emits 'error' on the pool; without a
  // listener that would crash the process. The pool replaces the client on the next checkout.
  pool.on('error', (err) => log(`postgres pool: idle connection error: ${err.message}`));
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool),
    transactionOptions: { ...DEFAULTS.transactionOptions, ...options.transactionOptions },
  });
  // Loads the query compiler now (~0.3 s) rather than in the first request, and proves the pool works.
  await prisma.$connect().catch(async (error: unknown) => {
    await pool.end().catch(() => {});
    throw error;
  });
  let closed: Promise<void> | undefined;
  return {
    kind: 'postgres',
    prisma,
    databaseUrl,
    migrations,
    newPgClient() {
      return connectClient(config);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    close() {
      closed ??= (async () => {
        await prisma.$disconnect().catch(() => {});
        await pool.end();
      })();
      return closed;
    },
  };
}

/** Connects one client; the error names the server (never the password). */
async function connectClient(config: PoolConfig): Promise<Client> {
  const client = new Client(config);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    const url = new URL(config.connectionString ?? 'postgres://unknown');
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot connect to PostgreSQL at ${url.host}${url.pathname}: ${reason}`, { cause: error });
  }
  return client;
}

/**
 * Applies the migrations and closes again, without a Prisma client (scripts/migrate.mjs,
 * `npm run migrate`). Same database choice as openDatabase.
 */
export async function migrateDatabase(options: Omit<OpenDatabaseOptions, 'migrate'>): Promise<MigrationResult> {
  const log = options.log ?? (() => {});
  if (options.databaseUrl) {
    const client = await connectClient({ ...pgConfig(options.databaseUrl, options), statement_timeout: undefined });
    try {
      return await applyMigrations(pgSession(client), { migrationsDir: options.migrationsDir, log });
    } finally {
      await client.end().catch(() => {});
    }
  }
  const { thread, releaseLock } = await startPgliteThread(options.dataDir, { migrate: true, ...options }, log);
  try {
    return thread.migrations;
  } finally {
    await thread.close().catch(() => {});
    releaseLock();
  }
}

/**
 * The cluster lives in <dataDir>/pglite (the data folder may hold other things), next to its lock; PGlite runs in a
 * thread of its own (pglite-thread.ts), which applies the migrations before it answers.
 */
async function startPgliteThread(
  dataDirOption: string,
  options: { migrate: boolean; migrationsDir?: string; embeddedThreadNice?: number },
  log: (message: string) => void,
): Promise<{ thread: PgliteThread; releaseLock: () => void }> {
  const dataDir = path.resolve(dataDirOption);
  mkdirSync(dataDir, { recursive: true });
  const releaseLock = lockDataDir(dataDir);
  try {
    const thread = await PgliteThread.start({
      pgliteDir: path.join(dataDir, 'pglite'),
      migrate: options.migrate,
      migrationsDir: options.migrationsDir,
      nice: options.embeddedThreadNice,
      log,
    });
    return { thread, releaseLock };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

async function openPglite(options: OpenDatabaseOptions): Promise<Database> {
  const log = options.log ?? (() => {});
  const { thread, releaseLock } = await startPgliteThread(
    options.dataDir,
    { ...options, migrate: options.migrate !== false },
    log,
  );
  try {
    const prisma = new PrismaClient({
      adapter: thread.adapterFactory(),
      transactionOptions: { ...DEFAULTS.transactionOptions, ...options.transactionOptions },
    });
    await prisma.$connect();
    let closed: Promise<void> | undefined;
    return {
      kind: 'pglite',
      prisma,
      embedded: thread,
      migrations: thread.migrations,
      newPgClient() {
        return Promise.reject(
          new Error('newPgClient: the embedded database (PGlite) has no PostgreSQL server to connect to'),
        );
      },
      async ping() {
        await thread.rows('SELECT 1');
      },
      close() {
        closed ??= (async () => {
          try {
            await prisma.$disconnect().catch(() => {});
            await thread.close();
          } finally {
            releaseLock();
          }
        })();
        return closed;
      },
    };
  } catch (error) {
    await thread.close().catch(() => {});
    releaseLock();
    throw error;
  }
}

/**
 * PGlite is one in-process PostgreSQL: two processes on one data folder would corrupt it, and
 * PGlite does not guard against that itself. A pid file does: a live owner makes opening fail, a
 * stale one (crashed process) is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = path.join(dataDir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(readFileSync(lockFile, 'utf8'), 10);
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        const who = owner === process.pid ? 'this process' : `process ${owner}`;
        throw new Error(
          `data folder ${dataDir} is in use by ${who} (embedded PGlite allows one process; use DATABASE_URL for several)`,
          { cause: error },
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`could not lock data folder ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
