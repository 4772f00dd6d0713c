// The messages between the service's thread and the embedded database's thread (pglite-thread.ts and
// pglite-thread.worker.ts), and how an error crosses between them: structured clone keeps an Error's message
// and stack but drops its class and own fields, and Prisma recognises a driver's error by its name and cause.
import { MigrationError, type MigrationResult } from './migrations';

/** What the worker is started with (`workerData`). */
export interface PgliteThreadOptions {
  /** the PGlite cluster's folder */
  pgliteDir: string;
  migrate: boolean;
  migrationsDir?: string;
  /** The thread's nice value (Linux; 0 leaves it as the process's): runtime/thread-priority.ts says why. */
  nice?: number;
}

/** Prisma's driver-adapter calls, each answered once; `tx` names an open transaction (absent: none). */
export type ThreadRequest =
  | { id: number; op: 'queryRaw' | 'executeRaw'; query: unknown; tx?: number }
  | { id: number; op: 'executeScript'; script: string }
  | { id: number; op: 'startTransaction'; isolationLevel?: string }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  /** plain SQL, rows as arrays (the snapshot's read, readiness) */
  | { id: number; op: 'rows'; sql: string; params?: unknown[] }
  /** closes PGlite; the worker ends after answering */
  | { id: number; op: 'close' };

export type ThreadMessage =
  | {
      kind: 'ready';
      migrations: MigrationResult;
      adapter: { provider: 'postgres'; adapterName: string };
      connectionInfo: unknown;
    }
  | { kind: 'failed'; error: ThreadError }
  | { kind: 'log'; message: string }
  | { kind: 'answer'; id: number; value?: unknown; error?: ThreadError };

export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  /** a driver adapter error's payload (its kind, the PostgreSQL code and message): what Prisma maps to P2002 etc. */
  cause?: unknown;
  code?: unknown;
  migration?: string;
}

export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const fields = error as Error & { code?: unknown; migration?: string };
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    // only a driver adapter error's cause is plain data; any other cause may hold what cannot be cloned
    cause: error.name === 'DriverAdapterError' ? error.cause : undefined,
    code: typeof fields.code === 'string' || typeof fields.code === 'number' ? fields.code : undefined,
    migration: error instanceof MigrationError ? error.migration : undefined,
  };
}

/** The error as the service's code expects it: the same name, message, code and Prisma-visible cause. */
export function fromThreadError(thrown: ThreadError): Error {
  const error =
    thrown.name === 'MigrationError' ? new MigrationError(thrown.message, thrown.migration) : new Error(thrown.message);
  error.name = thrown.name;
  if (thrown.cause !== undefined) Object.assign(error, { cause: thrown.cause });
  if (thrown.code !== undefined) Object.assign(error, { code: thrown.code });
  if (thrown.stack) error.stack = `${thrown.stack}\n    (in the embedded database's thread)`;
  return error;
}
