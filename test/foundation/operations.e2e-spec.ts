import { startTestApp, testModes, type TestApp } from '../support/test-app';

// Issue 2: health, readiness, OpenAPI, GraphQL introspection, problem+json for unknown routes and
// malformed JSON — in every mode (embedded defaults, and PostgreSQL + Redis when configured).
describe.each(testModes())('operations (%s)', (mode) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(mode);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('GET /healthz answers 200', async () => {
    const r = await app.request('GET', '/healthz');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok' });
  });

  it('GET /readyz checks the database and the timers', async () => {
    const r = await app.request('GET', '/readyz');
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ready');
    expect(r.body.checks.database.ok).toBe(true);
    expect(Object.keys(r.body.checks)).toEqual(['database', mode === 'embedded' ? 'timers' : 'redis']);
  });

  it('serves the OpenAPI document and its UI', async () => {
    const doc = await app.request('GET', '/docs-json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/nodes',
        '/v1/nodes/{name}',
        '/v1/namespaces/{namespace}/pods/{name}',
        '/healthz',
        '/readyz',
      ]),
    );
    const ui = await app.request('GET', '/docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });

  it('answers a GraphQL introspection query', async () => {
    const r = await app.graphql('{ __schema { queryType { name } types { name } } }');
    expect(r.status).toBe(200);
    expect(r.body.data.__schema.queryType.name).toBe('Query');
    expect(r.body.data.__schema.types.map((t: { name: string }) => t.name)).toContain('ServiceInfo');
    const info = await app.graphql('{ serviceInfo { storage timers comparisonOperators open } }');
    expect(info.body.data.serviceInfo).toEqual({
      storage: mode === 'embedded' ? 'pglite' : 'postgres',
      timers: mode === 'embedded' ? 'in-process' : 'redis',
      comparisonOperators: true,
      open: true,
    });
  });

  it('exposes Prometheus metrics with the request-duration histogram by route and status', async () => {
    await app.request('GET', '/healthz');
    const r = await app.request('GET', '/metrics');
    expect(r.status).toBe(200);
    expect(r.text).toContain('taintwise_process_cpu_seconds_total');
    expect(r.text).toMatch(/taintwise_http_request_duration_seconds_bucket\{[^}]*route="\/healthz"[^}]*status="200"/);
  });

  it('echoes a request id', async () => {
    const r = await fetch(`${app.url}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(r.headers.get('x-request-id')).toBe('abc-123');
    const generated = await fetch(`${app.url}/healthz`);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers 404 problem+json for an unknown route', async () => {
    const r = await app.request('GET', '/v1/nope');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body).toMatchObject({ type: 'about:blank', title: 'Not Found', status: 404 });
  });

  it('answers 400 problem+json for malformed JSON', async () => {
    const r = await app.request('PUT', '/v1/nodes/n1', '{"name": "n1", ', { 'content-type': 'application/json' });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.body.detail).toMatch(/malformed JSON/);
  });

  it('sets security headers', async () => {
    const r = await app.request('GET', '/healthz');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});

describe('readiness when Redis is unreachable', () => {
  it('answers 503 naming redis, while the database is fine', async () => {
    const app = await startTestApp('embedded', {
      env: { REDIS_URL: 'redis://127.0.0.1:1', REDIS_PREFIX: 'tw-unreachable' },
    });
    try {
      const r = await app.request('GET', '/readyz');
      expect(r.status).toBe(503);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.body.detail).toMatch(/redis/);
      expect(r.body.checks.database.ok).toBe(true);
      expect(r.body.checks.redis.ok).toBe(false);
      expect((await app.request('GET', '/healthz')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
