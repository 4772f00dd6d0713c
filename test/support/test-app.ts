import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { createApp } from '../../src/app.factory';
import { loadConfig, type AppConfig } from '../../src/kernel/config/config.schema';
import { createTempDatabase, type TempDatabase } from '../../src/kernel/persistence/testing/temp-postgres';
import { freshDataDir } from './pglite-template';
import { deleteRedisKeys, type TestModeName } from './test-modes';

export { deleteRedisKeys, testModes, type TestModeName } from './test-modes';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestApp {
  mode: TestModeName;
  url: string;
  config: AppConfig;
  app: NestFastifyApplication;
  env: Record<string, string>;
  request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<HttpResult<T>>;
  graphql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<HttpResult<{ data?: T; errors?: any[] }>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Reuse the storage of another app (a second replica, or a restart). */
  shareWith?: TestApp;
}

/** Boots a real taintwise on an ephemeral port with its own storage (and Redis prefix). */
export async function startTestApp(mode: TestModeName, options: TestAppOptions = {}): Promise<TestApp> {
  const storage = options.shareWith ? undefined : await freshStorage(mode);
  const env: Record<string, string> = { ...(options.shareWith?.env ?? storage), ...(options.env ?? {}) };
  const config = loadConfig({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', PORT: '0', HOST: '127.0.0.1', ...env });
  const app = await createApp(config, { logger: pino({ level: config.LOG_LEVEL }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const testApp: TestApp = {
    mode,
    url,
    config,
    app,
    env,
    request: (method, path, body, headers) => http(url, method, path, body, headers),
    graphql: (query, variables, headers) => http(url, 'POST', '/graphql', { query, variables }, headers),
    close: async () => {
      await app.close();
      if (storage) await releaseStorage(storage);
    },
  };
  return testApp;
}

/** Storage for one app: a temp PGlite folder, or a temp PostgreSQL database and a Redis key prefix. */
async function freshStorage(mode: TestModeName): Promise<Record<string, string>> {
  if (mode === 'embedded') return { DATA_DIR: freshDataDir() };
  const db: TempDatabase = await createTempDatabase('tw_e2e');
  tempDatabases.set(db.url, db);
  return {
    DATABASE_URL: db.url,
    REDIS_URL: process.env.REDIS_URL!,
    REDIS_PREFIX: `tw-e2e-${randomBytes(5).toString('hex')}`,
  };
}

const tempDatabases = new Map<string, TempDatabase>();

async function releaseStorage(env: Record<string, string>): Promise<void> {
  if (env.DATA_DIR) rmSync(env.DATA_DIR, { recursive: true, force: true });
  if (env.DATABASE_URL)
    await tempDatabases
      .get(env.DATABASE_URL)
      ?.drop()
      .catch(() => undefined);
  if (env.REDIS_URL && env.REDIS_PREFIX) await deleteRedisKeys(env.REDIS_URL, env.REDIS_PREFIX);
}

async function http(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    if (typeof body === 'string') init.body = body;
    else {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
  }
  const response = await fetch(base + path, init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Polls until `check` passes or the time runs out (for effects that land asynchronously). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 5000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      lastError = e;
      if (Date.now() > deadline) throw lastError;
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  }
}
