// Throw-away PostgreSQL databases for tests: created on the server named by DATABASE_URL (or
// TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres) and dropped afterwards.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export function adminUrl(): string {
  return process.env.DATABASE_URL || process.env.TEST_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

export interface TempDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const url = new URL(adminUrl());
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL tests need a server at ${url.host} (set TEST_POSTGRES_URL or DATABASE_URL): ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function createTempDatabase(prefix = 'taintwise_persist'): Promise<TempDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}
