import { ArgsType, Field, GraphQLISODateTime, Int, ObjectType } from '@nestjs/graphql';
import { connectionType, type Connection } from '../../kernel/graphql/models/connection.model';
import { EvictionStatusEnum } from '../../kernel/graphql/models/enums';
import { TaintModel } from '../../kernel/graphql/models/taint.model';

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
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Held: since when a disruption budget holds it' })
  heldAt!: Date | null;
  @Field(() => [String], { description: 'Held: the budgets that hold it (namespace/name)' }) heldBy!: string[];
  @Field({
    description: "A mirror (SYNC_KUBECONFIG): a mirrored pod's eviction, forecast here, carried out by the cluster",
  })
  forecast!: boolean;
  @Field(() => Int, {
    nullable: true,
    description: 'Forecasts the cluster carried out: when the pod left the cluster minus evictAt (ms)',
  })
  forecastErrorMs!: number | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Scheduled forecasts: more than SYNC_FORECAST_GRACE_SECONDS past evictAt',
  })
  overdue!: boolean | null;
}

export const EvictionConnectionModel = connectionType(
  'Eviction',
  EvictionRecordModel,
  'Eviction history, newest first.',
);
export type EvictionConnectionModel = Connection<EvictionRecordModel>;

@ArgsType()
export class EvictionsArgs {
  @Field(() => EvictionStatusEnum, { nullable: true }) status?: EvictionStatusEnum;
  @Field({ nullable: true }) node?: string;
  @Field({ nullable: true }) namespace?: string;
  @Field(() => Int, { nullable: true, defaultValue: 100, description: '1..5000' }) first?: number;
  @Field({ nullable: true }) after?: string;
}
