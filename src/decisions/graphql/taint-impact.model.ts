import { Field, GraphQLISODateTime, Int, ObjectType } from '@nestjs/graphql';
import { EvictionActionEnum } from '../../kernel/graphql/models/enums';
import { PodRefModel } from './pod-ref.model';

/**
 * How many entries each taint-impact list is assumed to hold when estimating a query's cost: the
 * lists are bounded by the inventory, not by an argument, so the estimate is a fixed factor.
 */
export const TAINT_IMPACT_LIST_ESTIMATE = 50;
const listCost = ({ childComplexity }: { childComplexity: number }) => 1 + TAINT_IMPACT_LIST_ESTIMATE * childComplexity;

@ObjectType('TaintImpactEviction')
export class TaintImpactEvictionModel {
  @Field(() => PodRefModel) pod!: PodRefModel;
  @Field() node!: string;
  @Field(() => EvictionActionEnum, { description: 'EvictNow or EvictAfter' }) action!: EvictionActionEnum;
  @Field(() => Int, { description: 'Seconds from `at` until evictAt (0 for EvictNow)' }) afterSeconds!: number;
  @Field(() => GraphQLISODateTime) evictAt!: Date;
}

@ObjectType('PodOnNode')
export class PodOnNodeModel {
  @Field(() => PodRefModel) pod!: PodRefModel;
  @Field() node!: string;
}

@ObjectType('PendingPodImpact')
export class PendingPodImpactModel {
  @Field(() => PodRefModel) pod!: PodRefModel;
}

@ObjectType('TaintImpact', {
  description: 'API.md `POST /v1/decisions/taint-impact`: what the taints would do, without doing it.',
})
export class TaintImpactModel {
  @Field(() => GraphQLISODateTime, { description: 'The instant evaluated at' }) at!: Date;
  @Field(() => [TaintImpactEvictionModel], { complexity: listCost }) evictions!: TaintImpactEvictionModel[];
  @Field(() => [PodOnNodeModel], { complexity: listCost, description: 'Bound pods that would stay indefinitely' })
  tolerating!: PodOnNodeModel[];
  @Field(() => [PendingPodImpactModel], {
    complexity: listCost,
    description: 'Pending pods that would lose their last feasible node',
  })
  unschedulablePending!: PendingPodImpactModel[];
  @Field(() => [PendingPodImpactModel], {
    complexity: listCost,
    description: 'Pending pods that would gain a feasible node',
  })
  schedulablePending!: PendingPodImpactModel[];
  @Field(() => [String], { description: 'Removals that match nothing on a node (ignored there; kubectl would refuse)' })
  warnings!: string[];
  @Field(() => String, {
    nullable: true,
    description: 'With `limit`: the token for the next page (null on the last one)',
  })
  continue?: string;
  @Field(() => Int, { nullable: true, description: 'With `limit`: evictions and tolerating pods after this page' })
  remainingItemCount?: number;
}
