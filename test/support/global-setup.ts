/**
 * Runs once before the end-to-end suites. With DATABASE_URL/REDIS_URL set it checks that both
 * servers answer, so a missing service fails loudly here instead of as a hundred time-outs.
 */
import { rmSync } from 'node:fs';
import { Client } from 'pg';
import Redis from 'ioredis';
import { openDatabase } from '../../src/kernel/persistence/database';
import { newTemplateDir, TEMPLATE_ENV } from './pglite-template';

export default async function globalSetup(): Promise<void> {
  await buildPgliteTemplate();
  if (process.env.DATABASE_URL) {
    const client = new Client({ connectionString: process.env.DATABASE_URL, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (e) {
      throw new Error(`DATABASE_URL is set but PostgreSQL does not answer: ${(e as Error).message}`, { cause: e });
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  if (process.env.REDIS_URL) {
    const redis = new Redis(process.env.REDIS_URL, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      connectTimeout: 5000,
    });
    try {
      await redis.connect();
      await redis.ping();
    } catch (e) {
      throw new Error(`REDIS_URL is set but Redis does not answer: ${(e as Error).message}`, { cause: e });
    } finally {
      redis.disconnect();
    }
  }
}

/**
 * PGlite's first start in an empty folder runs initdb (3-8 s on a loaded 2-core machine). Every test
 * app would pay it, so one migrated data folder is built here and each embedded app starts on a copy.
 */
async function buildPgliteTemplate(): Promise<void> {
  const dir = newTemplateDir();
  const database = await openDatabase({ dataDir: dir });
  await database.close();
  rmSync(`${dir}/pglite.lock`, { force: true });
  process.env[TEMPLATE_ENV] = dir; // inherited by the test workers
}
