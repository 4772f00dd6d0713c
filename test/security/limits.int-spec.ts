import { toAppError } from '../../src/kernel/errors/to-app-error';
import { openDatabase } from '../../src/kernel/persistence/database';
import { createTempDatabase } from '../../src/kernel/persistence/testing/temp-postgres';
import { testKeys } from '../support/api-keys';
import { send } from '../support/api-surface';
import { startTestApp, type TestApp } from '../support/test-app';

// Issue 7 limits that only PostgreSQL and Redis can show: a server-side statement timeout, and a rate
// limit window shared by two replicas through Redis (the embedded cases are in limits.e2e-spec.ts).
const keys = testKeys();

describe('rate limit shared by two replicas through Redis (postgres+redis)', () => {
  let app: TestApp;
  let replica: TestApp;
  beforeAll(async () => {
    app = await startTestApp('postgres+redis', { env: { API_KEYS: keys.env, RATE_LIMIT_PER_MINUTE: '5' } });
    replica = await startTestApp('postgres+redis', { shareWith: app });
  });
  afterAll(async () => {
    await replica?.close();
    await app?.close();
  });

  it('shares the window between replicas through Redis', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await send(`${(i % 2 ? replica : app).url}/v1/nodes`, 'GET', { headers: keys.headers.admin })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('database statement timeout (PostgreSQL)', () => {
  // createTempDatabase uses DATABASE_URL's server, or the standard local one.
  it('a statement running past DB_STATEMENT_TIMEOUT_MS is cancelled by the server and maps to 503 Unavailable, not 500', async () => {
    const temp = await createTempDatabase('tw_timeout');
    const database = await openDatabase({ databaseUrl: temp.url, dataDir: '.', statementTimeoutMs: 200 });
    try {
      const started = Date.now();
      const error = await database.prisma.$queryRawUnsafe('SELECT pg_sleep(5)').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(Date.now() - started).toBeLessThan(3000);
      expect(error).toBeDefined();
      const mapped = toAppError(error);
      expect({ kind: mapped.kind, message: mapped.message }).toEqual({
        kind: 'Unavailable',
        message: 'the database did not answer in time; retry later',
      });
      // Inside an interactive transaction too.
      const inTx = await database.prisma
        .$transaction((tx) => tx.$queryRawUnsafe('SELECT pg_sleep(5)'))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(toAppError(inTx).kind).toBe('Unavailable');
    } finally {
      await database.close();
      await temp.drop();
    }
  });
});
