import { Inject } from '@nestjs/common';
import { Query, Resolver } from '@nestjs/graphql';
import { ServiceInfo } from './service-info.model';
import { APP_CONFIG, type AppConfig } from '../../kernel/config/config.schema';
import type { Database } from '../../kernel/persistence/database';
import { DATABASE, DELAYED_JOBS } from '../../kernel/tokens';
import type { DelayedJobs } from '../../kernel/timers/delayed-jobs';

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
