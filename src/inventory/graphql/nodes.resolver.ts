import { Args, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Actor } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { chargePerItem, NodeConnection, toConnection } from '../../kernel/graphql/models/connection.model';
import { NodeInput, NodesArgs } from '../../kernel/graphql/models/inventory.input';
import { NodeModel, toNodeModel } from '../../kernel/graphql/models/node.model';
import { PodModel, toPodModel } from '../../kernel/graphql/models/pod.model';
import { nodeBody } from '../../kernel/graphql/models/to-rest-body';
import { SnapshotService } from '../../kernel/snapshot/snapshot.service';
import { NodeService } from '../node.service';
import { encodeContinue } from '../../kernel/http/paging';

/** GraphQL for nodes: the same NodeService as REST; `Node.pods` reads the snapshot (no query per node). */
@Resolver(() => NodeModel)
export class NodesResolver {
  constructor(
    private readonly nodeService: NodeService,
    private readonly snapshot: SnapshotService,
  ) {}

  @Query(() => NodeModel, { description: 'GET /v1/nodes/{name}' })
  async node(@Args('name') name: string): Promise<NodeModel> {
    return toNodeModel(await this.nodeService.get(name));
  }

  @Query(() => NodeConnection, {
    description: 'GET /v1/nodes: by name, from the snapshot; `after` is the previous endCursor',
    complexity: chargePerItem,
  })
  nodes(@Args() args: NodesArgs): NodeConnection {
    return toConnection(
      this.nodeService.list({
        labelSelector: args.labelSelector ?? undefined,
        limit: args.first ?? undefined,
        continue: args.after ?? undefined,
      }),
      (n) => encodeContinue([n.name]),
      toNodeModel,
    );
  }

  @ResolveField('pods', () => [PodModel], {
    description: 'Active (Pending/Running) pods bound to the node, from the snapshot',
    complexity: ({ childComplexity }) => childComplexity * 20,
  })
  pods(@Parent() node: NodeModel): PodModel[] {
    return this.snapshot.snapshot.podsOn(node.name).map(toPodModel);
  }

  @Mutation(() => NodeModel, { description: 'PUT /v1/nodes/{name}: create or replace' })
  @RequiresRole('admin')
  async upsertNode(
    @Args('name') name: string,
    @Args('node') node: NodeInput,
    @Actor() actor: Actor,
  ): Promise<NodeModel> {
    return toNodeModel((await this.nodeService.upsert(name, nodeBody(node), actor)).node);
  }

  @Mutation(() => Boolean, { description: 'DELETE /v1/nodes/{name}: its bound pods become Pending' })
  @RequiresRole('admin')
  async deleteNode(@Args('name') name: string, @Actor() actor: Actor): Promise<boolean> {
    await this.nodeService.delete(name, actor);
    return true;
  }
}
