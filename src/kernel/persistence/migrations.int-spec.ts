import { Client } from 'pg';
import { applyMigrations, pgSession, readMigrations } from './migrations';
import { createTempDatabase } from './testing/temp-postgres';
import { historyRows, sharedMigrationTests } from './migrations.contract';

jest.setTimeout(60_000);

describe('applyMigrations on PostgreSQL', () => {
  sharedMigrationTests(async () => {
    const temp = await createTempDatabase();
    const client = new Client({ connectionString: temp.url });
    await client.connect();
    return {
      session: pgSession(client),
      close: async () => {
        await client.end();
        await temp.drop();
      },
    };
  });

  it('lets two replicas start at once: one applies, the other waits and finds it done', async () => {
    const fresh = await createTempDatabase();
    const clients = [new Client({ connectionString: fresh.url }), new Client({ connectionString: fresh.url })];
    try {
      await Promise.all(clients.map((c) => c.connect()));
      const results = await Promise.all(clients.map((c) => applyMigrations(pgSession(c))));
      const all = readMigrations().length;
      expect(results.map((r) => r.applied.length).sort()).toEqual([0, all]);
      expect(results.map((r) => r.alreadyApplied.length).sort()).toEqual([0, all]);
      expect(await historyRows(pgSession(clients[0]))).toHaveLength(all);
    } finally {
      await Promise.all(clients.map((c) => c.end().catch(() => {})));
      await fresh.drop();
    }
  });
});
