import { randomUUID } from 'node:crypto';
import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ApiKeys } from './auth/api-keys';
import { throttledLog } from './logging/throttled-log';
import { APP_CONFIG, type AppConfig } from './config/config.schema';
import { Metrics } from './observability/metrics';
import { READINESS_CHECKS, type ReadinessCheck } from './observability/readiness';
import { openDatabase, type Database } from './persistence/database';
import { BullMqDelayedJobs } from './timers/bullmq-delayed-jobs';
import { systemClock } from './timers/clock';
import type { DelayedJobs, DelayedJobsErrorListener } from './timers/delayed-jobs';
import { InProcessDelayedJobs } from './timers/in-process-delayed-jobs';
import { settlesWithin } from './timers/time-limits';
import { TimerWrites } from './timers/timer-writes';
import { TimerRouter } from './timers/timer-router';
import { CLOCK, DATABASE, DELAYED_JOBS, REPLICA_ID } from './tokens';

/** How long shutdown waits for committed timer changes to reach the backend (the reconciler covers the rest). */
const TIMER_WRITES_GRACE_MS = 5000;

/**
 * Writes the committed timer changes, then closes the timers before the database, so no job handler
 * runs against a closed pool.
 */
@Injectable()
class InfrastructureShutdown implements OnApplicationShutdown {
  private readonly logger = new Logger('shutdown');
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(DELAYED_JOBS) private readonly jobs: DelayedJobs,
    private readonly timerWrites: TimerWrites,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (!(await settlesWithin(this.timerWrites.settled(), TIMER_WRITES_GRACE_MS)))
      this.logger.warn({
        msg: 'timer changes still queued at shutdown; the reconciler arms their rows at the next start',
        queued: this.timerWrites.queued,
      });
    await this.jobs.close().catch((e: unknown) => this.logger.warn({ msg: 'closing timers failed', err: String(e) }));
    await this.database
      .close()
      .catch((e: unknown) => this.logger.warn({ msg: 'closing database failed', err: String(e) }));
  }
}

/**
 * Process-wide infrastructure: settings, metrics, API keys, the database (PostgreSQL through the pg
 * adapter, or embedded PGlite), the delayed-job timers (BullMQ on Redis, or in-process) and the clock.
 */
@Global()
@Module({})
export class CoreModule {
  static register(config: AppConfig): DynamicModule {
    const logger = new Logger('core');
    return {
      module: CoreModule,
      global: true,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: Metrics, useValue: new Metrics({ gcPauses: config.METRICS_GC_PAUSES }) },
        { provide: ApiKeys, useValue: new ApiKeys(config.API_KEYS) },
        { provide: CLOCK, useValue: systemClock },
        { provide: REPLICA_ID, useValue: randomUUID() },
        {
          provide: DATABASE,
          useFactory: async (): Promise<Database> => {
            const database = await openDatabase({
              databaseUrl: config.DATABASE_URL,
              dataDir: config.DATA_DIR,
              statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
              embeddedThreadNice: config.EMBEDDED_DB_NICE,
              log: (msg: string) => logger.log(msg),
            });
            logger.log({ msg: 'database ready', storage: database.kind });
            return database;
          },
        },
        {
          provide: DELAYED_JOBS,
          inject: [CLOCK],
          useFactory: (clock: typeof systemClock): DelayedJobs => {
            const timersLogger = new Logger('timers');
            // A failed firing is retried, then dropped: the Scheduled row stays and the reconciler re-arms it.
            // Handler failures are logged each time; a backend that is down (Redis) retries every few
            // hundred ms, so its errors are logged at most every 10 s with a count of the rest.
            const backendError = throttledLog(
              (suppressed: number, err: unknown) =>
                timersLogger.error({ msg: 'timer backend error', err: String(err), suppressedSinceLast: suppressed }),
              10_000,
            );
            const onError: DelayedJobsErrorListener = (err, context) => {
              if (!context.id) return backendError(err);
              timersLogger[context.final === false ? 'warn' : 'error']({
                msg: 'timer handler failed',
                ...context,
                err: String(err),
              });
            };
            if (config.REDIS_URL) {
              return new BullMqDelayedJobs({
                redisUrl: config.REDIS_URL,
                queueName: `${config.REDIS_PREFIX}-evictions`,
                prefix: config.REDIS_PREFIX,
                concurrency: config.EVICTION_WORKER_CONCURRENCY,
                onError,
              });
            }
            return new InProcessDelayedJobs({ clock, onError });
          },
        },
        { provide: TimerWrites, inject: [DELAYED_JOBS], useFactory: (jobs: DelayedJobs) => new TimerWrites(jobs) },
        TimerRouter,
        {
          provide: READINESS_CHECKS,
          inject: [DATABASE, DELAYED_JOBS],
          useFactory: (database: Database, jobs: DelayedJobs): ReadinessCheck[] => [
            { name: 'database', check: () => database.ping() },
            { name: jobs.kind === 'redis' ? 'redis' : 'timers', check: () => jobs.ping() },
          ],
        },
        InfrastructureShutdown,
      ],
      exports: [
        APP_CONFIG,
        Metrics,
        ApiKeys,
        CLOCK,
        REPLICA_ID,
        DATABASE,
        DELAYED_JOBS,
        TimerWrites,
        TimerRouter,
        READINESS_CHECKS,
      ],
    };
  }
}
