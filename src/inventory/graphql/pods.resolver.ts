import { Args, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Actor, CurrentPrincipal } from '../../kernel/auth/principal.decorator';
import type { Principal } from '../../kernel/auth/roles';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { chargePerItem, PodConnection, toConnection } from '../../kernel/graphql/models/connection.model';
import { PodInput, PodsArgs } from '../../kernel/graphql/models/inventory.input';
import { NodeModel, toNodeModel } from '../../kernel/graphql/models/node.model';
import { PodModel, toPodModel } from '../../kernel/graphql/models/pod.model';
import { podBody } from '../../kernel/graphql/models/to-rest-body';
import { SnapshotService } from '../../kernel/snapshot/snapshot.service';
import { BindingService } from '../binding.service';
import { encodeContinue } from '../../kernel/http/paging';
import { PodService } from '../pod.service';

/** GraphQL for pods: the same PodService/BindingService as REST; `Pod.node` reads the snapshot. */
@Resolver(() => PodModel)
export class PodsResolver {
  constructor(
    private readonly podService: PodService,
    private readonly bindings: BindingService,
    private readonly snapshot: SnapshotService,
  ) {}

  @Query(() => PodModel, { description: 'GET /v1/namespaces/{ns}/pods/{name}' })
  async pod(@Args('namespace') namespace: string, @Args('name') name: string): Promise<PodModel> {
    return toPodModel(await this.podService.get(namespace, name));
  }

  @Query(() => PodConnection, {
    description: 'GET /v1/pods: by namespace then name; `after` is the previous endCursor',
    complexity: chargePerItem,
  })
  async pods(@Args() args: PodsArgs): Promise<PodConnection> {
    // An explicit GraphQL null means "no filter", as an absent argument does (never `namespace: null` in a query).
    const page = await this.podService.list(
      { namespace: args.namespace ?? undefined, nodeName: args.nodeName ?? undefined, phase: args.phase ?? undefined },
      { limit: args.first ?? undefined, continue: args.after ?? undefined },
    );
    return toConnection(page, (p) => encodeContinue([p.namespace, p.name]), toPodModel);
  }

  @ResolveField('node', () => NodeModel, {
    nullable: true,
    description: 'The node the pod is bound to, from the snapshot',
  })
  node(@Parent() pod: PodModel): NodeModel | null {
    const node = pod.nodeName === null ? undefined : this.snapshot.snapshot.node(pod.nodeName);
    return node ? toNodeModel(node) : null;
  }

  @Mutation(() => PodModel, {
    description: 'PUT /v1/namespaces/{ns}/pods/{name}: create or replace, admission defaults applied',
  })
  @RequiresRole('operator')
  async upsertPod(
    @Args('namespace') namespace: string,
    @Args('name') name: string,
    @Args('pod') pod: PodInput,
    @Actor() actor: Actor,
  ): Promise<PodModel> {
    return toPodModel((await this.podService.upsert(namespace, name, podBody(pod), actor)).pod);
  }

  @Mutation(() => Boolean, { description: 'DELETE /v1/namespaces/{ns}/pods/{name}' })
  @RequiresRole('operator')
  async deletePod(
    @Args('namespace') namespace: string,
    @Args('name') name: string,
    @Actor() actor: Actor,
  ): Promise<boolean> {
    await this.podService.delete(namespace, name, actor);
    return true;
  }

  @Mutation(() => PodModel, {
    description:
      'POST /v1/namespaces/{ns}/pods/{name}/binding: CONFLICT with extensions.reasons when infeasible, unless force',
  })
  @RequiresRole('operator')
  async bindPod(
    @Args('namespace') namespace: string,
    @Args('name') name: string,
    @Args('nodeName') nodeName: string,
    @Args('force', { type: () => Boolean, nullable: true, defaultValue: false }) force: boolean,
    @Actor() actor: Actor,
    @CurrentPrincipal() who: Principal,
  ): Promise<PodModel> {
    return toPodModel(await this.bindings.bind(namespace, name, { nodeName, force }, { ...actor, role: who.role }));
  }
}
