import { Field, InputType, Int, ObjectType } from '@nestjs/graphql';
import { NodeModel } from '../../kernel/graphql/models/node.model';
import { TaintModel } from '../../kernel/graphql/models/taint.model';

@ObjectType('EvictionCounts', { description: 'Evictions a change caused (or, for a dry run, would cause).' })
export class EvictionCountsModel {
  @Field(() => Int, { description: 'pods evicted at once' }) immediate!: number;
  @Field(() => Int, { description: 'new Scheduled evictions' }) scheduled!: number;
  @Field(() => Int, { description: 'Scheduled evictions cancelled' }) cancelled!: number;
  @Field(() => Int, { description: 'Scheduled evictions whose evictAt moved' }) retimed!: number;
}

@ObjectType('TaintedNode')
export class TaintedNodeModel {
  @Field() name!: string;
  @Field(() => [TaintModel]) taints!: TaintModel[];
  @Field() changed!: boolean;
  @Field({ description: 'what kubectl prints: tainted, untainted or modified' }) operation!: string;
}

@ObjectType('ApplyTaintsResult')
export class ApplyTaintsResultModel {
  @Field(() => [TaintedNodeModel]) nodes!: TaintedNodeModel[];
  @Field(() => EvictionCountsModel) evictions!: EvictionCountsModel;
  @Field() dryRun!: boolean;
}

@ObjectType('NodeMutationResult')
export class NodeMutationResultModel {
  @Field(() => NodeModel) node!: NodeModel;
  @Field() changed!: boolean;
  @Field(() => EvictionCountsModel) evictions!: EvictionCountsModel;
}

@InputType('ApplyTaintsInput', { description: 'POST /v1/taints: exactly one of nodes, labelSelector, all.' })
export class ApplyTaintsInput {
  @Field(() => [String], { nullable: true }) nodes?: string[];
  @Field({ nullable: true }) labelSelector?: string;
  @Field({ nullable: true }) all?: boolean;
  @Field(() => [String], { description: 'kubectl taint specs: key[=value]:Effect adds, key[:Effect]- removes' }) taints!: string[];
  @Field({ nullable: true }) overwrite?: boolean;
  @Field({ nullable: true }) dryRun?: boolean;
}
