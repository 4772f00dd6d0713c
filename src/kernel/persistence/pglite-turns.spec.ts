import { PGlite } from '@electric-sql/pglite';
import { pgliteTakingTurns } from './pglite-turns';

jest.setTimeout(60_000);

/**
 * A real in-memory PGlite. What is checked is what the service relies on: other work (a request's callbacks, a
 * socket write) runs between a transaction's statements, which never wait for I/O on their own.
 */
describe('pgliteTakingTurns: the event loop turns between embedded statements', () => {
  let pglite: PGlite;
  beforeAll(async () => {
    pglite = await PGlite.create();
    await pglite.exec('CREATE TABLE t (n int)');
  });
  afterAll(async () => {
    await pglite?.close();
  });

  /** Runs three statements in a transaction; answers how many of them had run when an immediate callback ran. */
  async function statementsBeforeOtherWork(client: PGlite): Promise<number> {
    let done = 0;
    let seenAt = -1;
    setImmediate(() => (seenAt = done));
    await client.transaction(async (tx) => {
      for (let i = 0; i < 3; i++) {
        await tx.query('INSERT INTO t VALUES ($1)', [i]);
        done++;
      }
    });
    await new Promise((resolve) => setImmediate(resolve));
    return seenAt;
  }

  it('without it, a transaction runs to its end before anything else (the stall it removes)', async () => {
    expect(await statementsBeforeOtherWork(pglite)).toBe(3);
  });

  it('with it, other work runs before the transaction has finished, and every statement still runs in order', async () => {
    const before = (await pglite.query<{ c: number }>('SELECT count(*)::int AS c FROM t')).rows[0].c;
    expect(await statementsBeforeOtherWork(pgliteTakingTurns(pglite))).toBeLessThan(3);
    const rows = (await pglite.query<{ n: number }>('SELECT n FROM t')).rows.slice(before).map((r) => r.n);
    expect(rows).toEqual([0, 1, 2]);
  });

  it('answers queries outside a transaction and keeps the rest of the client (exec, closed state) working', async () => {
    const client = pgliteTakingTurns(pglite);
    expect((await client.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await client.exec('SELECT 1');
    expect(client.closed).toBe(false);
  });
});
