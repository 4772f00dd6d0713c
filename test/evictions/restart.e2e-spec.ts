import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createTempDatabase, type TempDatabase } from '../../src/kernel/persistence/testing/temp-postgres';
import { freshDataDir } from '../support/pglite-template';
import { deleteRedisKeys, testModes } from '../support/test-modes';
import { call, freePort, startChildServer, type ChildServer } from './child-server';
import { noExecute } from './support';

// Issue 5 / SEMANTICS A.3-A.5: kill -9 the real server with evictions pending, restart it: the clocks
// are in the database, so each eviction fires once — on its original evictAt, or at once if overdue.
// Embedded: in-process timers die with the process and the start-up reconciler re-arms them from the
// rows (and the PGlite lock of the killed process must not block the restart). PostgreSQL + Redis:
// the BullMQ jobs survive in Redis.
describe.each(testModes())('restart after SIGKILL (%s)', (mode) => {
  let env: Record<string, string>;
  let db: TempDatabase | undefined;
  let server: ChildServer | undefined;

  beforeAll(async () => {
    if (mode === 'embedded') env = { DATA_DIR: freshDataDir() };
    else {
      db = await createTempDatabase('tw_restart');
      env = {
        DATABASE_URL: db.url,
        REDIS_URL: process.env.REDIS_URL!,
        REDIS_PREFIX: `tw-restart-${randomBytes(4).toString('hex')}`,
      };
    }
  });
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    if (env.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
    await db?.drop().catch(() => undefined);
    if (env.REDIS_PREFIX) await deleteRedisKeys(env.REDIS_URL, env.REDIS_PREFIX);
  });

  it('pending evictions fire once after a restart: overdue ones at once, future ones at their original evictAt', async () => {
    const port = await freePort();
    const startedAt = Date.now();
    server = await startChildServer(port, env);
    // The future eviction must still be in the future when the restarted server is ready: 25 s on a quiet
    // machine (a start takes ~6 s), more when this machine is slow enough that a start takes longer (the
    // restart comes ~2.5 s after the taint and may take twice as long as this first start).
    const future = Math.max(25, Math.ceil((2500 + 2 * (Date.now() - startedAt) + 3000) / 1000));
    const url = server.url;
    await call(url, 'PUT', '/v1/nodes/r1', {});
    await call(url, 'PUT', '/v1/namespaces/default/pods/overdue', {
      nodeName: 'r1',
      tolerations: [noExecute('maint', 2)],
    });
    await call(url, 'PUT', '/v1/namespaces/default/pods/future', {
      nodeName: 'r1',
      tolerations: [noExecute('maint', future)],
    });
    const tainted = await call(url, 'POST', '/v1/taints', { nodes: ['r1'], taints: ['maint:NoExecute'] });
    expect(tainted.evictions).toEqual({ immediate: 0, scheduled: 2, cancelled: 0, retimed: 0, held: 0 });
    const timeAdded = Date.parse(tainted.nodes[0].taints[0].timeAdded);
    if (mode === 'embedded')
      expect(readFileSync(join(env.DATA_DIR, 'pglite.lock'), 'utf8')).toBe(String(server.process.pid));

    await server.kill9();
    server = undefined;
    // stay down past the first deadline
    await new Promise((r) => setTimeout(r, Math.max(0, timeAdded + 2500 - Date.now())));
    const restartedAt = Date.now();
    server = await startChildServer(port, env);
    const readyAt = Date.now();
    expect(readyAt).toBeLessThan(timeAdded + future * 1000 - 3000); // the future one is still in the future

    const rows = async () => (await call(server!.url, 'GET', '/v1/evictions?node=r1')).items as any[];
    const byPod = async () => Object.fromEntries((await rows()).map((e) => [e.pod.name, e]));
    // the overdue one fires at once after start-up (the reconciler, or the surviving BullMQ job)
    for (let t = Date.now(); (await byPod()).overdue.status !== 'Executed';) {
      if (Date.now() - t > 10_000) throw new Error('overdue eviction did not fire after the restart');
      await new Promise((r) => setTimeout(r, 100));
    }
    let state = await byPod();
    expect(Date.parse(state.overdue.evictAt)).toBe(timeAdded + 2000);
    expect(Date.parse(state.overdue.executedAt)).toBeGreaterThanOrEqual(restartedAt);
    expect(Date.parse(state.overdue.executedAt)).toBeLessThan(readyAt + 5000);
    expect(state.future.status).toBe('Scheduled');
    expect(Date.parse(state.future.evictAt)).toBe(timeAdded + future * 1000);

    await new Promise((r) => setTimeout(r, Math.max(0, timeAdded + future * 1000 - Date.now() + 1200)));
    state = await byPod();
    expect(state.future.status).toBe('Executed');
    const lag = Date.parse(state.future.executedAt) - Date.parse(state.future.evictAt);
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(1000);
    expect((await rows()).length).toBe(2);
    const executed = await call(server.url, 'GET', '/v1/events/history?types=EvictionExecuted');
    expect(executed.items.map((e: any) => e.subjectName).sort()).toEqual(['default/future', 'default/overdue']);
    const pod = await call(server.url, 'GET', '/v1/namespaces/default/pods/future');
    expect(pod).toMatchObject({ nodeName: null, phase: 'Evicted' });
  });
});
