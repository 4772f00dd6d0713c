// First, before any other module is loaded: the V8 flags the service runs with (kernel/runtime/heap-flags.ts).
import './kernel/runtime/apply-heap-flags';
import { createApp } from './app.factory';
import { createRootLogger } from './kernel/logging/json-logger';
import { ConfigError, loadConfig } from './kernel/config/config.schema';
import { collectGarbageNow } from './kernel/runtime/full-collection';

/**
 * Starts taintwise. SIGTERM/SIGINT: stop accepting, finish in-flight requests, close the database
 * and Redis (Nest shutdown hooks), then exit; a second signal or the timeout forces the exit.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw e;
  }
  const logger = createRootLogger(config.LOG_LEVEL);
  const started = performance.now();
  const app = await createApp(config, { logger });
  // Loading the snapshot leaves its garbage (the database rows it was built from: ~110 MB at 150,000 pods) in the
  // old generation, where nothing collects it until the heap reaches its limit, under live load. Collected here,
  // before the first request: a full collection after the read loads then took 47 ms instead of 58 (means of 4
  // alternated rounds at the bench's size), and the memory is returned at once (bench/ANALYSIS.md).
  const startupGcMs = Math.round(collectGarbageNow());
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info(
    { port: config.PORT, host: config.HOST, startupMs: Math.round(performance.now() - started), startupGcMs },
    'taintwise listening',
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS).unref();
    app.close().then(
      () => process.exit(0),
      (e: unknown) => {
        logger.error({ err: e }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main().catch((e: unknown) => {
  process.stderr.write(`taintwise failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
