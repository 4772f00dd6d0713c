import { Args, Mutation, Resolver } from '@nestjs/graphql';
import { Actor } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { toNodeModel } from '../../kernel/graphql/models/node.model';
import { toTaintModel } from '../../kernel/graphql/models/taint.model';
import { NodeConditionInput } from '../../kernel/graphql/models/node-condition.input';
import { ApplyTaintsInput, ApplyTaintsResultModel, NodeMutationResultModel } from './taint-mutation.models';
import { TaintMutationService, type NodeMutationResult } from '../taint-mutation.service';

@Resolver()
export class TaintsResolver {
  constructor(private readonly taints: TaintMutationService) {}

  @Mutation(() => ApplyTaintsResultModel, { description: 'kubectl taint across nodes, atomically (POST /v1/taints).' })
  @RequiresRole('operator')
  async applyTaints(@Args('input') input: ApplyTaintsInput, @Actor() actor: Actor): Promise<ApplyTaintsResultModel> {
    const r = await this.taints.applyTaints(withoutNulls(input), actor);
    return { ...r, nodes: r.nodes.map((n) => ({ ...n, taints: n.taints.map(toTaintModel) })) };
  }

  @Mutation(() => NodeMutationResultModel, { description: 'kubectl cordon (POST /v1/nodes/{name}/cordon).' })
  @RequiresRole('operator')
  async cordonNode(@Args('name') name: string, @Actor() actor: Actor): Promise<NodeMutationResultModel> {
    return nodeResult(await this.taints.setUnschedulable(name, true, actor));
  }

  @Mutation(() => NodeMutationResultModel, { description: 'kubectl uncordon (POST /v1/nodes/{name}/uncordon).' })
  @RequiresRole('operator')
  async uncordonNode(@Args('name') name: string, @Actor() actor: Actor): Promise<NodeMutationResultModel> {
    return nodeResult(await this.taints.setUnschedulable(name, false, actor));
  }

  @Mutation(() => NodeMutationResultModel, {
    description: 'Report node conditions; derives the node-lifecycle taints (PUT /v1/nodes/{name}/conditions).',
  })
  @RequiresRole('operator')
  async setNodeConditions(
    @Args('name') name: string,
    @Args('conditions', { type: () => [NodeConditionInput] }) conditions: NodeConditionInput[],
    @Actor() actor: Actor,
  ): Promise<NodeMutationResultModel> {
    return nodeResult(await this.taints.setConditions(name, conditions.map(withoutNulls), actor));
  }
}

function nodeResult(r: NodeMutationResult): NodeMutationResultModel {
  return { node: toNodeModel(r.node), changed: r.changed, evictions: r.evictions };
}

/** GraphQL input instances → the REST body shape (nulls mean absent). */
function withoutNulls(input: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
}
