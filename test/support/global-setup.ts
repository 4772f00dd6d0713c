/**
 * Runs once before the end-to-end suites. With DATABASE_URL/REDIS_URL set it checks that both
 * servers answer, so a missing service fails loudly here instead of as a hundred time-outs.
 */
import { Client } from 'pg';
import Redis from 'ioredis';

export default async function globalSetup(): Promise<void> {
  if (process.env.DATABASE_URL) {
    const client = new Client({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (e) {
      throw new Error(`DATABASE_URL is set but PostgreSQL does not answer: ${(e as Error).message}`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  if (process.env.REDIS_URL) {
    const redis = new Redis(process.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5000 });
    try {
      await redis.connect();
      await redis.ping();
    } catch (e) {
      throw new Error(`REDIS_URL is set but Redis does not answer: ${(e as Error).message}`);
    } finally {
      redis.disconnect();
    }
  }
}
