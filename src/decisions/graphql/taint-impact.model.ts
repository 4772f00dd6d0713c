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
  @Field(() => PlacementModel, {
    nullable: true,
    description: 'With replacement: where the pod would go if re-created now; null when nowhere',
  })
  placement?: PlacementModel | null;
  @Field(() => String, {
    nullable: true,
    description: 'With placement null: the FitError message, or why not re-placed',
  })
  unplacedReason?: string;
}

@ObjectType('Placement')
export class PlacementModel {
  @Field() node!: string;
}

@ObjectType('BudgetImpact', { description: 'A disruption budget selecting an evicted pod (SEMANTICS B.9.4)' })
export class BudgetImpactModel {
  @Field() namespace!: string;
  @Field() name!: string;
  @Field(() => Int, { description: 'before the change' }) disruptionsAllowed!: number;
  @Field(() => Int) desiredHealthy!: number;
  @Field(() => Int) currentHealthy!: number;
  @Field(() => Int) evictedNow!: number;
  @Field(() => Int) evictedTotal!: number;
  @Field({ description: 'the Running pods evicted in all exceed disruptionsAllowed' }) violated!: boolean;
}

@ObjectType('WorkloadOwner')
export class WorkloadOwnerModel {
  @Field() kind!: string;
  @Field() name!: string;
}

@ObjectType('WorkloadImpact')
export class WorkloadImpactModel {
  @Field() namespace!: string;
  @Field(() => WorkloadOwnerModel, { nullable: true }) owner!: WorkloadOwnerModel | null;
  @Field(() => Int) evicted!: number;
  @Field(() => Int) rePlaced!: number;
  @Field(() => Int) stranded!: number;
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
  @Field(() => [BudgetImpactModel], { complexity: listCost }) budgets!: BudgetImpactModel[];
  @Field(() => [WorkloadImpactModel], { nullable: true, complexity: listCost, description: 'With replacement' })
  workloads?: WorkloadImpactModel[];
  @Field(() => [PodRefModel], {
    nullable: true,
    complexity: listCost,
    description: 'With replacement: pods placed nowhere',
  })
  stranded?: PodRefModel[];
  @Field(() => String, {
    nullable: true,
    description: 'With `limit`: the token for the next page (null on the last one)',
  })
  continue?: string;
  @Field(() => Int, { nullable: true, description: 'With `limit`: evictions and tolerating pods after this page' })
  remainingItemCount?: number;
}
