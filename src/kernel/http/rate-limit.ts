import type { FastifyInstance, FastifyRequest } from 'fastify';
import Redis from 'ioredis';
import type { Logger as PinoLogger } from 'pino';
import type { ApiKeys } from '../auth/api-keys';
import { bearerToken } from '../auth/api-keys';
import type { RequestWithPrincipal } from '../auth/request-principal';
import { pathOf } from '../auth/authenticate.hook';
import { AppError } from '../errors/app-error';

/** Never limited: probes and scrapes must keep working when a client floods the API. */
export const RATE_LIMIT_EXEMPT: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

const WINDOW_MS = 60_000;

/** One fixed window per caller: the count so far in the current window and the ms until it resets. */
export interface RateLimitStore {
  readonly kind: 'redis' | 'memory';
  hit(id: string): Promise<{ count: number; resetMs: number }>;
  close(): Promise<void>;
}

/** Per replica; used without Redis, and while Redis is unreachable. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly kind = 'memory';
  private readonly windows = new Map<string, { resetAt: number; count: number }>();
  private nextSweep = 0;

  constructor(private readonly windowMs = WINDOW_MS, private readonly now: () => number = Date.now) {}

  async hit(id: string): Promise<{ count: number; resetMs: number }> {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now);
    let w = this.windows.get(id);
    if (!w || w.resetAt <= now) {
      w = { resetAt: now + this.windowMs, count: 0 };
      this.windows.set(id, w);
    }
    w.count++;
    return { count: w.count, resetMs: w.resetAt - now };
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number): void {
    for (const [id, w] of this.windows) if (w.resetAt <= now) this.windows.delete(id);
    this.nextSweep = now + this.windowMs;
  }
}

/**
 * INCR and, on the window's first hit, PEXPIRE — atomically in one script, so a key can never be
 * left without an expiry. The window starts at the caller's first request, on Redis' clock, so
 * replicas with skewed clocks still share one window.
 */
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;

type RedisWithHit = Redis & { taintwiseRateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

/**
 * Shared by every replica through Redis under `${prefix}:ratelimit:`. Redis being down must not take
 * the API with it: commands fail fast (no offline queue, short timeout) and the limiter falls back
 * to this replica's memory until Redis answers again.
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis';
  private readonly redis: RedisWithHit;
  private readonly fallback: MemoryRateLimitStore;
  private lastWarning = 0;

  constructor(redisUrl: string, private readonly prefix: string, private readonly log: (msg: string, err: unknown) => void, private readonly windowMs = WINDOW_MS) {
    this.fallback = new MemoryRateLimitStore(windowMs);
    this.redis = new Redis(redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
      connectTimeout: 2000,
      retryStrategy: (times) => Math.min(times * 200, 2000),
      connectionName: 'taintwise-ratelimit',
    }) as RedisWithHit;
    this.redis.defineCommand('taintwiseRateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis.on('error', (err) => this.warn('rate limiter: Redis connection error', err));
  }

  async hit(id: string): Promise<{ count: number; resetMs: number }> {
    try {
      const [count, ttl] = await this.redis.taintwiseRateLimitHit(`${this.prefix}:ratelimit:${id}`, this.windowMs);
      return { count: Number(count), resetMs: Number(ttl) };
    } catch (err) {
      this.warn('rate limiter: Redis unavailable; counting in this replica until it returns', err);
      return this.fallback.hit(id);
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    await this.fallback.close();
  }

  private warn(msg: string, err: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < 10_000) return;
    this.lastWarning = now;
    this.log(msg, err);
  }
}

export interface RateLimitOptions {
  /** Requests per minute per caller; 0 disables the limiter. */
  perMinute: number;
  keys: ApiKeys;
  /** Called only when the limiter is enabled. */
  store: () => RateLimitStore;
}

/**
 * Rate limiting per API key (per client IP when the service runs open or the key is missing or
 * wrong, so guessing keys is limited too): a fixed one-minute window; past the limit, 429
 * problem+json with Retry-After (seconds until the window resets). Registered before the
 * authentication hook; it verifies the key itself only to name the caller, and leaves the
 * principal on the request so the key is hashed once.
 */
export function installRateLimit(fastify: FastifyInstance, options: RateLimitOptions): void {
  const { perMinute, keys } = options;
  if (perMinute <= 0) return;
  const store = options.store();
  fastify.addHook('onRequest', async (request: FastifyRequest, reply) => {
    if (request.method === 'OPTIONS' || RATE_LIMIT_EXEMPT.has(pathOf(request.url))) return;
    const { count, resetMs } = await store.hit(callerId(request as RequestWithPrincipal, keys));
    const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
    void reply.header('ratelimit-limit', String(perMinute));
    void reply.header('ratelimit-remaining', String(Math.max(0, perMinute - count)));
    void reply.header('ratelimit-reset', String(resetSeconds));
    if (count > perMinute) {
      throw new AppError('RateLimited', `rate limit of ${perMinute} requests per minute exceeded; retry in ${resetSeconds} s`, [], { retryAfterSeconds: resetSeconds });
    }
  });
  fastify.addHook('onClose', async () => store.close());
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

/** The store for a deployment: Redis (shared by the replicas) when REDIS_URL is set, else memory. */
export function rateLimitStore(config: { REDIS_URL?: string; REDIS_PREFIX: string }, logger: Pick<PinoLogger, 'warn'>): RateLimitStore {
  if (!config.REDIS_URL) return new MemoryRateLimitStore();
  return new RedisRateLimitStore(config.REDIS_URL, config.REDIS_PREFIX, (msg, err) => logger.warn({ err: String(err) }, msg));
}
