import { testKeys } from '../support/api-keys';
import { send } from '../support/api-surface';
import { startTestApp, testModes, type TestApp } from '../support/test-app';

// Issue 7 — audit: every mutation lands in the events table with its actor (the API key's name) and
// the request id the caller sent in x-request-id; admins read it through GET /v1/events/history and
// GraphQL eventHistory, nobody else does.
const keys = testKeys();

describe.each(testModes())('audit log (%s)', (mode) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(mode, { env: { API_KEYS: keys.env, RATE_LIMIT_PER_MINUTE: '0' } });
    expect(
      (
        await send(`${app.url}/v1/nodes/audit-1`, 'PUT', {
          headers: { ...keys.headers.admin, 'x-request-id': 'audit-setup' },
          body: { labels: { pool: 'a' } },
        })
      ).status,
    ).toBe(201);
  });
  afterAll(async () => app?.close());

  const history = (query: string, headers = keys.headers.admin) =>
    send(`${app.url}/v1/events/history?${query}`, 'GET', { headers });

  it('records the key name and the x-request-id of REST and GraphQL mutations', async () => {
    const taint = await send(`${app.url}/v1/taints`, 'POST', {
      headers: { ...keys.headers.ops, 'x-request-id': 'audit-rest-1' },
      body: { nodes: ['audit-1'], taints: ['audited=yes:NoSchedule'] },
    });
    expect(taint.status).toBe(200);
    expect(taint.headers.get('x-request-id')).toBe('audit-rest-1');
    const pod = await send(`${app.url}/v1/namespaces/default/pods/audit-web`, 'PUT', {
      headers: { ...keys.headers.ops, 'x-request-id': 'audit-rest-2' },
      body: { tolerations: [] },
    });
    expect(pod.status).toBe(201);
    const cordon = await app.graphql('mutation { cordonNode(name: "audit-1") { __typename } }', undefined, {
      ...keys.headers.ops,
      'x-request-id': 'audit-gql-1',
    });
    expect(cordon.body.errors).toBeUndefined();

    const r = await history('actor=ops&limit=100');
    expect(r.status).toBe(200);
    const byRequest = (id: string) => r.body.items.filter((e: { requestId: string }) => e.requestId === id);
    expect(byRequest('audit-rest-1')).toEqual([
      expect.objectContaining({ type: 'TaintsApplied', actor: 'ops', subjectKind: 'Node', subjectName: 'audit-1' }),
    ]);
    expect(byRequest('audit-rest-2')).toEqual([
      expect.objectContaining({ actor: 'ops', subjectKind: 'Pod', subjectName: 'default/audit-web' }),
    ]);
    expect(byRequest('audit-gql-1')).toEqual([
      expect.objectContaining({ type: 'NodeCordoned', actor: 'ops', subjectName: 'audit-1' }),
    ]);
    expect(r.body.items.every((e: { actor: string }) => e.actor === 'ops')).toBe(true);
    // The setup was made by another key.
    const admin = await history('actor=admin');
    expect(admin.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ actor: 'admin', requestId: 'audit-setup', subjectName: 'audit-1' }),
      ]),
    );

    const gql = await app.graphql(
      '{ eventHistory(actor: "ops", first: 100) { edges { node { type actor requestId subjectName } } pageInfo { hasNextPage } } }',
      undefined,
      keys.headers.admin,
    );
    expect(gql.body.data.eventHistory.edges.map((e: any) => e.node)).toEqual(
      expect.arrayContaining([
        { type: 'TaintsApplied', actor: 'ops', requestId: 'audit-rest-1', subjectName: 'audit-1' },
        { type: 'NodeCordoned', actor: 'ops', requestId: 'audit-gql-1', subjectName: 'audit-1' },
      ]),
    );
  });

  it('a rejected mutation leaves no trace; a generated request id is recorded when none is sent', async () => {
    const bad = await send(`${app.url}/v1/taints`, 'POST', {
      headers: { ...keys.headers.ops, 'x-request-id': 'audit-bad' },
      body: { nodes: ['audit-1'], taints: ['audited=yes:NoSchedule'] },
    });
    expect(bad.status).toBe(409); // already there without overwrite
    expect(
      (await history('actor=ops&limit=1000')).body.items.filter(
        (e: { requestId: string }) => e.requestId === 'audit-bad',
      ),
    ).toEqual([]);

    const generated = await send(`${app.url}/v1/nodes/audit-1/uncordon`, 'POST', { headers: keys.headers.ops });
    expect(generated.status).toBe(200);
    const id = generated.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      (await history('actor=ops&limit=1000')).body.items.filter((e: { requestId: string }) => e.requestId === id),
    ).toEqual([expect.objectContaining({ type: 'NodeUncordoned', actor: 'ops' })]);
  });

  it('only admins read it', async () => {
    for (const role of ['viewer', 'operator', 'ops'] as const) {
      const r = await history('limit=1', keys.headers[role]);
      expect({ role, status: r.status }).toEqual({ role, status: 403 });
      const gql = await app.graphql(
        '{ eventHistory(first: 1) { edges { node { id } } } }',
        undefined,
        keys.headers[role],
      );
      expect(gql.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    expect((await history('limit=1', {})).status).toBe(401);
  });
});
