import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';

export type ModeName = 'embedded' | 'postgres';

export interface Storage {
  mode: ModeName;
  env: Record<string, string>;
  /** Human description for the report. */
  describe: string;
  /** Redis key prefix (postgres mode), to count delayed jobs. */
  redisPrefix?: string;
  cleanup(): Promise<void>;
}

export interface StorageSettings {
  postgresUrl: string;
  redisUrl: string;
}

/** Own storage per run: a `taintwise_bench_*` database + a unique Redis prefix, or a temp PGlite folder. */
export async function createStorage(mode: ModeName, settings: StorageSettings): Promise<Storage> {
  const id = randomBytes(5).toString('hex');
  if (mode === 'embedded') {
    const dir = mkdtempSync(join(tmpdir(), 'taintwise-bench-'));
    return {
      mode,
      env: { DATA_DIR: dir },
      describe: `PGlite in ${dir}, in-process timers`,
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `taintwise_bench_${id}`;
  await adminQuery(settings.postgresUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(settings.postgresUrl);
  url.pathname = `/${name}`;
  const prefix = `twbench-${id}`;
  return {
    mode,
    env: { DATABASE_URL: url.toString(), REDIS_URL: settings.redisUrl, REDIS_PREFIX: prefix },
    describe: `PostgreSQL database ${name}, Redis prefix ${prefix}`,
    redisPrefix: prefix,
    cleanup: async () => {
      await adminQuery(settings.postgresUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch((e) =>
        console.error(`could not drop ${name}: ${e}`),
      );
      await deleteRedisKeys(settings.redisUrl, prefix).catch((e) =>
        console.error(`could not delete Redis keys ${prefix}*: ${e}`),
      );
    },
  };
}

export async function adminQuery(postgresUrl: string, sql: string): Promise<any[]> {
  const url = new URL(postgresUrl);
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function redisClient(redisUrl: string): Redis {
  return new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    retryStrategy: () => null,
  });
}

async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = redisClient(redisUrl);
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * BullMQ jobs under a prefix (the armed eviction timers), whatever the queue is called: delayed, waiting (due), active.
 */
export async function countDelayedJobs(
  redisUrl: string,
  prefix: string,
): Promise<{ delayed: number; waiting: number; active: number }> {
  const redis = redisClient(redisUrl);
  const out = { delayed: 0, waiting: 0, active: 0 };
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        if (key.endsWith(':delayed')) out.delayed += await redis.zcard(key);
        else if (key.endsWith(':prioritized')) out.waiting += await redis.zcard(key);
        else if (key.endsWith(':wait')) out.waiting += await redis.llen(key);
        else if (key.endsWith(':active')) out.active += await redis.llen(key);
      }
    } while (cursor !== '0');
    return out;
  } finally {
    redis.disconnect();
  }
}
