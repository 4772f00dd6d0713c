import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DELAYED_JOBS } from '../../src/kernel/tokens';
import { evictionTimerId } from '../../src/evictions/eviction-timer-id';
import { createTempDatabase, type TempDatabase } from '../../src/kernel/persistence/testing/temp-postgres';
import type { DelayedJobs } from '../../src/kernel/timers/delayed-jobs';
import { send } from '../support/api-surface';
import { TcpProxy } from '../support/tcp-proxy';
import { deleteRedisKeys, eventually, startTestApp, type TestApp } from '../support/test-app';

// Issue 7 — faults. PostgreSQL and Redis are reached through a fault-injecting TCP proxy (the shared
// servers themselves are never stopped): a lost database answers 503 quickly and recovers by itself;
// a lost Redis loses no mutation and no eviction; a process killed in the middle of a taint mutation
// over 200 nodes leaves all of them tainted or none. Any unhandled 'error' event from a pg client or
// ioredis would crash this process, and so fail the suite.
// The standard local servers unless the environment names others (CI sets both; every machine of
// this project runs them): the faults need real servers to put a proxy in front of.
const POSTGRES = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const withServers = describe;
const problemJson = (r: { headers: Headers }) =>
  expect(r.headers.get('content-type')).toContain('application/problem+json');

function through(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}

withServers('faults: PostgreSQL and Redis lost and restored (through a TCP proxy)', () => {
  let db: TempDatabase;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let app: TestApp;
  const prefix = `tw-faults-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    db = await createTempDatabase('tw_faults');
    pgProxy = await TcpProxy.start({ port: Number(new URL(db.url).port || 5432), host: new URL(db.url).hostname });
    redisProxy = await TcpProxy.start({ port: Number(new URL(REDIS!).port || 6379), host: new URL(REDIS!).hostname });
    const env = {
      DATABASE_URL: through(db.url, pgProxy),
      REDIS_URL: through(REDIS!, redisProxy),
      REDIS_PREFIX: prefix,
      // The rate limiter counts in Redis too (through the proxy): with Redis away it counts in memory.
      RATE_LIMIT_PER_MINUTE: '100000',
      RECONCILE_INTERVAL_SECONDS: '1',
    };
    // shareWith: the storage is ours (the temp database behind the proxy), not the harness's.
    app = await startTestApp('postgres+redis', { shareWith: { env } as unknown as TestApp });
  });
  afterAll(async () => {
    await pgProxy?.restore();
    await redisProxy?.restore();
    await app?.close();
    await pgProxy?.close();
    await redisProxy?.close();
    await db?.drop();
    await deleteRedisKeys(REDIS!, prefix);
  });

  it('PostgreSQL cut during traffic: /readyz 503 naming the database, requests 503 problem+json within seconds, recovery without a restart', async () => {
    expect((await app.request('PUT', '/v1/nodes/pg-1', { labels: { pool: 'a' } })).status).toBe(201);
    // Traffic keeps flowing through the cut.
    let stop = false;
    const statuses: number[] = [];
    const traffic = (async () => {
      for (let i = 0; !stop; i++) {
        const r = await send(`${app.url}/v1/nodes/traffic-${i % 5}`, 'PUT', {
          body: { labels: { i: String(i) } },
          timeoutMs: 20_000,
        }).catch(() => ({ status: 0 }));
        statuses.push(r.status);
      }
    })();
    await eventually(() => expect(statuses.length).toBeGreaterThan(3), 10_000);

    await pgProxy.cut();
    const ready = await eventually(async () => {
      const r = await send(`${app.url}/readyz`, 'GET', { timeoutMs: 5000 });
      expect(r.status).toBe(503);
      return r;
    }, 10_000);
    problemJson(ready);
    expect(ready.body.detail).toMatch(/database/);
    expect(ready.body.checks.database.ok).toBe(false);
    expect(ready.body.checks.redis.ok).toBe(true);

    const started = Date.now();
    const write = await send(`${app.url}/v1/nodes/pg-2`, 'PUT', { body: { labels: { a: 'b' } }, timeoutMs: 30_000 });
    const writeMs = Date.now() - started;
    expect(write.status).toBe(503);
    problemJson(write);
    expect(write.body.detail).toMatch(/database/);
    expect(writeMs).toBeLessThan(8000);
    const read = await send(`${app.url}/v1/pods`, 'GET', { timeoutMs: 30_000 });
    expect(read.status).toBe(503);
    problemJson(read);
    // Decisions read the in-memory snapshot: they keep working.
    const decision = await app.request('POST', '/v1/decisions/toleration-match', {
      taints: [{ key: 'a', effect: 'NoSchedule' }],
      tolerations: [],
    });
    expect(decision.status).toBe(200);
    expect((await app.request('POST', '/v1/decisions/feasible-nodes', { pod: {} })).status).toBe(200);

    await pgProxy.restore();
    await eventually(async () => expect((await send(`${app.url}/readyz`, 'GET')).status).toBe(200), 20_000, 250);
    await eventually(
      async () => expect((await app.request('PUT', '/v1/nodes/pg-2', { labels: { a: 'b' } })).status).toBe(201),
      20_000,
      250,
    );
    stop = true;
    await traffic;
    // During the cut: 503s, never a 500 or a dropped connection.
    expect(statuses.filter((s) => s !== 200 && s !== 201 && s !== 503)).toEqual([]);
    expect(statuses).toContain(503);
    // Recovered: the last write succeeded (201 when every write during the cut failed, so it created the node).
    expect([200, 201]).toContain(statuses.slice(-1)[0]);
    expect((await app.request('GET', '/v1/nodes/pg-2')).body.labels).toEqual({ a: 'b' });
  });

  it('Redis cut: a NoExecute mutation commits, its evictions are Scheduled in PostgreSQL, decisions work, a due one still executes on time (local alarm); the timers are re-armed when Redis returns', async () => {
    expect((await app.request('PUT', '/v1/nodes/redis-1', { labels: { pool: 'r' } })).status).toBe(201);
    const toleratingFor = (seconds: number) => ({
      nodeName: 'redis-1',
      tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds }],
    });
    expect((await app.request('PUT', '/v1/namespaces/default/pods/redis-soon', toleratingFor(3))).status).toBe(201);
    expect((await app.request('PUT', '/v1/namespaces/default/pods/redis-later', toleratingFor(20))).status).toBe(201);

    await redisProxy.cut();
    const ready = await eventually(async () => {
      const r = await send(`${app.url}/readyz`, 'GET', { timeoutMs: 5000 });
      expect(r.status).toBe(503);
      return r;
    }, 10_000);
    expect(ready.body.detail).toMatch(/redis/);
    expect(ready.body.checks.database.ok).toBe(true);

    const started = Date.now();
    const taint = await app.request('PUT', '/v1/nodes/redis-1', {
      labels: { pool: 'r' },
      taints: [{ key: 'maintenance', value: 'true', effect: 'NoExecute' }],
    });
    expect(taint.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5000);
    const timeAdded = Date.parse(taint.body.taints[0].timeAdded);
    const scheduled = await app.request('GET', '/v1/evictions?status=Scheduled&node=redis-1');
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.items.map((e: { pod: { name: string } }) => e.pod.name).sort()).toEqual([
      'redis-later',
      'redis-soon',
    ]);
    const decision = await app.request('POST', '/v1/decisions/taint-impact', {
      taints: ['maintenance=true:NoExecute'],
      nodes: ['redis-1'],
    });
    expect(decision.status).toBe(200);
    expect(decision.headers.get('ratelimit-limit')).toBe('100000');
    expect((await app.request('POST', '/v1/decisions/feasible-nodes', { pod: {} })).status).toBe(200);

    // Its deadline passes with Redis still away: this replica's alarm (SweepAlarm) asks for the sweep,
    // which decides from PostgreSQL, so the eviction is on time without its Redis timer.
    await eventually(
      async () => {
        const executed = await app.request('GET', '/v1/evictions?status=Executed&node=redis-1');
        expect(executed.body.items).toEqual([
          expect.objectContaining({ pod: expect.objectContaining({ name: 'redis-soon' }) }),
        ]);
      },
      8_000,
      100,
    );
    const soon = (await app.request('GET', '/v1/evictions?status=Executed&node=redis-1')).body.items[0];
    expect(Date.parse(soon.executedAt) - (timeAdded + 3000)).toBeLessThan(1000);
    expect((await send(`${app.url}/readyz`, 'GET', { timeoutMs: 5000 })).status).toBe(503);
    expect(
      (await app.request('GET', '/v1/evictions?status=Scheduled&node=redis-1')).body.items.map(
        (e: { pod: { name: string } }) => e.pod.name,
      ),
    ).toEqual(['redis-later']);

    // Redis back: the reconciler arms the timer the mutation could not, and the eviction happens once, on its deadline.
    await redisProxy.restore();
    await eventually(async () => expect((await send(`${app.url}/readyz`, 'GET')).status).toBe(200), 30_000, 250);
    const [later] = (await app.request('GET', '/v1/evictions?status=Scheduled&node=redis-1')).body.items;
    const jobs = app.app.get<DelayedJobs>(DELAYED_JOBS);
    await eventually(
      async () => expect((await jobs.list()).map((j) => j.id)).toContain(evictionTimerId(new Date(later.evictAt))),
      20_000,
      250,
    );
    await eventually(
      async () => {
        const executed = await app.request('GET', '/v1/evictions?status=Executed&node=redis-1');
        expect(executed.body.items.map((e: { pod: { name: string } }) => e.pod.name).sort()).toEqual([
          'redis-later',
          'redis-soon',
        ]);
      },
      30_000,
      250,
    );
    const laterRow = (await app.request('GET', '/v1/evictions?status=Executed&node=redis-1')).body.items.find(
      (e: { pod: { name: string } }) => e.pod.name === 'redis-later',
    );
    expect(Date.parse(laterRow.executedAt)).toBeGreaterThanOrEqual(timeAdded + 20_000);
    for (const name of ['redis-soon', 'redis-later']) {
      expect((await app.request('GET', `/v1/namespaces/default/pods/${name}`)).body).toMatchObject({
        nodeName: null,
        phase: 'Evicted',
      });
      expect(
        (await app.request('GET', `/v1/events/history?types=EvictionExecuted&subjectName=default/${name}`)).body.items,
      ).toHaveLength(1);
    }
    expect((await app.request('GET', '/v1/evictions?status=Scheduled&node=redis-1')).body.items).toEqual([]);
  });
});

// ------------------------------------------------------------------ killed mid-mutation

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface Server {
  child: ChildProcess;
  url: string;
  output: string[];
}

async function startServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: join(__dirname, '../..'),
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => output.push(String(d)));
  child.stderr!.on('data', (d) => output.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (child.exitCode !== null)
        throw new Error(`server exited with ${child.exitCode}: ${output.join('').slice(-2000)}`);
      expect((await send(`${url}/readyz`, 'GET', { timeoutMs: 2000 })).status).toBe(200);
    },
    90_000,
    200,
  );
  return { child, url, output };
}

/** A dry run over every node: the route's code paths and the snapshot are warm, nothing is written. */
async function warm(server: Server, nodes: string[]): Promise<void> {
  expect(
    (
      await send(`${server.url}/v1/taints`, 'POST', {
        body: { nodes, taints: ['warm=x:NoSchedule'], dryRun: true },
        timeoutMs: 60_000,
      })
    ).status,
  ).toBe(200);
}

async function kill(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGKILL');
  await exited;
}

/** Resolves true once a client backend of that database is inside a transaction (false on timeout). */
async function transactionOpened(databaseUrl: string, timeoutMs: number): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const r = await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND xact_start IS NOT NULL AND application_name = 'taintwise'`,
      );
      if (r.rows[0].n > 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('killed in the middle of a taint mutation over 200 nodes: all or nothing', () => {
  const NODES = Array.from({ length: 200 }, (_, i) => `kill-${String(i).padStart(3, '0')}`);
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let server: Server | undefined;
  let mutationMs = 0;

  beforeAll(async () => {
    if (POSTGRES) {
      const db = await createTempDatabase('tw_kill');
      env = { DATABASE_URL: db.url, REDIS_URL: '' };
      cleanup = () => db.drop();
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'tw-kill-'));
      env = { DATA_DIR: dir, DATABASE_URL: '', REDIS_URL: '' };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
    server = await startServer(env);
    for (let i = 0; i < NODES.length; i += 20) {
      const batch = await Promise.all(
        NODES.slice(i, i + 20).map((name) =>
          send(`${server!.url}/v1/nodes/${name}`, 'PUT', { body: { labels: { pool: 'kill' } } }),
        ),
      );
      expect(batch.map((r) => r.status)).toEqual(batch.map(() => 201));
    }
    // How long the whole mutation takes here (warm): the kills below land at fractions of it.
    await warm(server, NODES);
    const started = Date.now();
    expect(
      (
        await send(`${server.url}/v1/taints`, 'POST', {
          body: { nodes: NODES, taints: ['warmup=x:NoSchedule'] },
          timeoutMs: 60_000,
        })
      ).status,
    ).toBe(200);
    mutationMs = Date.now() - started;
    expect(
      (
        await send(`${server.url}/v1/taints`, 'POST', {
          body: { nodes: NODES, taints: ['warmup-'] },
          timeoutMs: 60_000,
        })
      ).status,
    ).toBe(200);
  }, 180_000);
  afterAll(async () => {
    if (server) await kill(server);
    await cleanup?.();
  });

  // On PostgreSQL the kill is aimed: it waits until the server has the mutation's transaction open
  // (pg_stat_activity), then a few ms more. On PGlite, at fractions of the mutation's usual duration.
  it.each([0, 0.1, 0.3, 0.6, 0.9])(
    'SIGKILL %f into the mutation: after a restart every node has the taint, or none has',
    async (fraction) => {
      const key = `crash-${Math.round(fraction * 100)}`;
      await warm(server!, NODES);
      const fired = send(`${server!.url}/v1/taints`, 'POST', {
        body: { nodes: NODES, taints: [`${key}=x:NoSchedule`] },
        timeoutMs: 60_000,
      }).catch((e: Error) => ({ status: 0, text: e.message }));
      let delayMs = Math.round(mutationMs * fraction);
      let inTransaction = false;
      if (env.DATABASE_URL) {
        inTransaction = await transactionOpened(env.DATABASE_URL, 30_000);
        delayMs = Math.round(mutationMs * fraction * 0.5);
      }
      await new Promise((r) => setTimeout(r, delayMs));
      await kill(server!);
      const answered = await fired;
      server = await startServer(env);
      const nodes = await send(`${server.url}/v1/nodes?labelSelector=pool%3Dkill&limit=1000`, 'GET');
      expect(nodes.body.items).toHaveLength(NODES.length);
      const tainted = nodes.body.items.filter((n: { taints: Array<{ key: string }> }) =>
        n.taints.some((t) => t.key === key),
      ).length;
      expect([0, NODES.length]).toContain(tainted);
      // An answered 200 means committed: then every node has it.
      if (answered.status === 200) expect(tainted).toBe(NODES.length);
      process.stdout.write(
        `killed ${delayMs} ms after ${inTransaction ? 'its transaction opened' : 'the request'} (the mutation takes ~${mutationMs} ms): ${tainted === 0 ? 'none' : 'all'} of ${NODES.length} nodes tainted (answer: ${answered.status || 'none'})\n`,
      );
    },
    180_000,
  );
});
