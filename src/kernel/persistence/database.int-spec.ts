import { openDatabase } from './database';
import { createTempDatabase, type TempDatabase } from './testing/temp-postgres';
import { MIGRATIONS, sharedDatabaseTests } from './database.contract';

jest.setTimeout(60_000);

describe('openDatabase with PostgreSQL', () => {
  let temp: TempDatabase;
  beforeAll(async () => {
    temp = await createTempDatabase();
  });
  afterAll(async () => {
    await temp?.drop();
  });

  describe('a fresh database', () => {
    sharedDatabaseTests(async () => {
      const started = Date.now();
      const db = await openDatabase({ databaseUrl: temp.url, dataDir: '/nonexistent', statementTimeoutMs: 7_000 });
      process.stdout.write(`PostgreSQL open+migrate ${Date.now() - started} ms\n`);
      expect(db.kind).toBe('postgres');
      expect(db.migrations.applied).toEqual(MIGRATIONS);
      expect(db.databaseUrl).toBe(temp.url);
      return db;
    });
  });

  it('reopens without re-applying, with statement_timeout set on pooled connections', async () => {
    const db = await openDatabase({ databaseUrl: temp.url, dataDir: '/nonexistent', statementTimeoutMs: 7_000 });
    try {
      expect(db.migrations.applied).toEqual([]);
      const [row] = await db.prisma.$queryRaw<{ statement_timeout: string }[]>`SHOW statement_timeout`;
      expect(row.statement_timeout).toBe('7s');
    } finally {
      await db.close();
    }
  });

  it('gives dedicated clients for LISTEN/NOTIFY', async () => {
    const db = await openDatabase({ databaseUrl: temp.url, dataDir: '/nonexistent' });
    const listener = await db.newPgClient();
    try {
      const received = new Promise<string | undefined>((resolve) =>
        listener.on('notification', (n) => resolve(n.payload)),
      );
      await listener.query('LISTEN taintwise_test');
      await db.prisma.$executeRaw`SELECT pg_notify('taintwise_test', 'hello')`;
      await expect(received).resolves.toBe('hello');
    } finally {
      await listener.end();
      await db.close();
    }
  });

  it('fails clearly when the server cannot be reached', async () => {
    const url = new URL(temp.url);
    url.port = '1';
    await expect(
      openDatabase({ databaseUrl: url.toString(), dataDir: '/nonexistent', connectionTimeoutMs: 1_000 }),
    ).rejects.toThrow(/cannot connect to PostgreSQL at .+:1\/taintwise_persist_\w+: .*ECONNREFUSED/);
  });
});
