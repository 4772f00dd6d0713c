import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import type { INestApplication } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/config.schema';

/**
 * Security headers and CORS. The CSP allows inline scripts/styles because the GraphQL explorer and
 * the OpenAPI UI (both served from this origin) need them; nothing is loaded from another origin.
 */
export async function installSecurity(
  _app: INestApplication,
  fastify: FastifyInstance,
  config: AppConfig,
): Promise<void> {
  await fastify.register(helmet, {
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
  });
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
