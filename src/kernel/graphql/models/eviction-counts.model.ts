import { Field, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('EvictionCounts', { description: 'Evictions a change caused (or, for a dry run, would cause).' })
export class EvictionCountsModel {
  @Field(() => Int, { description: 'pods evicted at once' }) immediate!: number;
  @Field(() => Int, { description: 'new Scheduled evictions' }) scheduled!: number;
  @Field(() => Int, { description: 'Scheduled evictions cancelled' }) cancelled!: number;
  @Field(() => Int, { description: 'Scheduled evictions whose evictAt moved' }) retimed!: number;
  @Field(() => Int, { description: 'Due evictions a disruption budget holds (respectDisruptionBudgets)' })
  held!: number;
}
