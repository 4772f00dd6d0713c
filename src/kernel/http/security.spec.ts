import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Fastify from 'fastify';
import helmet from 'helmet';
import { helmetHeaderChanges, installSecurityHeaders, SECURITY_HEADERS } from './security';

/** What helmet's own middleware leaves on a real response (the per-request path @fastify/helmet took). */
function headersFromHelmet(): Record<string, unknown> {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  res.setHeader('X-Powered-By', 'something');
  let failure: unknown;
  helmet(SECURITY_HEADERS)(res.req, res, (error?: unknown) => (failure = error));
  expect(failure).toBeUndefined();
  return res.getHeaders();
}

describe('security headers worked out once', () => {
  it('records the same calls helmet makes, in its order', () => {
    const changes = helmetHeaderChanges(SECURITY_HEADERS);
    expect(changes.map(([name]) => name)).toEqual([
      'Content-Security-Policy',
      'Cross-Origin-Opener-Policy',
      'Cross-Origin-Resource-Policy',
      'Origin-Agent-Cluster',
      'Referrer-Policy',
      'Strict-Transport-Security',
      'X-Content-Type-Options',
      'X-DNS-Prefetch-Control',
      'X-Download-Options',
      'X-Frame-Options',
      'X-Permitted-Cross-Domain-Policies',
      'X-Powered-By',
      'X-XSS-Protection',
    ]);
    expect(changes.find(([name]) => name === 'X-Powered-By')).toEqual(['X-Powered-By', undefined]);
  });

  it('gives every response exactly the headers helmet middleware sets', async () => {
    const fastify = Fastify();
    installSecurityHeaders(fastify, SECURITY_HEADERS);
    fastify.get('/x', (_request, reply) => {
      void reply.raw.setHeader('x-powered-by', 'not removed before the hook');
      return 'ok';
    });
    fastify.get('/y', () => 'ok');
    const expected = headersFromHelmet();
    const r = await fastify.inject({ method: 'GET', url: '/y' });
    for (const [name, value] of Object.entries(expected)) expect(r.headers[name]).toBe(value);
    expect(r.headers['x-powered-by']).toBeUndefined();
    expect(r.headers['content-security-policy']).toBe(
      "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self' 'unsafe-inline' 'unsafe-eval';script-src-attr 'none';style-src 'self' 'unsafe-inline';upgrade-insecure-requests;connect-src 'self';worker-src 'self' blob:",
    );
    // 404s pass the onRequest hooks too
    const missing = await fastify.inject({ method: 'GET', url: '/nowhere' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-frame-options']).toBe('SAMEORIGIN');
    await fastify.close();
  });
});
