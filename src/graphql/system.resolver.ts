import { Inject } from '@nestjs/common';
import { Field, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { APP_CONFIG, type AppConfig } from '../config/config.schema';
import { DATABASE, type Database } from '../core/tokens';
import { DELAYED_JOBS } from '../core/tokens';
import type { DelayedJobs } from '../timers/delayed-jobs';

@ObjectType({ description: 'How this replica is running.' })
export class ServiceInfo {
  @Field({ description: 'postgres (DATABASE_URL) or pglite (embedded, DATA_DIR)' }) storage!: string;
  @Field({ description: 'redis (BullMQ, REDIS_URL) or in-process' }) timers!: string;
  @Field({ description: 'SEMANTICS A.1: Gt/Lt tolerations enabled' }) comparisonOperators!: boolean;
  @Field({ description: 'true when no API keys are configured' }) open!: boolean;
}

@Resolver(() => ServiceInfo)
export class SystemResolver {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DATABASE) private readonly database: Database,
    @Inject(DELAYED_JOBS) private readonly jobs: DelayedJobs,
  ) {}

  @Query(() => ServiceInfo, { description: 'How this replica runs: storage, timers, feature switches.' })
  serviceInfo(): ServiceInfo {
    return {
      storage: this.database.kind,
      timers: this.jobs.kind,
      comparisonOperators: this.config.COMPARISON_OPERATORS,
      open: this.config.API_KEYS.length === 0,
    };
  }
}
