import { Field, GraphQLISODateTime, Int, ObjectType } from '@nestjs/graphql';

/** API.md taint-impact `summary: true`: the counts of the lists, without them. */
@ObjectType('TaintImpactCounts')
export class TaintImpactCountsModel {
  @Field(() => Int) evictNow!: number;
  @Field(() => Int) evictAfter!: number;
  @Field(() => Int, { description: 'Bound pods that would stay indefinitely' }) tolerating!: number;
  @Field(() => GraphQLISODateTime, { nullable: true }) earliestEvictAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) latestEvictAt!: Date | null;
}

@ObjectType('TaintImpactTotals')
export class TaintImpactTotalsModel extends TaintImpactCountsModel {
  @Field(() => Int, { description: 'Pending pods that would lose their last feasible node' })
  unschedulablePending!: number;
  @Field(() => Int, { description: 'Pending pods that would gain a feasible node' }) schedulablePending!: number;
}

@ObjectType('TaintImpactNodeCounts')
export class TaintImpactNodeCountsModel extends TaintImpactCountsModel {
  @Field() node!: string;
}

@ObjectType('TaintImpactWorkloadCounts', {
  description: "By the pod's owner; a pod without one counts as kind Pod under its own name",
})
export class TaintImpactWorkloadCountsModel extends TaintImpactCountsModel {
  @Field() namespace!: string;
  @Field() kind!: string;
  @Field() name!: string;
}

@ObjectType('TaintImpactSummary')
export class TaintImpactSummaryModel {
  @Field(() => GraphQLISODateTime, { description: 'The instant evaluated at' }) at!: Date;
  @Field(() => TaintImpactTotalsModel) counts!: TaintImpactTotalsModel;
  @Field(() => [TaintImpactNodeCountsModel], { description: 'Target nodes with a bound pod, by name' })
  byNode!: TaintImpactNodeCountsModel[];
  @Field(() => [TaintImpactWorkloadCountsModel], { description: 'By namespace, kind, name' })
  byWorkload!: TaintImpactWorkloadCountsModel[];
  @Field(() => [String]) warnings!: string[];
}
