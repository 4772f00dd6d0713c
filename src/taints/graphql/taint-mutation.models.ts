import { Field, InputType, ObjectType } from '@nestjs/graphql';
import { NodeModel } from '../../kernel/graphql/models/node.model';
import { TaintModel } from '../../kernel/graphql/models/taint.model';
import { EvictionCountsModel } from '../../kernel/graphql/models/eviction-counts.model';

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
  @Field(() => [String], { description: 'kubectl taint specs: key[=value]:Effect adds, key[:Effect]- removes' })
  taints!: string[];
  @Field({ nullable: true }) overwrite?: boolean;
  @Field({ nullable: true }) dryRun?: boolean;
  @Field({
    nullable: true,
    description: 'the NoExecute taints added evict only while disruption budgets allow; the rest are held',
  })
  respectDisruptionBudgets?: boolean;
}
