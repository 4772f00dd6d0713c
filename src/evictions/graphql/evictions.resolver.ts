import { Args, ArgsType, Field, GraphQLISODateTime, Int, ObjectType, Query, Resolver } from '@nestjs/graphql';
import { EvictionStatusEnum, type TaintEffectEnum } from '../../graphql/models/enums';
import { TaintModel } from '../../graphql/models/taint.model';
import { EvictionHistoryService } from '../eviction-history.service';
import type { StoredEviction } from '../eviction.repository';

@ObjectType('EvictionPod')
export class EvictionPodModel {
  @Field() namespace!: string;
  @Field() name!: string;
  @Field() uid!: string;
}

@ObjectType('EvictionRecord', { description: 'One NoExecute eviction decision (GET /v1/evictions).' })
export class EvictionRecordModel {
  @Field() id!: string;
  @Field(() => EvictionPodModel) pod!: EvictionPodModel;
  @Field() node!: string;
  @Field(() => [TaintModel]) taints!: TaintModel[];
  @Field(() => EvictionStatusEnum) status!: EvictionStatusEnum;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) evictAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) executedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) cancelledAt!: Date | null;
  @Field() reason!: string;
}

@ObjectType('EvictionConnection')
export class EvictionConnectionModel {
  @Field(() => [EvictionRecordModel]) items!: EvictionRecordModel[];
  @Field(() => String, { nullable: true, description: 'pass as `after` for the next page; null on the last page' }) endCursor!: string | null;
  @Field() hasNextPage!: boolean;
}

@ArgsType()
export class EvictionsArgs {
  @Field(() => EvictionStatusEnum, { nullable: true }) status?: EvictionStatusEnum;
  @Field({ nullable: true }) node?: string;
  @Field({ nullable: true }) namespace?: string;
  @Field(() => Int, { nullable: true, defaultValue: 100, description: '1..5000' }) first?: number;
  @Field({ nullable: true }) after?: string;
}

@Resolver()
export class EvictionsResolver {
  constructor(private readonly history: EvictionHistoryService) {}

  @Query(() => EvictionConnectionModel, { description: 'Eviction history, newest first (GET /v1/evictions).' })
  async evictions(@Args() args: EvictionsArgs): Promise<EvictionConnectionModel> {
    const page = await this.history.list({ status: args.status ?? undefined, node: args.node ?? undefined, namespace: args.namespace ?? undefined, limit: args.first ?? undefined, continue: args.after ?? undefined });
    return { items: page.items.map(toEvictionModel), endCursor: page.continue ?? null, hasNextPage: page.continue !== undefined };
  }
}

export function toEvictionModel(e: StoredEviction): EvictionRecordModel {
  return {
    ...e,
    status: e.status as EvictionStatusEnum,
    taints: e.taints.map((t) => ({ key: t.key, value: t.value ?? '', effect: t.effect as TaintEffectEnum, timeAdded: t.timeAdded ?? null })),
  };
}
