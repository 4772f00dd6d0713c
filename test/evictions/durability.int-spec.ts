import { EvictionWorker } from '../../src/evictions/eviction-worker';
import { evictionTimer } from '../../src/evictions/eviction-timer-id';
import { UnitOfWork } from '../../src/kernel/persistence/unit-of-work';
import { eventually, startTestApp, type TestApp } from '../support/test-app';
import { evictions, noExecute, putNode, putPod, sleep, taint } from './support';

// Eviction durability where only PostgreSQL can show it: row locks held by another session, and a
// second replica on the same database and Redis (the PostgreSQL + Redis tier; the embedded cases are
// in durability.e2e-spec.ts).
describe('eviction durability across sessions and replicas (postgres+redis)', () => {
  const mode = 'postgres+redis';
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(mode);
  });
  afterAll(async () => {
    await app?.close();
  });

  // PGlite has one connection: a transaction held open by the test would block the sweep, not be
  // skipped by it. PostgreSQL: a due row whose node a mutation holds is skipped (SKIP LOCKED, no
  // waiting) and swept again once the node is free — executed once, never before the lock is gone.
  it('a due eviction on a node held by an open transaction is executed once that transaction ends', async () => {
    await putNode(app, 'k1');
    await putPod(app, 'ns-k', 'p', { nodeName: 'k1', tolerations: [noExecute('maint', 1)] });
    const r = await taint(app, { nodes: ['k1'], taints: ['maint:NoExecute'] });
    const evictAt = Date.parse(r.nodes[0].taints[0].timeAdded) + 1000;
    let releasedAt = 0;
    await app.app.get(UnitOfWork).db.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe(`SELECT name FROM nodes WHERE name = 'k1' FOR UPDATE`);
        // the timer fires and the sweep finds the node held while we wait past the deadline
        await sleep(Math.max(0, evictAt - Date.now()) + 800);
        expect((await evictions(app, 'node=k1'))[0].status).toBe('Scheduled');
        releasedAt = Date.now();
      },
      { timeout: 15_000 },
    );
    await eventually(async () => expect((await evictions(app, 'node=k1'))[0].status).toBe('Executed'), 3000, 50);
    const [row] = await evictions(app, 'node=k1');
    expect(Date.parse(row.executedAt)).toBeGreaterThanOrEqual(releasedAt - 50);
    expect(Date.parse(row.executedAt) - releasedAt).toBeLessThan(1500);
    const executed = await app.request('GET', '/v1/events/history?types=EvictionExecuted&subjectName=ns-k/p');
    expect(executed.body.items).toHaveLength(1);
  });

  // Embedded PGlite is one process's database: there is no second replica to run in that mode.
  it('two replicas on one database and Redis: every eviction exactly once', async () => {
    const b = await startTestApp(mode, { shareWith: app });
    try {
      await putNode(app, 'x1');
      await putNode(app, 'x2');
      for (let i = 0; i < 20; i++)
        await putPod(i % 2 ? app : b, 'ns-x', `p${i}`, {
          nodeName: i % 2 ? 'x1' : 'x2',
          tolerations: [noExecute('maint', 1 + (i % 3))],
        });
      await putPod(app, 'ns-x', 'now', { nodeName: 'x1' });
      const [r1, r2] = await Promise.all([
        taint(app, { nodes: ['x1'], taints: ['maint:NoExecute'] }),
        taint(b, { nodes: ['x2'], taints: ['maint:NoExecute'] }),
      ]);
      expect(r1.evictions.immediate + r2.evictions.immediate).toBe(1);
      expect(r1.evictions.scheduled + r2.evictions.scheduled).toBe(20);
      // both replicas fire the same due rows by hand as well: the locks make the extra firings no-ops
      await sleep(3200);
      const rows = [...(await evictions(app, 'node=x1')), ...(await evictions(app, 'node=x2'))];
      await Promise.all(
        rows.flatMap((row) =>
          [app, b].map((replica) => replica.app.get(EvictionWorker).handle(evictionTimer(new Date(row.evictAt)))),
        ),
      );
      await eventually(
        async () => expect((await evictions(b, 'namespace=ns-x&status=Executed')).length).toBe(21),
        8000,
        100,
      );
      await sleep(500);
      const executed = await b.request('GET', '/v1/events/history?types=EvictionExecuted&limit=5000');
      const names = executed.body.items.map((e: any) => e.subjectName).filter((n: string) => n.startsWith('ns-x/'));
      expect(names).toHaveLength(21);
      expect(new Set(names).size).toBe(21);
      expect(await evictions(app, 'namespace=ns-x&status=Scheduled')).toEqual([]);
      // replica b heard a's evictions through the change feed
      await eventually(
        async () => expect((await b.request('GET', '/v1/pods?nodeName=x1')).body.items).toEqual([]),
        3000,
        50,
      );
    } finally {
      await b.close();
    }
  });
});
