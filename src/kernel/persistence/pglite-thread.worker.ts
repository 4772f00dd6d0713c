// The embedded database's own thread (started by pglite-thread.ts): PGlite, the start-up migrations and Prisma's
// PGlite driver adapter live here, so a statement's WASM work runs beside the service's event loop, not in it.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { lowerThisThreadPriority } from '../runtime/thread-priority';
import { applyMigrations, nothingApplied, pgliteSession } from './migrations';
import {
  toThreadError,
  type PgliteThreadOptions,
  type ThreadMessage,
  type ThreadRequest,
} from './pglite-thread.protocol';

type Adapter = Awaited<ReturnType<PrismaPGlite['connect']>>;
type AdapterTransaction = Awaited<ReturnType<Adapter['startTransaction']>>;
type AdapterQuery = Parameters<Adapter['queryRaw']>[0];

async function serve(port: NonNullable<typeof parentPort>, options: PgliteThreadOptions): Promise<void> {
  const send = (message: ThreadMessage) => port.postMessage(message);
  let db: PGlite | undefined;
  let adapter: Adapter;
  try {
    const nice = lowerThisThreadPriority(options.nice ?? 0);
    if (nice !== undefined && nice > 0) send({ kind: 'log', message: `embedded database thread at nice ${nice}` });
    db = await PGlite.create({ dataDir: options.pgliteDir });
    const migrations = options.migrate
      ? await applyMigrations(pgliteSession(db), {
          migrationsDir: options.migrationsDir,
          log: (message) => send({ kind: 'log', message }),
        })
      : nothingApplied();
    const factory = new PrismaPGlite(db);
    adapter = await factory.connect();
    send({
      kind: 'ready',
      migrations,
      adapter: { provider: factory.provider, adapterName: factory.adapterName },
      connectionInfo: adapter.getConnectionInfo?.(),
    });
  } catch (error) {
    send({ kind: 'failed', error: toThreadError(error) });
    await db?.close().catch(() => undefined);
    port.close();
    return;
  }
  const pglite = db;
  const transactions = new Map<number, AdapterTransaction>();
  let nextTransaction = 1;

  const queryable = (tx: number | undefined) => {
    if (tx === undefined) return adapter;
    const transaction = transactions.get(tx);
    if (!transaction) throw new Error(`embedded database: transaction ${tx} is not open`);
    return transaction;
  };
  const end = (tx: number) => {
    const transaction = queryable(tx) as AdapterTransaction;
    transactions.delete(tx);
    return transaction;
  };

  async function perform(request: ThreadRequest): Promise<unknown> {
    switch (request.op) {
      case 'queryRaw':
        return queryable(request.tx).queryRaw(request.query as AdapterQuery);
      case 'executeRaw':
        return queryable(request.tx).executeRaw(request.query as AdapterQuery);
      case 'executeScript':
        return adapter.executeScript(request.script);
      case 'startTransaction': {
        const transaction = await adapter.startTransaction(request.isolationLevel as never);
        const tx = nextTransaction++;
        transactions.set(tx, transaction);
        return { tx, options: transaction.options };
      }
      case 'commit':
        return end(request.tx).commit();
      case 'rollback':
        return end(request.tx).rollback();
      case 'rows':
        return (await pglite.query<unknown[]>(request.sql, request.params ?? [], { rowMode: 'array' })).rows;
      case 'close':
        await adapter.dispose();
        await pglite.close();
        return undefined;
    }
  }

  // Requests are started in arrival order and may overlap, as on one in-thread PGlite: its own lock runs one
  // transaction at a time and makes other statements wait for it.
  port.on('message', (request: ThreadRequest) => {
    perform(request).then(
      (value) => {
        send({ kind: 'answer', id: request.id, value });
        if (request.op === 'close') port.close();
      },
      (error: unknown) => send({ kind: 'answer', id: request.id, error: toThreadError(error) }),
    );
  });
}

if (parentPort) void serve(parentPort, workerData as PgliteThreadOptions);
