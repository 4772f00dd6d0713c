import { Args, Field, InputType, Int, Mutation, ObjectType, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal, RequestId } from '../common/auth/principal.decorator';
import { RequiresRole } from '../common/auth/public.decorator';
import type { Principal } from '../common/auth/roles';
import type { TaintEffectEnum } from '../graphql/models/enums';
import { NodeModel, toNodeModel } from '../graphql/models/node.model';
import { TaintModel } from '../graphql/models/taint.model';
import type { Taint } from '../domain/types';
import { TaintMutationService, type NodeMutationResult } from './taint-mutation.service';

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

@InputType('NodeConditionInput')
export class NodeConditionInput {
  @Field() type!: string;
  @Field({ description: 'True, False or Unknown' }) status!: string;
  @Field({ nullable: true }) reason?: string;
  @Field({ nullable: true }) message?: string;
}

@Resolver()
export class TaintsResolver {
  constructor(private readonly taints: TaintMutationService) {}

  @Mutation(() => ApplyTaintsResultModel, { description: 'kubectl taint across nodes, atomically (POST /v1/taints).' })
  @RequiresRole('operator')
  async applyTaints(@Args('input') input: ApplyTaintsInput, @CurrentPrincipal() who: Principal, @RequestId() requestId?: string): Promise<ApplyTaintsResultModel> {
    const r = await this.taints.applyTaints(withoutNulls(input), { name: who.name, requestId });
    return { ...r, nodes: r.nodes.map((n) => ({ ...n, taints: n.taints.map(taintModel) })) };
  }

  @Mutation(() => NodeMutationResultModel, { description: 'kubectl cordon (POST /v1/nodes/{name}/cordon).' })
  @RequiresRole('operator')
  async cordonNode(@Args('name') name: string, @CurrentPrincipal() who: Principal, @RequestId() requestId?: string): Promise<NodeMutationResultModel> {
    return nodeResult(await this.taints.setUnschedulable(name, true, { name: who.name, requestId }));
  }

  @Mutation(() => NodeMutationResultModel, { description: 'kubectl uncordon (POST /v1/nodes/{name}/uncordon).' })
  @RequiresRole('operator')
  async uncordonNode(@Args('name') name: string, @CurrentPrincipal() who: Principal, @RequestId() requestId?: string): Promise<NodeMutationResultModel> {
    return nodeResult(await this.taints.setUnschedulable(name, false, { name: who.name, requestId }));
  }

  @Mutation(() => NodeMutationResultModel, { description: 'Report node conditions; derives the node-lifecycle taints (PUT /v1/nodes/{name}/conditions).' })
  @RequiresRole('operator')
  async setNodeConditions(@Args('name') name: string, @Args('conditions', { type: () => [NodeConditionInput] }) conditions: NodeConditionInput[], @CurrentPrincipal() who: Principal, @RequestId() requestId?: string): Promise<NodeMutationResultModel> {
    return nodeResult(await this.taints.setConditions(name, conditions.map(withoutNulls), { name: who.name, requestId }));
  }
}

function nodeResult(r: NodeMutationResult): NodeMutationResultModel {
  return { node: toNodeModel(r.node), changed: r.changed, evictions: r.evictions };
}

function taintModel(t: Taint): TaintModel {
  return { key: t.key, value: t.value ?? '', effect: t.effect as TaintEffectEnum, timeAdded: t.timeAdded ?? null };
}

/** GraphQL input instances → the REST body shape (nulls mean absent). */
function withoutNulls(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
}
