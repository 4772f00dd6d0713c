import { Webhook } from 'standardwebhooks';
import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { freePort } from '../evictions/child-server';
import { Receiver, waitFor, type Received } from './receiver';

// Issue 15: signed webhooks with a durable outbox, against real receivers on loopback
// (WEBHOOK_ALLOW_PRIVATE=true), with a short retry schedule (1 s, 1 s, 1 s).
const ENV = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1',
  WEBHOOK_POLL_SECONDS: '1',
  WEBHOOK_TIMEOUT_SECONDS: '2',
};

interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: Array<{ at: string; statusCode?: number; latencyMs: number; error?: string }>;
}

const headersOf = (m: Received) => ({
  'webhook-id': m.id,
  'webhook-timestamp': m.timestamp,
  'webhook-signature': m.signature,
});

describe.each(testModes())('webhooks (%s)', (mode) => {
  let app: TestApp;
  const receivers: Receiver[] = [];
  const receiver = async (port = 0) => {
    const r = await new Receiver().start(port);
    receivers.push(r);
    return r;
  };
  const register = async (body: Record<string, unknown>) => {
    const r = await app.request('POST', '/v1/webhooks', body);
    expect(r.status).toBe(201);
    return r.body as { id: string; secret: string; url: string; events: string[] };
  };
  const deliveries = async (id: string, query = ''): Promise<Delivery[]> =>
    (await app.request('GET', `/v1/webhooks/${id}/deliveries${query}`)).body.items;
  let counter = 0;
  const fresh = (prefix: string) => `${prefix}-${++counter}`;
  /** One committed mutation: a NodeCreated event about `name`. */
  const createNode = async (name: string) => {
    expect((await app.request('PUT', `/v1/nodes/${name}`, {})).status).toBe(201);
  };

  beforeAll(async () => {
    app = await startTestApp(mode, { env: ENV });
  });
  afterAll(async () => {
    for (const r of receivers) await r.stop();
    await app?.close();
  });

  it('registers with a whsec_ secret shown once; list, get and the audit never show it', async () => {
    const r = await receiver();
    const created = await register({ url: r.url, events: ['NodeDeleted'], description: 'pager' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    const got = await app.request('GET', `/v1/webhooks/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      id: created.id,
      url: r.url,
      events: ['NodeDeleted'],
      description: 'pager',
      enabled: true,
    });
    expect(got.text).not.toContain('whsec_');
    const list = await app.request('GET', '/v1/webhooks');
    expect(list.body.items.map((w: { id: string }) => w.id)).toContain(created.id);
    expect(list.text).not.toContain('whsec_');
    expect((await app.request('PATCH', `/v1/webhooks/${created.id}`, { description: 'pager 2' })).status).toBe(200);
    expect((await app.request('DELETE', `/v1/webhooks/${created.id}`)).status).toBe(204);
    expect((await app.request('GET', `/v1/webhooks/${created.id}`)).status).toBe(404);
    const audit = await app.request('GET', `/v1/events/history?subjectKind=Webhook&subjectName=${created.id}`);
    expect(audit.body.items.map((e: { type: string; actor: string }) => e.type)).toEqual([
      'WebhookCreated',
      'WebhookUpdated',
      'WebhookDeleted',
    ]);
    expect(audit.text).not.toContain('whsec_');
  });

  it('delivers Standard Webhooks messages the library verifies, with the event as the event log has it', async () => {
    const r = await receiver();
    const hook = await register({ url: r.url, events: ['NodeCreated'] });
    const name = fresh('signed');
    await createNode(name);
    const [got] = await waitFor(() => r.about(name).length > 0 && r.about(name), 10_000, 'the delivery');
    expect(new Webhook(hook.secret).verify(got.body, headersOf(got))).toEqual(got.json);
    expect(got.id).toMatch(/^msg_\d+$/);
    expect(got.headers['content-type']).toBe('application/json');
    expect(Math.abs(Number(got.timestamp) - Date.now() / 1000)).toBeLessThan(30);
    const history = await app.request('GET', `/v1/events/history?types=NodeCreated&subjectName=${name}`);
    const event = history.body.items[0];
    expect(got.json).toEqual({
      type: 'NodeCreated',
      timestamp: event.createdAt,
      data: event.data,
      eventId: event.id,
      subject: { kind: 'Node', name },
      actor: event.actor,
      requestId: event.requestId,
    });
    // another secret does not verify it, nor does a changed body
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got.body, headersOf(got)),
    ).toThrow();
    expect(() => new Webhook(hook.secret).verify(got.body.replace(name, 'other'), headersOf(got))).toThrow();
    const log = await waitFor(async () => {
      const items = await deliveries(hook.id);
      return items.length === 1 && items[0].status === 'Delivered' && items;
    });
    expect(log[0]).toMatchObject({ webhookId: got.id, eventId: event.id, eventType: 'NodeCreated' });
    expect(log[0].attempts).toEqual([expect.objectContaining({ statusCode: 200, latencyMs: expect.any(Number) })]);
    await app.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  it('filters by event type; a subscription without a filter gets every type, in commit order', async () => {
    const onlyDeleted = await receiver();
    const everything = await receiver();
    const a = await register({ url: onlyDeleted.url, events: ['NodeDeleted'] });
    const b = await register({ url: everything.url });
    const names = Array.from({ length: 12 }, () => fresh('order'));
    for (const name of names) await createNode(name);
    for (const name of names.slice(0, 3)) expect((await app.request('DELETE', `/v1/nodes/${name}`)).status).toBe(204);
    await waitFor(() => everything.received.filter((m) => m.json.subject.name.startsWith('order-')).length === 15);
    await waitFor(() => onlyDeleted.received.length === 3);
    expect(onlyDeleted.received.map((m) => [m.json.type, m.json.subject.name])).toEqual(
      names.slice(0, 3).map((n) => ['NodeDeleted', n]),
    );
    const mine = everything.received.filter((m) => m.json.subject.name.startsWith('order-'));
    expect(mine.map((m) => `${m.json.type} ${m.json.subject.name}`)).toEqual([
      ...names.map((n) => `NodeCreated ${n}`),
      ...names.slice(0, 3).map((n) => `NodeDeleted ${n}`),
    ]);
    // commit order: event ids and webhook ids both ascend
    const ids = everything.received.map((m) => Number(m.id.slice(4)));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    await app.request('DELETE', `/v1/webhooks/${a.id}`);
    await app.request('DELETE', `/v1/webhooks/${b.id}`);
  });

  it('retries a non-2xx with the same webhook-id on the schedule; later rows wait behind it', async () => {
    const r = await receiver();
    r.respond = (m) =>
      m.json.subject.name.startsWith('retry-a') && r.received.filter((x) => x.id === m.id).length < 2 ? 503 : 200;
    const hook = await register({ url: r.url, events: ['NodeCreated'] });
    const first = fresh('retry-a');
    const second = fresh('retry-b');
    await createNode(first);
    await createNode(second);
    await waitFor(() => r.about(second).length === 1, 15_000, 'the second delivery');
    const attemptsOfFirst = r.about(first);
    expect(attemptsOfFirst.map((m) => m.status)).toEqual([503, 503, 200]);
    expect(new Set(attemptsOfFirst.map((m) => m.id)).size).toBe(1);
    for (const m of attemptsOfFirst) expect(new Webhook(hook.secret).verify(m.body, headersOf(m))).toEqual(m.json);
    // the schedule: about 1 s between attempts
    expect(attemptsOfFirst[1].at - attemptsOfFirst[0].at).toBeGreaterThanOrEqual(900);
    expect(attemptsOfFirst[2].at - attemptsOfFirst[1].at).toBeGreaterThanOrEqual(900);
    // order: the second event went out only after the first was acknowledged
    expect(r.about(second)[0].at).toBeGreaterThanOrEqual(attemptsOfFirst[2].at);
    const log = await waitFor(async () => {
      const items = await deliveries(hook.id);
      return items.every((d) => d.status === 'Delivered') && items;
    });
    const firstLog = log.find((d) => d.webhookId === attemptsOfFirst[0].id)!;
    expect(firstLog.attempts.map((a) => a.statusCode)).toEqual([503, 503, 200]);
    expect(firstLog.attempts[0].error).toBe('HTTP 503');
    await app.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  it('marks a delivery Failed when the schedule is spent, then the next one goes; a manual retry sends it again', async () => {
    const r = await receiver();
    let broken = true;
    r.respond = (m) => (broken && m.json.subject.name.startsWith('failing-a') ? 500 : 200);
    const hook = await register({ url: r.url, events: ['NodeCreated'] });
    const first = fresh('failing-a');
    const second = fresh('failing-b');
    await createNode(first);
    await createNode(second);
    await waitFor(() => r.about(second).length === 1, 20_000, 'the delivery after the failed one');
    expect(r.about(first).map((m) => m.status)).toEqual([500, 500, 500, 500]); // 1 + 3 retries
    const failed = (await deliveries(hook.id, '?status=Failed'))[0];
    expect(failed).toMatchObject({ status: 'Failed', webhookId: r.about(first)[0].id });
    expect(failed.attempts).toHaveLength(4);
    broken = false;
    const retried = await app.request('POST', `/v1/webhooks/${hook.id}/deliveries/${failed.id}/retry`);
    expect(retried.status).toBe(202);
    await waitFor(() => r.about(first).length === 5);
    expect(r.about(first)[4]).toMatchObject({ id: failed.webhookId, status: 200 });
    await waitFor(async () => (await deliveries(hook.id, '?status=Delivered')).length === 2);
    expect((await app.request('POST', `/v1/webhooks/${hook.id}/deliveries/999999/retry`)).status).toBe(404);
    await app.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  it('a receiver that is down, then back: connection errors and timeouts are retried, then delivered', async () => {
    const port = await freePort();
    const hook = await register({ url: `http://127.0.0.1:${port}/hook`, events: ['NodeCreated'] });
    const name = fresh('down');
    await createNode(name);
    const [attempted] = await waitFor(async () => {
      const items = await deliveries(hook.id);
      return items[0]?.attempts.length >= 1 && items;
    });
    expect(attempted.attempts[0].error).toMatch(/ECONNREFUSED/);
    const r = await receiver(port);
    r.delayMs = 2500; // longer than WEBHOOK_TIMEOUT_SECONDS=2
    await waitFor(
      async () => (await deliveries(hook.id))[0].attempts.some((a) => /timed out/.test(a.error ?? '')),
      15_000,
      'a timeout',
    );
    r.delayMs = 0;
    await waitFor(async () => (await deliveries(hook.id))[0].status === 'Delivered', 15_000, 'the delivery');
    expect(new Set(r.about(name).map((m) => m.id)).size).toBe(1);
    await app.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  it('disable stops deliveries and enable resumes them; delete stops them for good', async () => {
    const r = await receiver();
    const hook = await register({ url: r.url, events: ['NodeCreated'] });
    const before = fresh('toggle');
    await createNode(before);
    await waitFor(() => r.about(before).length === 1);
    const disabled = await app.request('PATCH', `/v1/webhooks/${hook.id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, disabledReason: 'disabled by anonymous' });
    const during = fresh('toggle');
    await createNode(during);
    await app.request('PATCH', `/v1/webhooks/${hook.id}`, { enabled: true });
    const after = fresh('toggle');
    await createNode(after);
    await waitFor(() => r.about(after).length === 1);
    expect(r.about(during)).toHaveLength(0);
    await app.request('DELETE', `/v1/webhooks/${hook.id}`);
    const gone = fresh('toggle');
    await createNode(gone);
    await new Promise((ok) => setTimeout(ok, 1500));
    expect(r.about(gone)).toHaveLength(0);
  });

  it('refuses URLs that are not http(s), link-local or metadata (422 with the reason); bad shapes are 400', async () => {
    for (const [url, reason] of [
      ['ftp://example.com/hook', /only http and https/],
      ['http://169.254.169.254/latest/meta-data', /link-local/],
      ['http://[fd00:ec2::254]/', /metadata/],
      ['http://[fe80::1]/', /link-local/],
      ['http://[::ffff:169.254.1.1]/', /link-local/],
      ['http://0.0.0.0:80/', /unspecified/],
      ['http://user:pw@127.0.0.1/', /credentials/],
      ['not a url', /not an absolute URL/],
    ] as const) {
      const r = await app.request('POST', '/v1/webhooks', { url });
      expect({ url, status: r.status }).toEqual({ url, status: 422 });
      expect(r.headers.get('content-type')).toMatch(/problem\+json/);
      expect(r.body.detail).toMatch(reason);
      expect(r.body.errors[0].field).toBe('url');
    }
    for (const [body, field] of [
      [{}, 'url'],
      [{ url: 'http://127.0.0.1/', events: [1] }, 'events[0]'],
      [{ url: 'http://127.0.0.1/', extra: true }, 'extra'],
    ] as const) {
      const r = await app.request('POST', '/v1/webhooks', body);
      expect(r.status).toBe(400);
      expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const hook = await register({ url: 'http://127.0.0.1:9/hook', events: ['NeverHappens'] });
    const patched = await app.request('PATCH', `/v1/webhooks/${hook.id}`, { url: 'http://169.254.169.254/' });
    expect(patched.status).toBe(422);
    expect((await app.request('PATCH', `/v1/webhooks/${hook.id}`, { enabled: 'yes' })).status).toBe(400);
    expect((await app.request('GET', `/v1/webhooks/${hook.id}`)).body.url).toBe('http://127.0.0.1:9/hook');
    await app.request('DELETE', `/v1/webhooks/${hook.id}`);
    // private and loopback addresses only with WEBHOOK_ALLOW_PRIVATE=true
    const strict = await startTestApp(mode, { env: { WEBHOOK_POLL_SECONDS: '1' } });
    try {
      for (const url of [
        'http://127.0.0.1:8080/',
        'http://10.1.2.3/',
        'http://[::1]/',
        'http://localhost/',
        'http://192.168.0.1/',
      ]) {
        const r = await strict.request('POST', '/v1/webhooks', { url });
        expect({ url, status: r.status }).toEqual({ url, status: 422 });
        expect(r.body.detail).toMatch(/WEBHOOK_ALLOW_PRIVATE/);
      }
    } finally {
      await strict.close();
    }
  });

  it('rotates the secret: both secrets sign during the grace period, then only the new one', async () => {
    const r = await receiver();
    const hook = await register({ url: r.url, events: ['NodeCreated'] });
    const rotated = await app.request('PATCH', `/v1/webhooks/${hook.id}`, {
      rotateSecret: true,
      secretGraceSeconds: 3600,
    });
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.secret as string;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(hook.secret);
    expect(Date.parse(rotated.body.previousSecretValidUntil)).toBeGreaterThan(Date.now() + 3500_000);
    const during = fresh('rotate');
    await createNode(during);
    const [m1] = await waitFor(() => r.about(during).length === 1 && r.about(during));
    expect(m1.signature.split(' ')).toHaveLength(2);
    expect(new Webhook(newSecret).verify(m1.body, headersOf(m1))).toEqual(m1.json);
    expect(new Webhook(hook.secret).verify(m1.body, headersOf(m1))).toEqual(m1.json);
    // rotate again with no grace: only the newest signs
    const again = await app.request('PATCH', `/v1/webhooks/${hook.id}`, { rotateSecret: true, secretGraceSeconds: 0 });
    const newest = again.body.secret as string;
    expect(again.body.previousSecretValidUntil).toBeNull();
    const after = fresh('rotate');
    await createNode(after);
    const [m2] = await waitFor(() => r.about(after).length === 1 && r.about(after));
    expect(m2.signature.split(' ')).toHaveLength(1);
    expect(new Webhook(newest).verify(m2.body, headersOf(m2))).toEqual(m2.json);
    expect(() => new Webhook(newSecret).verify(m2.body, headersOf(m2))).toThrow();
    expect(() => new Webhook(hook.secret).verify(m2.body, headersOf(m2))).toThrow();
    expect((await app.request('PATCH', `/v1/webhooks/${hook.id}`, { secretGraceSeconds: 5 })).status).toBe(400);
    const audit = await app.request('GET', `/v1/events/history?subjectKind=Webhook&subjectName=${hook.id}`);
    expect(audit.text).not.toContain('whsec_');
    await app.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  it('replays every matching event since a time, with the same webhook-ids', async () => {
    const r = await receiver();
    const hook = await register({ url: r.url, events: ['NodeCreated'] });
    const since = new Date().toISOString();
    const names = [fresh('replay'), fresh('replay')];
    for (const n of names) await createNode(n);
    await waitFor(() => names.every((n) => r.about(n).length === 1));
    const replay = await app.request('POST', `/v1/webhooks/${hook.id}/replay`, { since });
    expect(replay.status).toBe(202);
    expect(replay.body.requeued).toBeGreaterThanOrEqual(2);
    await waitFor(() => names.every((n) => r.about(n).length === 2));
    for (const n of names) expect(r.about(n)[1].id).toBe(r.about(n)[0].id);
    expect((await app.request('POST', `/v1/webhooks/${hook.id}/replay`, { since: 'yesterday' })).status).toBe(400);
    await app.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  it('GraphQL mirrors the routes', async () => {
    const r = await receiver();
    const created = await app.graphql(
      `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { id url events secret enabled } }`,
      { input: { url: r.url, events: ['NodeCreated'], description: 'gql' } },
    );
    expect(created.body.errors).toBeUndefined();
    const hook = created.body.data!.createWebhook;
    expect(hook.secret).toMatch(/^whsec_/);
    const name = fresh('gql');
    await createNode(name);
    await waitFor(() => r.about(name).length === 1);
    const listed = await app.graphql(`{ webhooks { edges { node { id description } } } }`);
    expect(listed.body.data!.webhooks.edges.map((e: any) => e.node)).toContainEqual({
      id: hook.id,
      description: 'gql',
    });
    const log = await app.graphql(
      `query($id: ID!) { webhookDeliveries(id: $id) { edges { node { webhookId status attempts { statusCode latencyMs } } } } }`,
      { id: hook.id },
    );
    expect(log.body.data!.webhookDeliveries.edges[0].node).toMatchObject({
      status: 'Delivered',
      attempts: [{ statusCode: 200 }],
    });
    const refused = await app.graphql(`mutation { createWebhook(input: { url: "http://169.254.169.254/" }) { id } }`);
    expect(refused.body.errors![0].extensions.code).toBe('UNPROCESSABLE_ENTITY');
    const off = await app.graphql(
      `mutation($id: ID!) { updateWebhook(id: $id, input: { enabled: false }) { enabled disabledReason secret } }`,
      { id: hook.id },
    );
    expect(off.body.data!.updateWebhook).toEqual({
      enabled: false,
      disabledReason: 'disabled by anonymous',
      secret: null,
    });
    const rotated = await app.graphql(
      `mutation($id: ID!) { updateWebhook(id: $id, input: { rotateSecret: true }) { secret previousSecretValidUntil } }`,
      { id: hook.id },
    );
    expect(rotated.body.data!.updateWebhook.secret).toMatch(/^whsec_/);
    expect(rotated.body.data!.updateWebhook.secret).not.toBe(hook.secret);
    const deleted = await app.graphql(`mutation($id: ID!) { deleteWebhook(id: $id) }`, { id: hook.id });
    expect(deleted.body.data!.deleteWebhook).toBe(true);
  });

  it('counts deliveries by outcome and reports the queue on /metrics', async () => {
    const text = (await app.request('GET', '/metrics')).text;
    expect(text).toMatch(/taintwise_webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    expect(text).toMatch(/taintwise_webhook_deliveries_total\{outcome="retry"\} [1-9]/);
    expect(text).toMatch(/taintwise_webhook_deliveries_total\{outcome="failed"\} [1-9]/);
    expect(text).toContain('taintwise_webhook_attempt_duration_seconds_bucket');
    expect(text).toContain('taintwise_webhook_queue_depth');
    expect(text).toContain('taintwise_webhook_oldest_pending_age_seconds');
  });
});

describe.each(testModes())('webhooks failing for a day (%s)', (mode) => {
  it('disables a subscription whose attempts all failed for WEBHOOK_DISABLE_AFTER_SECONDS, with an event', async () => {
    const app = await startTestApp(mode, {
      env: { ...ENV, WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1', WEBHOOK_DISABLE_AFTER_SECONDS: '2' },
    });
    const broken = await new Receiver().start();
    const watcher = await new Receiver().start();
    broken.respond = () => 500;
    try {
      const hook = (await app.request('POST', '/v1/webhooks', { url: broken.url, events: ['NodeCreated'] })).body;
      await app.request('POST', '/v1/webhooks', { url: watcher.url, events: ['WebhookDisabled'] });
      await app.request('PUT', '/v1/nodes/doomed', {});
      const [disabled] = await waitFor(
        () => watcher.received.length > 0 && watcher.received,
        15_000,
        'WebhookDisabled',
      );
      expect(disabled.json).toMatchObject({ type: 'WebhookDisabled', subject: { kind: 'Webhook', name: hook.id } });
      expect(disabled.json.data.reason).toMatch(/every delivery attempt failed since/);
      const got = (await app.request('GET', `/v1/webhooks/${hook.id}`)).body;
      expect(got).toMatchObject({ enabled: false, disabledReason: expect.stringMatching(/failed since/) });
      const attempts = broken.received.length;
      expect(attempts).toBeGreaterThanOrEqual(3);
      await new Promise((ok) => setTimeout(ok, 1500));
      expect(broken.received.length).toBe(attempts);
    } finally {
      await broken.stop();
      await watcher.stop();
      await app.close();
    }
  });
});
