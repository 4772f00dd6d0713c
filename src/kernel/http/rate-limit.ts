import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import Redis from 'ioredis';
import type { ApiKeys } from '../auth/api-keys';
import { bearerToken } from '../auth/api-keys';
import { pathOf } from '../auth/authenticate.hook';
import type { RequestWithPrincipal } from '../auth/request-principal';
import { AppError } from '../errors/app-error';

/** Never limited: probes and scrapes must keep working when a client floods the API. */
export const RATE_LIMIT_EXEMPT: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

export interface RateLimitOptions {
  /** Requests per minute per caller; 0 disables the limiter. */
  perMinute: number;
  keys: ApiKeys;
  /** Shared by every replica when set (keys under `${prefix}:ratelimit:`); else counted per replica. */
  redisUrl?: string;
  prefix: string;
}

/**
 * Rate limiting per API key (per client IP when the service runs open or the key is missing or wrong,
 * so guessing keys is limited too) with @fastify/rate-limit: a one-minute window, the IETF draft headers
 * (`ratelimit-limit`, `-remaining`, `-reset`), and past the limit 429 problem+json with `Retry-After`.
 * Registered before the authentication hook; it verifies the key itself only to name the caller, and
 * leaves the principal on the request so the key is hashed once. Redis being down must not take the API
 * with it: commands fail fast and `skipOnError` lets requests through until Redis answers again.
 */
export async function installRateLimit(fastify: FastifyInstance, options: RateLimitOptions): Promise<void> {
  const { perMinute, keys } = options;
  if (perMinute <= 0) return;
  const redis = options.redisUrl ? sharedCounterClient(options.redisUrl) : undefined;
  // Not per route (`global: true` would add a route-level hook, which runs after the authentication
  // hook): one instance-level onRequest hook, added here, before authentication is installed.
  await fastify.register(rateLimit, {
    global: false,
    max: perMinute,
    timeWindow: 60_000,
    enableDraftSpec: true,
    redis,
    nameSpace: `${options.prefix}:ratelimit:`,
    skipOnError: true,
    allowList: (request) => request.method === 'OPTIONS' || RATE_LIMIT_EXEMPT.has(pathOf(request.url)),
    keyGenerator: (request) => callerId(request as RequestWithPrincipal, keys),
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      const message = `rate limit of ${perMinute} requests per minute exceeded; retry in ${seconds} s`;
      return new AppError('RateLimited', message, [], { retryAfterSeconds: seconds });
    },
  });
  fastify.addHook('onRequest', fastify.rateLimit());
  if (redis) fastify.addHook('onClose', async () => redis.disconnect());
}

/** A connection that fails fast instead of queueing while Redis is away. */
function sharedCounterClient(url: string): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    connectionName: 'taintwise-ratelimit',
  });
  redis.on('error', () => undefined); // reported by readiness; skipOnError keeps requests flowing
  return redis;
}

function callerId(request: RequestWithPrincipal, keys: ApiKeys): string {
  if (!keys.open) {
    const token = bearerToken(request.headers.authorization);
    const principal = token ? keys.verify(token) : undefined;
    if (principal) {
      request.principal = principal;
      return `key:${principal.name}`;
    }
  }
  return `ip:${request.ip}`;
}
