import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { testKeys } from '../support/api-keys';
import { send } from '../support/api-surface';
import { startTestApp, testModes, type TestApp } from '../support/test-app';

// Issue 7 — limits: body size, rate limiting per key (shared through Redis), GraphQL depth and
// complexity (HTTP and WebSocket), database statement timeouts, security headers, CORS.
const keys = testKeys();
const problemJson = (r: { headers: Headers }) =>
  expect(r.headers.get('content-type')).toContain('application/problem+json');

describe.each(testModes())('limits (%s)', (mode) => {
  describe('body size', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(mode, { env: { BODY_LIMIT_BYTES: '2048', RATE_LIMIT_PER_MINUTE: '0' } });
    });
    afterAll(async () => app?.close());

    it.each([
      ['PUT', '/v1/nodes/big', 'application/json'],
      ['POST', '/v1/taints', 'application/json'],
      ['POST', '/v1/import', 'application/json'],
      ['POST', '/v1/import', 'application/yaml'],
      ['POST', '/graphql', 'application/json'],
      ['PUT', '/v1/nodes/big', 'text/plain'],
    ])('%s %s (%s) over BODY_LIMIT_BYTES answers 413 problem+json', async (method, path, contentType) => {
      const body = contentType.includes('json')
        ? JSON.stringify({ labels: { big: 'x'.repeat(4000) } })
        : `a: ${'x'.repeat(4000)}\n`;
      const r = await send(app.url + path, method, { body, headers: { 'content-type': contentType } });
      expect(r.status).toBe(413);
      problemJson(r);
      expect(r.body).toMatchObject({ status: 413, title: 'Payload Too Large' });
      expect(r.body.detail).toMatch(/request body is too large/i);
    });

    it('a body within the limit is accepted', async () => {
      const r = await send(`${app.url}/v1/nodes/small`, 'PUT', { body: { labels: { a: 'b' } } });
      expect(r.status).toBe(201);
    });
  });

  describe('rate limiting per key', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(mode, { env: { API_KEYS: keys.env, RATE_LIMIT_PER_MINUTE: '5' } });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('answers 429 problem+json with Retry-After past the limit; other keys and the probes are not affected', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await send(`${app.url}/v1/nodes`, 'GET', { headers: keys.headers.viewer });
        statuses.push(r.status);
        expect(r.headers.get('ratelimit-limit')).toBe('5');
        expect(r.headers.get('ratelimit-remaining')).toBe(String(4 - i));
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const limited = await send(`${app.url}/v1/nodes`, 'GET', { headers: keys.headers.viewer });
      expect(limited.status).toBe(429);
      problemJson(limited);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.body).toMatchObject({ status: 429, title: 'Too Many Requests', retryAfterSeconds: retryAfter });
      expect(limited.body.detail).toMatch(/rate limit of 5 requests per minute exceeded/);
      // GraphQL counts against the same key.
      expect((await app.graphql('{ serviceInfo { open } }', undefined, keys.headers.viewer)).status).toBe(429);
      // Another key has its own window.
      expect((await send(`${app.url}/v1/nodes`, 'GET', { headers: keys.headers.operator })).status).toBe(200);
      for (const path of ['/healthz', '/readyz', '/metrics']) {
        const r = await send(app.url + path, 'GET', { headers: keys.headers.viewer });
        expect({ path, status: r.status }).toEqual({ path, status: 200 });
      }
    });

    it('counts requests without a valid key by client IP', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++)
        statuses.push(
          (await send(`${app.url}/v1/nodes`, 'GET', { headers: { authorization: 'Bearer guess' } })).status,
        );
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    });
  });

  it('RATE_LIMIT_PER_MINUTE=0 disables the limiter', async () => {
    const app = await startTestApp(mode, { env: { RATE_LIMIT_PER_MINUTE: '0' } });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 40 }, () => send(`${app.url}/v1/nodes`, 'GET').then((r) => r.status)),
      );
      expect(new Set(statuses)).toEqual(new Set([200]));
      expect((await send(`${app.url}/v1/nodes`, 'GET')).headers.get('ratelimit-limit')).toBeNull();
    } finally {
      await app.close();
    }
  });

  describe('GraphQL depth and complexity', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(mode, {
        env: { GRAPHQL_MAX_DEPTH: '2', GRAPHQL_MAX_COMPLEXITY: '20', RATE_LIMIT_PER_MINUTE: '0' },
      });
    });
    afterAll(async () => app?.close());

    const shallow = '{ tolerationMatch(taints: [{ key: "a", effect: NoSchedule }], tolerations: []) { schedulable } }';
    const deep =
      '{ tolerationMatch(taints: [{ key: "a", effect: NoSchedule }], tolerations: []) { matches { taint { key } } } }';
    const costly = `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: serviceInfo { open }`).join(' ')} }`;

    it('over HTTP: too deep and too complex are 400 with QUERY_TOO_DEEP / QUERY_TOO_COMPLEX', async () => {
      expect((await app.graphql(shallow)).body.data.tolerationMatch.schedulable).toBe(false);
      const tooDeep = await app.graphql(deep);
      expect(tooDeep.status).toBe(400);
      expect(tooDeep.body.errors?.[0]).toMatchObject({
        message: 'query depth 4 exceeds the limit of 2',
        extensions: { code: 'QUERY_TOO_DEEP' },
      });
      const tooComplex = await app.graphql(costly);
      expect(tooComplex.status).toBe(400);
      expect(tooComplex.body.errors?.[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
      expect(tooComplex.body.errors?.[0].message).toMatch(/exceeds the limit of 20/);
      // Fragments do not hide depth.
      const viaFragment = await app.graphql(
        `{ tolerationMatch(taints: [{ key: "a", effect: NoSchedule }], tolerations: []) { ...M } } fragment M on TolerationMatch { matches { taint { key } } }`,
      );
      expect(viaFragment.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_DEEP');
    });

    it('over WebSocket (graphql-ws) the same limits apply, with the same error shape', async () => {
      const client = createClient({
        url: `${app.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
      });
      const run = (query: string) =>
        new Promise<any>((resolve, reject) => {
          let last: unknown;
          client.subscribe(
            { query },
            {
              next: (v) => (last = v),
              error: (e) => (Array.isArray(e) ? resolve({ errors: e }) : reject(e)),
              complete: () => resolve(last),
            },
          );
        });
      try {
        expect((await run(shallow)).data.tolerationMatch.schedulable).toBe(false);
        expect((await run(deep)).errors[0].extensions.code).toBe('QUERY_TOO_DEEP');
        expect((await run(costly)).errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
      } finally {
        await client.dispose();
      }
    });
  });

  describe('security headers and CORS', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(mode, {
        env: {
          API_KEYS: keys.env,
          CORS_ORIGINS: 'https://ui.example, https://other.example',
          RATE_LIMIT_PER_MINUTE: '0',
        },
      });
    });
    afterAll(async () => app?.close());

    it('sets the security headers on answers and on errors (401, 404, 400)', async () => {
      for (const [path, headers, status] of [
        ['/v1/nodes', keys.headers.viewer, 200],
        ['/v1/nodes', {}, 401],
        ['/v1/nodes/none', keys.headers.viewer, 404],
        ['/healthz', {}, 200],
      ] as const) {
        const r = await send(app.url + path, 'GET', { headers });
        expect(r.status).toBe(status);
        expect(r.headers.get('x-content-type-options')).toBe('nosniff');
        expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
        expect(r.headers.get('x-frame-options')).toBe('SAMEORIGIN');
        expect(r.headers.get('strict-transport-security')).toMatch(/max-age=/);
        expect(r.headers.get('referrer-policy')).toBe('no-referrer');
        expect(r.headers.get('x-powered-by')).toBeNull();
      }
    });

    it('answers CORS preflights and requests for the configured origins only', async () => {
      const preflight = await send(`${app.url}/v1/nodes`, 'OPTIONS', {
        headers: {
          origin: 'https://ui.example',
          'access-control-request-method': 'PUT',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(preflight.status).toBeLessThan(300);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://ui.example');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
      const allowed = await send(`${app.url}/v1/nodes`, 'GET', {
        headers: { origin: 'https://other.example', ...keys.headers.viewer },
      });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://other.example');
      expect(allowed.headers.get('access-control-expose-headers')).toContain('retry-after');
      // An error still carries the CORS header, so a browser can read the problem.
      const unauthorized = await send(`${app.url}/v1/nodes`, 'GET', { headers: { origin: 'https://ui.example' } });
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers.get('access-control-allow-origin')).toBe('https://ui.example');
      const foreign = await send(`${app.url}/v1/nodes`, 'GET', {
        headers: { origin: 'https://evil.example', ...keys.headers.viewer },
      });
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('without CORS_ORIGINS no CORS header is sent', async () => {
      const plain = await startTestApp(mode, { env: { RATE_LIMIT_PER_MINUTE: '0' } });
      try {
        const r = await send(`${plain.url}/v1/nodes`, 'GET', { headers: { origin: 'https://ui.example' } });
        expect(r.status).toBe(200);
        expect(r.headers.get('access-control-allow-origin')).toBeNull();
      } finally {
        await plain.close();
      }
    });
  });
});
