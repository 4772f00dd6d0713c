import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import { AppModule } from './app.module';
import { createRootLogger, JsonLogger } from './kernel/logging/json-logger';
import { ApiKeys } from './kernel/auth/api-keys';
import { installAuthentication } from './kernel/auth/authenticate.hook';
import { ProblemJsonFilter, sendProblem } from './kernel/http/problem-json.filter';
import { installQueryParameterCheck } from './kernel/http/query-params';
import { parseJsonBody } from './kernel/http/json-body';
import { installRateLimit } from './kernel/http/rate-limit';
import { installSecurity } from './kernel/http/security';
import type { AppConfig } from './kernel/config/config.schema';
import { registerExplorer } from './kernel/graphql/explorer';
import { registerOpenApi } from './kernel/http/openapi';
import { Metrics } from './kernel/observability/metrics';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the whole application (not listening yet): used by main.ts, the e2e tests and the bench. */
export async function createApp(
  config: AppConfig,
  options: { logger?: PinoLogger } = {},
): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createRootLogger(config.LOG_LEVEL);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // Fastify 5.12's form of `disableRequestLogging` (the top-level option warns FSTDEP023 at every start).
    logController: new LogController({
      disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace',
    }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
    genReqId: (req: IncomingMessage) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    // Errors the router raises before any hook or handler (a path segment over maxParamLength, bad
    // percent-encoding) leave as problem+json like every other error.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) =>
      sendProblem(request, reply, error, new Logger('http')),
    // No Nest middleware exists here (every cross-cutting step is a Fastify hook: security.ts, rate-limit.ts,
    // authenticate.hook.ts), so @fastify/middie is not registered: its onRequest hook ran for every request
    // with nothing to call (~2 % of a feasible-nodes request's CPU, bench/ANALYSIS.md).
    skipMiddie: true,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), adapter, {
    logger: new JsonLogger(logger),
    bufferLogs: false,
    // Our parsers (installBodyParsers) are the only ones: Nest's would reject the import's raw streams.
    bodyParser: false,
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
  installBodyParsers(fastify);
  installRequestHooks(fastify, app.get(Metrics));
  await installSecurity(app, fastify, config);
  // After CORS (preflights and CORS headers on errors), before the explorer and every route.
  const keys = app.get(ApiKeys);
  await installRateLimit(fastify, {
    perMinute: config.RATE_LIMIT_PER_MINUTE,
    keys,
    redisUrl: config.REDIS_URL,
    prefix: config.REDIS_PREFIX,
  });
  installAuthentication(fastify, keys);
  installQueryParameterCheck(fastify);
  if (keys.open) {
    logger.warn(
      { security: 'open', apiKeys: 0 },
      '!!! API_KEYS is empty: taintwise is running OPEN — every caller is an anonymous admin who can change and delete the inventory. Set API_KEYS (name:role:sha256hex) before exposing this service. !!!',
    );
  }
  registerExplorer(fastify);
  app.useGlobalFilters(new ProblemJsonFilter());
  registerOpenApi(app);
  return app;
}

/**
 * JSON bodies are parsed as Fastify's own parser would (json-body.ts), except POST /v1/import, which takes the raw
 * text: a `kubectl cluster-info dump` stream is several JSON documents in a row and is not one JSON value. YAML
 * bodies are passed on as text for the importer.
 */
function installBodyParsers(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    // the Kubernetes API's patch types are JSON documents too (src/kube-api/apply-patch.ts)
    [
      'application/json',
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
    ],
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done) => {
      if (isRawRoute(request)) return done(null, body);
      parseJsonBody(String(body), done);
    },
  );
  fastify.addContentTypeParser(
    ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml', 'text/plain'],
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done) => {
      if (isRawRoute(request)) return done(null, body);
      done(
        Object.assign(new Error('YAML bodies are accepted only by POST /v1/import'), {
          statusCode: 415,
          code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
        }),
        undefined,
      );
    },
  );
}

function isRawRoute(request: FastifyRequest): boolean {
  return request.url.split('?')[0].replace(/\/$/, '') === '/v1/import';
}

/**
 * Request id echoed back, and the request-duration histogram by route template and status.
 *
 * Both hooks take Fastify's callback form, not `async`. With an async onSend hook, under a steady 1,000 requests a
 * second, every minor collection moved 12-25 % of all that was allocated (~6-10 MB) into the old generation: the
 * requests' objects were kept alive from dead ones already promoted, so the old generation filled every few seconds
 * and the open loop's worst answers waited 100-200 ms around its collections (bench/ANALYSIS.md, "requests that
 * were promoted"). With the callback form (and json-body.ts) the same load promotes ~0.1 %.
 */
function installRequestHooks(fastify: FastifyInstance, metrics: Metrics): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', String(request.id));
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    metrics.httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
