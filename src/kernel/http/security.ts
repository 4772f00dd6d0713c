import cors from '@fastify/cors';
import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { AppConfig } from '../config/config.schema';

/** Helmet's options: every default but the cross-origin embedder policy, and this CSP. */
export const SECURITY_HEADERS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'unsafe-inline'", "'unsafe-eval'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
    },
  },
  crossOriginEmbedderPolicy: false,
};

/**
 * Security headers and CORS. The CSP allows inline scripts/styles because the GraphQL explorer and
 * the OpenAPI UI (both served from this origin) need them; nothing is loaded from another origin.
 */
export async function installSecurity(
  _app: INestApplication,
  fastify: FastifyInstance,
  config: AppConfig,
): Promise<void> {
  installSecurityHeaders(fastify, SECURITY_HEADERS);
  const origins = config.CORS_ORIGINS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (origins.length > 0) {
    await fastify.register(cors, {
      origin: origins.includes('*') ? true : origins,
      credentials: false,
      // @fastify/cors allows only GET, HEAD and POST by default: a browser's PUT or DELETE preflight would fail.
      methods: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'OPTIONS'],
      exposedHeaders: ['x-request-id', 'retry-after', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'],
      maxAge: 600,
    });
  }
}

/** A header helmet sets (value) or removes (undefined), in helmet's order. */
export type HeaderChange = [name: string, value: string | undefined];

/**
 * Helmet's headers, worked out once. @fastify/helmet called `helmet(options)` for every request — parsing
 * the CSP directives and building the middleware chain each time (~5 % of a feasible-nodes request's
 * CPU, bench/ANALYSIS.md) — although with static options the headers never change. Here helmet runs once
 * against a recording response, and each request gets the same setHeader/removeHeader calls on the raw
 * response, in the same order, as helmet's middleware makes.
 */
export function helmetHeaderChanges(options: HelmetOptions): HeaderChange[] {
  const changes: HeaderChange[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => changes.push([name, String(value)]),
    removeHeader: (name: string) => changes.push([name, undefined]),
  };
  let failure: unknown;
  helmet(options)({} as never, recorder as never, (error?: unknown) => (failure = error));
  if (failure !== undefined) throw failure instanceof Error ? failure : new Error(String(failure));
  return changes;
}

export function installSecurityHeaders(fastify: FastifyInstance, options: HelmetOptions): void {
  const changes = helmetHeaderChanges(options);
  fastify.addHook('onRequest', (_request, reply, done) => {
    const res = reply.raw;
    for (const [name, value] of changes) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    done();
  });
}
