import { isOverdueForecast } from '../../domain/eviction/forecast';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { chargePerItem, toConnection } from '../../kernel/graphql/models/connection.model';
import { toTaintModel } from '../../kernel/graphql/models/taint.model';
import { encodeContinue } from '../../kernel/http/paging';
import type { EvictionStatusEnum } from '../../kernel/graphql/models/enums';
import { EvictionConnectionModel, EvictionsArgs, type EvictionRecordModel } from './eviction.models';
import { EvictionHistoryService } from '../eviction-history.service';
import type { StoredEviction } from '../../kernel/persistence/repositories/eviction.repository';

@Resolver()
export class EvictionsResolver {
  constructor(private readonly history: EvictionHistoryService) {}

  @Query(() => EvictionConnectionModel, {
    description: 'Eviction history, newest first (GET /v1/evictions).',
    complexity: chargePerItem,
  })
  async evictions(@Args() args: EvictionsArgs): Promise<EvictionConnectionModel> {
    const page = await this.history.list({
      status: args.status ?? undefined,
      node: args.node ?? undefined,
      namespace: args.namespace ?? undefined,
      limit: args.first ?? undefined,
      continue: args.after ?? undefined,
    });
    const clock = this.history.forecastClock();
    return toConnection(
      page,
      (e) => encodeContinue([e.createdAt.toISOString(), e.id]),
      (e) => toEvictionModel(e, clock),
    );
  }
}

export function toEvictionModel(
  e: StoredEviction,
  forecastClock?: { now: Date; graceMs: number },
): EvictionRecordModel {
  return {
    ...e,
    status: e.status as EvictionStatusEnum,
    taints: e.taints.map(toTaintModel),
    overdue:
      e.forecast && e.status === 'Scheduled' && forecastClock
        ? isOverdueForecast(e, forecastClock.now, forecastClock.graceMs)
        : null,
  };
}
