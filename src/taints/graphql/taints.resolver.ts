import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal, RequestId } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import type { Principal } from '../../kernel/auth/roles';
import type { TaintEffectEnum } from '../../kernel/graphql/models/enums';
import { toNodeModel } from '../../kernel/graphql/models/node.model';
import type { TaintModel } from '../../kernel/graphql/models/taint.model';
import { NodeConditionInput } from '../../kernel/graphql/models/node-condition.input';
import { ApplyTaintsInput, ApplyTaintsResultModel, NodeMutationResultModel } from './taint-mutation.models';
import type { Taint } from '../../domain/types';
import { TaintMutationService, type NodeMutationResult } from '../taint-mutation.service';

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
