import { createClient } from 'graphql-ws';
import { SUBSCRIPTION_OVER_HTTP_MESSAGE } from '../../src/kernel/graphql/subscriptions-over-websocket';
import WebSocket from 'ws';
import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { putNode, putPod, taint } from './support';

interface SseEvent {
  id?: string;
  data?: any;
}

/** A real SSE client over fetch streaming: parses `id:`/`data:` frames and keeps the comments. */
async function openSse(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: SseEvent = {};
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) event.id = line.slice(4);
            else if (line.startsWith('data: ')) event.data = JSON.parse(line.slice(6));
          }
          if (event.data) events.push(event);
        }
      }
    } catch {
      // aborted
    }
  })();
  const waitFor = async (count: number, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (events.length < count) {
      if (Date.now() > deadline)
        throw new Error(
          `expected ${count} SSE events, got ${events.length}: ${JSON.stringify(events.map((e) => e.data.type))}`,
        );
      await new Promise((r) => setTimeout(r, 20));
    }
    return events;
  };
  const close = async () => {
    controller.abort();
    await pump;
  };
  return { response, events, comments, waitFor, close };
}

// Issue 5: the live event stream as SSE (fetch streaming) and as a GraphQL subscription (graphql-ws + ws).
describe.each(testModes())('event streams (%s)', (mode) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(mode);
    await putNode(app, 's1');
    await putPod(app, 'default', 'victim', { nodeName: 's1' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('GET /v1/events streams committed events as SSE, filtered by ?types=, then replays after Last-Event-ID', async () => {
    const sse = await openSse(`${app.url}/v1/events?types=TaintsApplied,EvictionExecuted`);
    expect(sse.response.status).toBe(200);
    expect(sse.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await new Promise((r) => setTimeout(r, 100));
    await fetch(`${app.url}/v1/taints`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'sse-req-1' },
      body: JSON.stringify({ nodes: ['s1'], taints: ['maint:NoExecute'] }),
    });
    const got = await sse.waitFor(2);
    expect(got.map((e) => e.data.type)).toEqual(['TaintsApplied', 'EvictionExecuted']);
    expect(got[0].data).toMatchObject({
      actor: 'anonymous',
      requestId: 'sse-req-1',
      subjectKind: 'Node',
      subjectName: 's1',
      data: { specs: ['maint:NoExecute'] },
    });
    expect(got[1].data).toMatchObject({
      actor: 'anonymous',
      requestId: 'sse-req-1',
      subjectKind: 'Pod',
      subjectName: 'default/victim',
      data: { node: 's1' },
    });
    expect(Number(got[1].id)).toBeGreaterThan(Number(got[0].id));
    expect(sse.comments).toContain('connected');
    await sse.close();

    // a second change while disconnected, then a reconnect with Last-Event-ID replays exactly what was missed
    await taint(app, { nodes: ['s1'], taints: ['maint-'] });
    const again = await openSse(`${app.url}/v1/events?types=TaintsApplied`, { 'last-event-id': got[1].id! });
    const replayed = await again.waitFor(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(replayed.map((e) => e.data.data.specs)).toEqual([['maint-']]);
    await taint(app, { nodes: ['s1'], taints: ['other:NoSchedule'] });
    expect((await again.waitFor(2)).map((e) => e.data.data.specs)).toEqual([['maint-'], ['other:NoSchedule']]);
    await again.close();

    const since = await openSse(`${app.url}/v1/events?since=0&types=TaintsApplied`);
    expect((await since.waitFor(3)).map((e) => e.data.data.specs)).toEqual([
      ['maint:NoExecute'],
      ['maint-'],
      ['other:NoSchedule'],
    ]);
    await since.close();
    expect((await app.request('GET', '/v1/events?since=yesterday')).status).toBe(400);
  });

  it('GET /v1/events/history pages the audit log', async () => {
    const first = await app.request('GET', '/v1/events/history?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.continue).toBeDefined();
    const next = await app.request('GET', `/v1/events/history?limit=2&continue=${first.body.continue}`);
    expect(Number(next.body.items[0].id)).toBeGreaterThan(Number(first.body.items[1].id));
    const gql = await app.graphql(
      '{ eventHistory(types: ["TaintsApplied"], first: 10) { edges { node { type actor subjectName data } } pageInfo { hasNextPage } } }',
    );
    expect(gql.body.data.eventHistory.edges.map((e: any) => JSON.parse(e.node.data).specs)).toEqual([
      ['maint:NoExecute'],
      ['maint-'],
      ['other:NoSchedule'],
    ]);
  });

  it('GraphQL subscription events(types) over graphql-ws delivers committed events', async () => {
    const client = createClient({
      url: `${app.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: true,
    });
    const received: any[] = [];
    let failure: unknown;
    const dispose = client.subscribe(
      {
        query:
          'subscription { events(types: ["NodeCordoned", "NodeUncordoned"]) { id type actor requestId subjectKind subjectName data } }',
      },
      { next: (value) => received.push(value), error: (e) => (failure = e), complete: () => undefined },
    );
    // wait until the subscription is live: the server acknowledges the connection first
    await new Promise<void>((resolve) => client.on('connected', () => resolve()));
    await new Promise((r) => setTimeout(r, 200));
    await fetch(`${app.url}/v1/nodes/s1/cordon`, { method: 'POST', headers: { 'x-request-id': 'ws-req-1' } });
    await app.request('POST', '/v1/nodes/s1/uncordon');
    await app.request('POST', '/v1/taints', { nodes: ['s1'], taints: ['ignored:NoSchedule'] });
    const deadline = Date.now() + 5000;
    while (received.length < 2 && Date.now() < deadline && !failure) await new Promise((r) => setTimeout(r, 20));
    dispose();
    await client.dispose();
    expect(failure).toBeUndefined();
    expect(received.map((r) => r.data.events.type)).toEqual(['NodeCordoned', 'NodeUncordoned']);
    expect(received[0].data.events).toMatchObject({
      actor: 'anonymous',
      requestId: 'ws-req-1',
      subjectKind: 'Node',
      subjectName: 's1',
    });
    expect(JSON.parse(received[0].data.events.data)).toMatchObject({ unschedulable: true });
  });

  it('a subscription sent over HTTP is a 400 that points to graphql-ws, not a 500 (found by the fuzzer)', async () => {
    for (const query of [
      'subscription { events { id } }',
      'subscription S($t: [String!]) { events(types: $t) { id } }',
    ])
      for (const variables of [undefined, { t: ['NodeCordoned'] }]) {
        const r = await app.graphql(query, variables);
        expect(r.status).toBe(400);
        expect(r.body).toEqual({
          errors: [{ message: SUBSCRIPTION_OVER_HTTP_MESSAGE, extensions: { code: 'BAD_REQUEST' } }],
        });
      }
    // a document holding a query and a subscription: only the operation asked for is judged
    const both = 'query Q { serviceInfo { open } } subscription S { events { id } }';
    expect((await app.request('POST', '/graphql', { query: both, operationName: 'Q' })).status).toBe(200);
    expect((await app.request('POST', '/graphql', { query: both, operationName: 'S' })).status).toBe(400);
  });
});
