import Redis from 'ioredis';

/**
 * What the suites that run the real server as a child process need, without the app: importing
 * test-app.ts loads the whole service (Nest, Apollo, Prisma) into the test worker, seconds of CPU per
 * file that a suite which never starts an app in-process does not use.
 */
export type TestModeName = 'embedded' | 'postgres+redis';

/**
 * The modes every end-to-end suite runs in: the embedded defaults (PGlite, in-process timers)
 * always, and real PostgreSQL + Redis when DATABASE_URL and REDIS_URL are set (CI sets both).
 */
export function testModes(): TestModeName[] {
  return process.env.DATABASE_URL && process.env.REDIS_URL ? ['embedded', 'postgres+redis'] : ['embedded'];
}

export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
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
