import { deleteRedisKeys, startTestApp, type TestApp } from '../support/test-app';
import { Receiver, waitFor } from './receiver';

// Issue 15: two replicas sharing one outbox (PostgreSQL + Redis only: embedded PGlite is one process).
// Each replica writes outbox rows with its own commits and both run the delivery worker; a
// subscription's rows are delivered by one replica at a time (its lease, claimed FOR UPDATE SKIP
// LOCKED), in webhook-id order, each acknowledged once. Losing Redis loses no delivery.
describe('webhooks on two replicas (postgres+redis)', () => {
  const mode = 'postgres+redis';
  const env = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_SECONDS: '1', WEBHOOK_RETRY_SCHEDULE: '2,2,2' };
  let a: TestApp;
  let b: TestApp;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    a = await startTestApp(mode, { env });
    b = await startTestApp(mode, { shareWith: a, env });
  });
  afterAll(async () => {
    for (const r of receivers) await r.stop();
    await b?.close();
    await a?.close();
  });

  it('events committed on both replicas reach the receiver once each, in webhook-id order', async () => {
    const r = await new Receiver().start();
    receivers.push(r);
    const hook = (await a.request('POST', '/v1/webhooks', { url: r.url, events: ['NodeCreated'] })).body;
    const names = Array.from({ length: 200 }, (_, i) => `rep-${i}`);
    for (let i = 0; i < names.length; i += 20) {
      await Promise.all(
        names.slice(i, i + 20).map(async (name, j) => {
          const res = await (j % 2 ? b : a).request('PUT', `/v1/nodes/${name}`, {});
          expect(res.status).toBe(201);
        }),
      );
    }
    await waitFor(() => names.every((n) => r.about(n).length > 0), 20_000, 'every event');
    await new Promise((ok) => setTimeout(ok, 1500)); // room for a duplicate to show up
    expect(r.received).toHaveLength(names.length); // no duplicate
    const ids = r.received.map((m) => Number(m.id.slice(4)));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    const log = (await b.request('GET', `/v1/webhooks/${hook.id}/deliveries?limit=1000`)).body.items;
    expect(log).toHaveLength(names.length);
    for (const d of log) expect(d).toMatchObject({ status: 'Delivered', attempts: [{ statusCode: 200 }] });
    await a.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  it('a retry whose timer was lost with Redis is still delivered (the rows are the truth, the poll finds them)', async () => {
    const r = await new Receiver().start();
    receivers.push(r);
    r.respond = (_m, n) => (n === 0 ? 503 : 200);
    const hook = (await b.request('POST', '/v1/webhooks', { url: r.url, events: ['NodeCreated'] })).body;
    await a.request('PUT', '/v1/nodes/redis-loss', {});
    await waitFor(() => r.received.length === 1, 10_000, 'the first attempt');
    // The FLUSHALL equivalent for this test's own keys only (other suites share the Redis server).
    await deleteRedisKeys(a.env.REDIS_URL, a.env.REDIS_PREFIX);
    await waitFor(() => r.received.length === 2, 15_000, 'the retry');
    expect(r.received.map((m) => m.status)).toEqual([503, 200]);
    expect(r.received[1].id).toBe(r.received[0].id);
    const [d] = await waitFor(async () => {
      const items = (await a.request('GET', `/v1/webhooks/${hook.id}/deliveries`)).body.items;
      return items[0]?.status === 'Delivered' && items;
    });
    expect(d.attempts.map((x: { statusCode: number }) => x.statusCode)).toEqual([503, 200]);
  });
});
