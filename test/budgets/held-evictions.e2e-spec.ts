import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createTempDatabase, type TempDatabase } from '../../src/kernel/persistence/testing/temp-postgres';
import { call, freePort, startChildServer, type ChildServer } from '../evictions/child-server';
import { freshDataDir } from '../support/pglite-template';
import { deleteRedisKeys, eventually, startTestApp, testModes, type TestApp } from '../support/test-app';

jest.setTimeout(120_000);

// Issue 13: budget-respecting NoExecute (SEMANTICS B.9.6). Evictions that would take a budget below
// desiredHealthy are held (status Held, an EvictionHeld event), released oldest first as soon as the budget
// allows (EvictionReleased then EvictionExecuted), and survive a SIGKILL restart.
describe.each(testModes())('held evictions (%s)', (mode) => {
  let app: TestApp;
  const web = (name: string) =>
    app.request('PUT', `/v1/namespaces/shop/pods/${name}`, {
      nodeName: 'n1',
      phase: 'Running',
      labels: { app: 'web' },
      owner: { kind: 'ReplicaSet', name: 'web-rs' },
    });
  const budget = (spec: Record<string, unknown>) =>
    app.request('PUT', '/v1/namespaces/shop/poddisruptionbudgets/web', {
      spec: { ...spec, selector: { matchLabels: { app: 'web' } } },
    });
  const rows = async (status: string) =>
    (await app.request('GET', `/v1/evictions?namespace=shop&status=${status}`)).body.items as any[];

  beforeAll(async () => {
    app = await startTestApp(mode);
    expect((await app.request('PUT', '/v1/nodes/n1', {})).status).toBe(201);
    for (const name of ['web-1', 'web-2', 'web-3']) expect((await web(name)).status).toBe(201);
    expect((await budget({ minAvailable: 2 })).status).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
  });

  const taint = { nodes: ['n1'], taints: ['maintenance=true:NoExecute'], respectDisruptionBudgets: true };

  it('a dry run counts what would be held', async () => {
    const r = await app.request('POST', '/v1/taints', { ...taint, dryRun: true });
    expect(r.status).toBe(200);
    expect(r.body.evictions).toEqual({ immediate: 1, scheduled: 0, cancelled: 0, retimed: 0, held: 2 });
  });

  it('evicts what the budget allows and holds the rest, with events', async () => {
    const r = await app.request('POST', '/v1/taints', taint);
    expect(r.status).toBe(200);
    expect(r.body.evictions).toEqual({ immediate: 1, scheduled: 0, cancelled: 0, retimed: 0, held: 2 });
    expect(r.body.nodes[0].taints[0]).toMatchObject({ key: 'maintenance', respectDisruptionBudgets: true });
    // Oldest deadline first, then by name: web-1 went, web-2 and web-3 wait.
    expect((await rows('Executed')).map((e) => e.pod.name)).toEqual(['web-1']);
    const held = await rows('Held');
    expect(held.map((e) => e.pod.name).sort()).toEqual(['web-2', 'web-3']);
    for (const row of held) expect(row).toMatchObject({ heldBy: ['shop/web'], node: 'n1' });
    expect((await app.request('GET', '/v1/namespaces/shop/pods/web-2')).body).toMatchObject({
      phase: 'Running',
      nodeName: 'n1',
    });
    const events = await app.request('GET', '/v1/events/history?types=EvictionHeld');
    expect(events.body.items.map((e: any) => e.subjectName).sort()).toEqual(['shop/web-2', 'shop/web-3']);
    expect(events.body.items[0].data).toMatchObject({ budgets: ['shop/web'], node: 'n1' });
    const gql = await app.graphql('{ evictions(status: Held) { edges { node { pod { name } status heldBy } } } }');
    expect(gql.body.data.evictions.edges).toHaveLength(2);
  });

  it('releases held evictions oldest first as soon as the budget allows, and no earlier', async () => {
    // minAvailable 1: one more may go (3 expected, 2 healthy).
    expect((await budget({ minAvailable: 1 })).status).toBe(200);
    await eventually(async () => expect(await rows('Held')).toHaveLength(1));
    expect((await rows('Executed')).map((e) => e.pod.name).sort()).toEqual(['web-1', 'web-2']);
    const released = await app.request('GET', '/v1/events/history?types=EvictionReleased');
    expect(released.body.items.map((e: any) => e.subjectName)).toEqual(['shop/web-2']);
    // Deleting the budget lets the last one go.
    expect((await app.request('DELETE', '/v1/namespaces/shop/poddisruptionbudgets/web')).status).toBe(204);
    await eventually(async () => expect(await rows('Held')).toHaveLength(0));
    expect((await app.request('GET', '/v1/namespaces/shop/pods/web-3')).body.phase).toBe('Evicted');
  });

  it('removing the taint cancels a held eviction', async () => {
    expect(
      (
        await app.request('PUT', '/v1/namespaces/shop/poddisruptionbudgets/only', {
          spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
        })
      ).status,
    ).toBe(201);
    expect((await web('web-4')).status).toBe(201);
    // web-4 is now the only healthy pod, and it may not go: held at once (the taint is already there).
    await eventually(async () => expect((await rows('Held')).map((e) => e.pod.name)).toEqual(['web-4']));
    expect(
      (await app.request('POST', '/v1/taints', { nodes: ['n1'], taints: ['maintenance:NoExecute-'] })).status,
    ).toBe(200);
    expect(await rows('Held')).toHaveLength(0);
    expect((await rows('Cancelled')).map((e) => e.pod.name)).toEqual(['web-4']);
    expect((await app.request('GET', '/v1/namespaces/shop/pods/web-4')).body.phase).toBe('Running');
  });
});

describe.each(testModes())('held evictions across a SIGKILL restart (%s)', (mode) => {
  let env: Record<string, string>;
  let db: TempDatabase | undefined;
  let server: ChildServer | undefined;

  beforeAll(async () => {
    if (mode === 'embedded') env = { DATA_DIR: freshDataDir() };
    else {
      db = await createTempDatabase('tw_held');
      env = {
        DATABASE_URL: db.url,
        REDIS_URL: process.env.REDIS_URL!,
        REDIS_PREFIX: `tw-held-${randomBytes(4).toString('hex')}`,
      };
    }
  });
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    if (env.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
    await db?.drop().catch(() => undefined);
    if (env.REDIS_PREFIX) await deleteRedisKeys(env.REDIS_URL, env.REDIS_PREFIX);
  });

  it('held rows stay held through the kill, and are released after the restart when the budget allows', async () => {
    const port = await freePort();
    server = await startChildServer(port, env);
    const url = server.url;
    await call(url, 'PUT', '/v1/nodes/k1', {});
    for (const name of ['a', 'b']) {
      await call(url, 'PUT', `/v1/namespaces/shop/pods/${name}`, {
        nodeName: 'k1',
        phase: 'Running',
        labels: { app: 'k' },
        owner: { kind: 'ReplicaSet', name: 'k-rs' },
      });
    }
    await call(url, 'PUT', '/v1/namespaces/shop/poddisruptionbudgets/k', {
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'k' } } },
    });
    const taint = await call(url, 'POST', '/v1/taints', {
      nodes: ['k1'],
      taints: ['drain:NoExecute'],
      respectDisruptionBudgets: true,
    });
    expect(taint.evictions.held).toBe(2);
    await server.kill9();

    server = await startChildServer(port, env);
    const held = await call(url, 'GET', '/v1/evictions?status=Held');
    expect(held.items.map((e: any) => e.pod.name).sort()).toEqual(['a', 'b']);
    await call(url, 'PUT', '/v1/namespaces/shop/poddisruptionbudgets/k', {
      spec: { minAvailable: 0, selector: { matchLabels: { app: 'k' } } },
    });
    await eventually(async () => {
      const executed = await call(url, 'GET', '/v1/evictions?status=Executed');
      expect(executed.items.map((e: any) => e.pod.name).sort()).toEqual(['a', 'b']);
    }, 15_000);
    expect((await call(url, 'GET', '/v1/evictions?status=Held')).items).toHaveLength(0);
  });
});
