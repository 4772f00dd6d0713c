// The embedded database in a thread of its own. PGlite is PostgreSQL compiled to WASM: every statement is CPU work
// in the thread that calls it, with no I/O to wait on. In the service's thread, an eviction sweep's or a taint's
// statements (tens of ms each at the bench's size) held every request and every event behind them, and PGlite's
// ~40,000 heap objects were marked by every full collection of the service's heap (bench/ANALYSIS.md). Here the
// service's thread only posts each driver-adapter call and reads its answer: Prisma's query compiler, the
// transactions and the rows stay where they were, PGlite and Prisma's PGlite adapter run in the worker.
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PrismaClient } from '../../generated/prisma/client';
import type { MigrationResult } from './migrations';
import {
  fromThreadError,
  type PgliteThreadOptions,
  type ThreadError,
  type ThreadMessage,
  type ThreadRequest,
} from './pglite-thread.protocol';

type AdapterFactory = NonNullable<ConstructorParameters<typeof PrismaClient>[0]['adapter']>;
type Adapter = Awaited<ReturnType<AdapterFactory['connect']>>;
type AdapterTransaction = Awaited<ReturnType<Adapter['startTransaction']>>;
/** A request before it is numbered: Omit over each member of the union (a type parameter distributes). */
type Unnumbered<R> = R extends unknown ? Omit<R, 'id'> : never;
type Request = Unnumbered<ThreadRequest>;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export interface PgliteThreadStart extends PgliteThreadOptions {
  log: (message: string) => void;
}

export class PgliteThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stopped: Error | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly worker: Worker,
    readonly migrations: MigrationResult,
    private readonly adapterInfo: { provider: 'postgres'; adapterName: string },
    private readonly connectionInfo: unknown,
  ) {
    worker.on('message', (message: ThreadMessage) => {
      if (message.kind === 'answer') this.settle(message.id, message.value, message.error);
    });
    worker.on('error', (error) => this.stop(error));
    worker.on('exit', (code) => this.stop(new Error(`the embedded database's thread ended (exit code ${code})`)));
    // Like a socket, the thread keeps the process alive only while a call waits for it.
    worker.unref();
  }

  /** Starts the thread, opens PGlite in `pgliteDir` and applies the migrations there; resolves when it answers. */
  static start(options: PgliteThreadStart): Promise<PgliteThread> {
    const { log, ...workerData } = options;
    const worker = spawnWorker(workerData);
    return new Promise((resolve, reject) => {
      const onMessage = (message: ThreadMessage) => {
        if (message.kind === 'log') log(message.message);
        else if (message.kind === 'ready') {
          worker.off('error', onError).off('exit', onExit);
          const thread = new PgliteThread(worker, message.migrations, message.adapter, message.connectionInfo);
          worker.on('message', (later: ThreadMessage) => later.kind === 'log' && log(later.message));
          worker.off('message', onMessage);
          resolve(thread);
        } else if (message.kind === 'failed') {
          worker.off('error', onError).off('exit', onExit).off('message', onMessage);
          void worker.terminate();
          reject(fromThreadError(message.error));
        }
      };
      const onError = (error: Error) => reject(error);
      const onExit = (code: number) =>
        reject(new Error(`the embedded database's thread ended while opening (exit code ${code})`));
      worker.on('message', onMessage).once('error', onError).once('exit', onExit);
    });
  }

  /** Plain SQL, each row an array of its columns (PGlite's own value parsing: text, numbers, Dates). */
  rows<R extends unknown[] = unknown[]>(sql: string, params?: unknown[]): Promise<R[]> {
    return this.call({ op: 'rows', sql, params }) as Promise<R[]>;
  }

  /** What Prisma is given: a driver adapter whose every call runs in the thread. */
  adapterFactory(): AdapterFactory {
    const adapter = this.adapter();
    return { ...this.adapterInfo, connect: () => Promise.resolve(adapter) };
  }

  /** Closes PGlite (its data flushed to the folder) and ends the thread. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.stopped) return;
      const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
      try {
        await this.call({ op: 'close' });
      } catch (error) {
        // PGlite could not close cleanly: the thread must not outlive the database's lock
        await this.worker.terminate();
        throw error;
      }
      // held until the thread has ended: a caller awaiting close() has nothing else keeping the process alive
      this.worker.ref();
      await exited;
    })();
    return this.closing;
  }

  private adapter(): Adapter {
    const info = this.adapterInfo;
    const call = (request: Request) => this.call(request);
    const connectionInfo = this.connectionInfo;
    const queryable = (tx?: number) => ({
      ...info,
      queryRaw: (query: Parameters<Adapter['queryRaw']>[0]) =>
        call({ op: 'queryRaw', query, tx }) as ReturnType<Adapter['queryRaw']>,
      executeRaw: (query: Parameters<Adapter['executeRaw']>[0]) =>
        call({ op: 'executeRaw', query, tx }) as ReturnType<Adapter['executeRaw']>,
    });
    return {
      ...queryable(),
      executeScript: (script) => call({ op: 'executeScript', script }) as Promise<void>,
      async startTransaction(isolationLevel) {
        const { tx, options } = (await call({ op: 'startTransaction', isolationLevel })) as {
          tx: number;
          options: AdapterTransaction['options'];
        };
        return {
          ...queryable(tx),
          options,
          commit: () => call({ op: 'commit', tx }) as Promise<void>,
          rollback: () => call({ op: 'rollback', tx }) as Promise<void>,
        };
      },
      getConnectionInfo: () => connectionInfo as ReturnType<NonNullable<Adapter['getConnectionInfo']>>,
      dispose: () => Promise.resolve(),
    };
  }

  private call(request: Request): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ ...request, id } as ThreadRequest);
    });
  }

  private settle(id: number, value: unknown, error: ThreadError | undefined): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
    if (error) pending.reject(fromThreadError(error));
    else pending.resolve(value);
  }

  private stop(reason: Error): void {
    this.stopped ??= reason;
    for (const pending of this.pending.values()) pending.reject(reason);
    this.pending.clear();
  }
}

/**
 * The worker runs the compiled file beside this one; from TypeScript sources (tests, `npm start`) it registers the
 * same on-the-fly compiler first, since a worker's `require` knows nothing of the parent thread's.
 */
function spawnWorker(workerData: PgliteThreadOptions): Worker {
  const extension = path.extname(__filename);
  const entry = path.join(__dirname, `pglite-thread.worker${extension}`);
  if (extension !== '.ts') return new Worker(entry, { workerData });
  return new Worker(`require('@swc-node/register'); require(${JSON.stringify(entry)});`, { eval: true, workerData });
}
