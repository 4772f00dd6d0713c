import { Writable } from 'node:stream';
import { rmSync } from 'node:fs';
import { createClient, type Client } from 'graphql-ws';
import pino from 'pino';
import WebSocket from 'ws';
import { createApp } from '../../src/app.factory';
import { ROLES, type Role } from '../../src/kernel/auth/roles';
import { loadConfig } from '../../src/kernel/config/config.schema';
import { testKeys } from '../support/api-keys';
import {
  expectedGraphQLRole,
  expectedRestRole,
  fillPath,
  graphqlSurface,
  minimalVariables,
  operationDocument,
  restOperations,
  send,
  type GraphQLSurface,
  type RestOperation,
} from '../support/api-surface';
import { freshDataDir } from '../support/pglite-template';
import { startTestApp, testModes, type TestApp } from '../support/test-app';

// Issue 7 — authentication and roles on every REST route (from /docs-json) and every GraphQL
// operation (from introspection), so routes added later are covered without editing this file.
const keys = testKeys();
const PUBLIC = new Set(['GET /healthz', 'GET /readyz']);
const below = (role: Role): Role | undefined => ROLES[ROLES.indexOf(role) - 1];
const keyFor: Record<Role, Record<string, string>> = {
  viewer: keys.headers.viewer,
  operator: keys.headers.operator,
  admin: keys.headers.admin,
};

describe.each(testModes())('authentication and roles (%s)', (mode) => {
  let app: TestApp;
  let rest: RestOperation[];
  let gql: GraphQLSurface;

  beforeAll(async () => {
    app = await startTestApp(mode, { env: { API_KEYS: keys.env, RATE_LIMIT_PER_MINUTE: '0' } });
    rest = await restOperations(app, keys.headers.viewer);
    gql = await graphqlSurface(app, keys.headers.viewer);
  });
  afterAll(async () => {
    await app?.close();
  });

  const call = (op: RestOperation, headers: Record<string, string> = {}) =>
    send(app.url + fillPath(op, (name) => `authz-${name}`), op.method, { headers, body: op.hasBody ? {} : undefined });

  it('finds the routes and operations to check', () => {
    expect(rest.map((o) => o.id)).toEqual(
      expect.arrayContaining(['GET /healthz', 'GET /readyz', 'PUT /v1/nodes/{name}', 'GET /v1/nodes']),
    );
    expect(gql.operations.map((o) => o.id)).toContain('query serviceInfo');
  });

  it('every REST route but /healthz and /readyz answers 401 problem+json without a key, with a wrong key and with a malformed header', async () => {
    const failures: string[] = [];
    for (const op of rest) {
      if (PUBLIC.has(op.id)) continue;
      for (const headers of <Array<Record<string, string>>>[
        {},
        { authorization: 'Bearer not-a-key' },
        { authorization: keys.bearer.admin.replace('Bearer ', 'Basic ') },
        { authorization: `${keys.bearer.admin}x` },
      ]) {
        const r = await call(op, headers);
        if (
          r.status !== 401 ||
          !r.headers.get('content-type')?.includes('application/problem+json') ||
          !/API key/.test(r.body?.detail)
        ) {
          failures.push(`${op.id} ${JSON.stringify(headers)}: ${r.status} ${r.text.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('/healthz and /readyz need no key', async () => {
    expect((await send(`${app.url}/healthz`, 'GET')).status).toBe(200);
    expect((await send(`${app.url}/readyz`, 'GET')).status).toBe(200);
  });

  it('routes outside the controllers need a key too: metrics, OpenAPI, explorer, GraphQL introspection, unknown paths', async () => {
    for (const [method, path, headers] of [
      ['GET', '/metrics', {}],
      ['GET', '/docs', {}],
      ['GET', '/docs-json', {}],
      ['GET', '/docs-yaml', {}],
      ['GET', '/graphql', { accept: 'text/html' }],
      ['GET', '/graphql-explorer/static/ruru.min.js', {}],
      ['GET', '/v1/no-such-route', {}],
    ] as const) {
      const r = await send(app.url + path, method, { headers });
      expect({ path, status: r.status }).toEqual({ path, status: 401 });
    }
    const introspection = await app.graphql('{ __schema { queryType { name } } }');
    expect(introspection.status).toBe(401);
    expect(introspection.headers.get('content-type')).toContain('application/problem+json');
    expect((await send(`${app.url}/metrics`, 'GET', { headers: keys.headers.viewer })).status).toBe(200);
  });

  it('each REST route requires the role API.md gives it (x-required-role in /docs-json)', () => {
    const wrong = rest
      .filter((op) => !PUBLIC.has(op.id) && op.requiredRole !== expectedRestRole(op.method, op.path))
      .map((op) => `${op.id}: requires ${op.requiredRole}, API.md says ${expectedRestRole(op.method, op.path)}`);
    expect(wrong).toEqual([]);
  });

  it('a role too low gets 403 problem+json; the required role gets past the guard', async () => {
    const failures: string[] = [];
    for (const op of rest) {
      if (PUBLIC.has(op.id)) continue;
      const lower = below(op.requiredRole);
      if (lower) {
        const r = await call(op, keyFor[lower]);
        if (
          r.status !== 403 ||
          !r.headers.get('content-type')?.includes('application/problem+json') ||
          !r.body.detail.includes(`needs ${op.requiredRole}`)
        ) {
          failures.push(`${op.id} as ${lower}: ${r.status} ${r.text.slice(0, 120)}`);
        }
      }
      for (const role of ROLES.slice(ROLES.indexOf(op.requiredRole))) {
        const r = await call(op, keyFor[role]);
        if (r.status === 401 || r.status === 403 || r.status >= 500)
          failures.push(`${op.id} as ${role}: ${r.status} ${r.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('GraphQL over HTTP: every query and mutation needs a key; a role too low is FORBIDDEN; the right role passes', async () => {
    const failures: string[] = [];
    for (const op of gql.operations.filter((o) => o.kind !== 'subscription')) {
      const query = operationDocument(op, gql);
      const variables = minimalVariables(op, gql);
      for (const headers of <Array<Record<string, string>>>[{}, { authorization: 'Bearer wrong' }]) {
        const r = await app.graphql(query, variables, headers);
        if (r.status !== 401) failures.push(`${op.id} ${JSON.stringify(headers)}: ${r.status}`);
      }
      const required = expectedGraphQLRole(op);
      const lower = below(required);
      if (lower) {
        const r = await app.graphql(query, variables, keyFor[lower]);
        const code = r.body.errors?.[0]?.extensions?.code;
        if (code !== 'FORBIDDEN') failures.push(`${op.id} as ${lower}: ${code ?? 'no error'} ${r.text.slice(0, 160)}`);
      }
      const r = await app.graphql(query, variables, keyFor[required]);
      const codes = (r.body.errors ?? []).map((e: any) => e.extensions?.code);
      if (
        r.status >= 500 ||
        codes.some((c: string) => ['UNAUTHENTICATED', 'FORBIDDEN', 'INTERNAL_SERVER_ERROR'].includes(c))
      ) {
        failures.push(`${op.id} as ${required}: ${r.status} ${codes.join(',')} ${r.text.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  describe('GraphQL over WebSocket (graphql-ws): the key rides in connectionParams.authorization', () => {
    const clients: Client[] = [];
    afterAll(async () => {
      await Promise.all(clients.map((c) => c.dispose()));
    });

    function wsClient(authorization?: string): { client: Client; closed: Promise<{ code: number; reason: string }> } {
      let onClosed!: (e: { code: number; reason: string }) => void;
      const closed = new Promise<{ code: number; reason: string }>((resolve) => (onClosed = resolve));
      const client = createClient({
        url: app.url.replace('http', 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        connectionParams: authorization ? { authorization } : {},
        retryAttempts: 0,
        lazy: true,
        on: {
          closed: (e) =>
            onClosed({ code: (e as { code: number }).code, reason: String((e as { reason: string }).reason) }),
        },
      });
      clients.push(client);
      return { client, closed };
    }

    function run(
      client: Client,
      query: string,
      variables: Record<string, unknown> = {},
      settleMs = 0,
    ): Promise<{ data?: any; errors?: any[] }> {
      return new Promise((resolve, reject) => {
        let result: { data?: any; errors?: any[] } = {};
        let timer: NodeJS.Timeout | undefined;
        const dispose = client.subscribe(
          { query, variables },
          {
            next: (value) => {
              result = value as typeof result;
            },
            error: (e) => {
              clearTimeout(timer);
              if (Array.isArray(e)) resolve({ errors: e });
              else reject(e);
            },
            complete: () => {
              clearTimeout(timer);
              resolve(result);
            },
          },
        );
        // A subscription that was accepted stays open: after settleMs without an error it passed the guard.
        if (settleMs)
          timer = setTimeout(() => {
            dispose();
            resolve(result);
          }, settleMs);
      });
    }

    it.each([
      ['without a key', undefined, /missing API key/],
      ['with a wrong key', 'Bearer wrong', /invalid API key/],
    ])('closes the connection with 4401 %s', async (_, authorization, reason) => {
      const { client, closed } = wsClient(authorization);
      await expect(run(client, '{ serviceInfo { open } }')).rejects.toBeDefined();
      const e = await closed;
      expect(e.code).toBe(4401);
      expect(e.reason).toMatch(reason);
    });

    it('runs queries with a valid key, and applies roles to mutations and subscriptions', async () => {
      const viewer = wsClient(keys.bearer.viewer).client;
      expect(await run(viewer, '{ serviceInfo { open } }')).toEqual({ data: { serviceInfo: { open: false } } });
      const failures: string[] = [];
      for (const op of gql.operations.filter((o) => o.kind !== 'query')) {
        const required = expectedGraphQLRole(op);
        const query = operationDocument(op, gql);
        const variables = minimalVariables(op, gql);
        const lower = below(required);
        if (lower) {
          const r = await run(
            wsClient(lower === 'viewer' ? keys.bearer.viewer : keys.bearer.operator).client,
            query,
            variables,
            500,
          );
          if (r.errors?.[0]?.extensions?.code !== 'FORBIDDEN')
            failures.push(`${op.id} as ${lower}: ${JSON.stringify(r).slice(0, 200)}`);
        }
        const r = await run(wsClient(keys.bearer[required]).client, query, variables, 500);
        const codes = (r.errors ?? []).map((e: any) => e.extensions?.code);
        if (codes.some((c: string) => ['UNAUTHENTICATED', 'FORBIDDEN', 'INTERNAL_SERVER_ERROR'].includes(c)))
          failures.push(`${op.id} as ${required}: ${codes}`);
      }
      expect(failures).toEqual([]);
    });
  });
});

describe.each(testModes())('redacted explanations (SEMANTICS A.2) (%s)', (mode) => {
  const redacted = 'node(s) had untolerated taint(s)';
  const named = 'node(s) had untolerated taint {dedicated: gpu}';
  const decide = async (app: TestApp, headers: Record<string, string>) => {
    const rest = await send(`${app.url}/v1/decisions/feasible-nodes`, 'POST', { headers, body: { pod: {} } });
    expect(rest.status).toBe(200);
    const gql = await app.graphql(
      '{ feasibleNodes(pod: {}) { message nodes { reasons { message taint { key } } } } }',
      undefined,
      headers,
    );
    expect(gql.body.errors).toBeUndefined();
    return { rest: rest.body, gql: gql.body.data.feasibleNodes };
  };
  const expectRedacted = (answer: { rest: any; gql: any }, hidden: boolean) => {
    for (const body of [answer.rest, answer.gql]) {
      expect(body.message).toBe(`0/1 nodes are available: 1 ${hidden ? redacted : named}.`);
      expect(body.nodes[0].reasons[0].message).toBe(hidden ? redacted : named);
      expect(body.nodes[0].reasons[0].taint ?? null).toEqual(
        hidden ? null : expect.objectContaining({ key: 'dedicated' }),
      );
    }
  };

  it.each([
    { description: 'default: every role sees the taints', env: {} as Record<string, string>, hiddenFor: [] as Role[] },
    {
      description: 'REDACT_TAINTS_BELOW_ROLE=operator: viewers get the redacted wording',
      env: { REDACT_TAINTS_BELOW_ROLE: 'operator' },
      hiddenFor: ['viewer'] as Role[],
    },
    {
      description: 'REDACT_TAINTS_BELOW_ROLE=admin: viewers and operators',
      env: { REDACT_TAINTS_BELOW_ROLE: 'admin' },
      hiddenFor: ['viewer', 'operator'] as Role[],
    },
    {
      description: 'REDACT_TAINTS=true: everyone',
      env: { REDACT_TAINTS: 'true' },
      hiddenFor: ['viewer', 'operator', 'admin'] as Role[],
    },
  ])('$description', async ({ env, hiddenFor }) => {
    const app = await startTestApp(mode, { env: { API_KEYS: keys.env, RATE_LIMIT_PER_MINUTE: '0', ...env } });
    try {
      const put = await send(`${app.url}/v1/nodes/n1`, 'PUT', {
        headers: keys.headers.admin,
        body: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
      });
      expect(put.status).toBe(201);
      for (const role of ROLES) expectRedacted(await decide(app, keyFor[role]), hiddenFor.includes(role));
    } finally {
      await app.close();
    }
  });
});

describe('running open (no API_KEYS)', () => {
  it('lets every caller in as an anonymous admin and says so loudly at start', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const dataDir = freshDataDir();
    const app = await createApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }), {
      logger: pino({ level: 'warn' }, sink),
    });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const warning = lines.map((l) => JSON.parse(l)).find((l) => l.security === 'open');
      expect(warning).toMatchObject({ level: 40 });
      expect(warning.msg).toMatch(/API_KEYS is empty.*OPEN/);
      const address = app.getHttpServer().address() as { port: number };
      const r = await send(`http://127.0.0.1:${address.port}/v1/nodes/open-node`, 'PUT', {
        body: { labels: { a: 'b' } },
      });
      expect(r.status).toBe(201);
      expect((await send(`http://127.0.0.1:${address.port}/metrics`, 'GET')).status).toBe(200);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is refused in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/API_KEYS: required when NODE_ENV=production/);
    expect(() => loadConfig({ NODE_ENV: 'production', API_KEYS: keys.env })).not.toThrow();
  });
});
