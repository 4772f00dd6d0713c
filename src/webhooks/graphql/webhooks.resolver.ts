import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Actor } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import {
  chargePerItem,
  connectionType,
  toConnection,
  type Connection,
} from '../../kernel/graphql/models/connection.model';
import { encodeContinue } from '../../kernel/http/paging';
import { WebhookService } from '../webhook.service';
import {
  CreateWebhookInput,
  UpdateWebhookInput,
  UpdatedWebhookModel,
  WebhookDeliveriesArgs,
  WebhookDeliveryModel,
  WebhookModel,
  WebhookReplayModel,
  WebhooksArgs,
  WebhookWithSecretModel,
  toDeliveryModel,
  toWebhookModel,
} from './webhook.models';

const WebhookConnection = connectionType('Webhook', WebhookModel, 'Webhooks by creation time.');
type WebhookConnection = Connection<WebhookModel>;
const WebhookDeliveryConnection = connectionType('WebhookDelivery', WebhookDeliveryModel, 'Deliveries, newest first.');
type WebhookDeliveryConnection = Connection<WebhookDeliveryModel>;

/** Drops nulls (GraphQL's "not given") so the REST body validator sees only what was sent. */
function given<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

/** GraphQL for webhooks (issue 15): the same WebhookService and validation as REST, admin only. */
@Resolver(() => WebhookModel)
export class WebhooksResolver {
  constructor(private readonly service: WebhookService) {}

  @Query(() => WebhookModel, { description: 'GET /v1/webhooks/{id}' })
  @RequiresRole('admin')
  async webhook(@Args('id', { type: () => ID }) id: string): Promise<WebhookModel> {
    return toWebhookModel(await this.service.get(id));
  }

  @Query(() => WebhookConnection, { description: 'GET /v1/webhooks', complexity: chargePerItem })
  @RequiresRole('admin')
  async webhooks(@Args() args: WebhooksArgs): Promise<WebhookConnection> {
    const page = await this.service.list({ limit: args.first ?? undefined, continue: args.after ?? undefined });
    return toConnection(page, (w) => encodeContinue([w.createdAt, w.id]), toWebhookModel);
  }

  @Query(() => WebhookDeliveryConnection, {
    description: 'GET /v1/webhooks/{id}/deliveries',
    complexity: chargePerItem,
  })
  @RequiresRole('admin')
  async webhookDeliveries(@Args() args: WebhookDeliveriesArgs): Promise<WebhookDeliveryConnection> {
    const page = await this.service.listDeliveries(args.id, {
      status: args.status ?? undefined,
      limit: args.first ?? undefined,
      continue: args.after ?? undefined,
    });
    return toConnection(page, (d) => encodeContinue([d.id]), toDeliveryModel);
  }

  @Mutation(() => WebhookWithSecretModel, { description: 'POST /v1/webhooks: the secret is shown this once' })
  @RequiresRole('admin')
  async createWebhook(
    @Args('input') input: CreateWebhookInput,
    @Actor() actor: Actor,
  ): Promise<WebhookWithSecretModel> {
    return Object.assign(new WebhookWithSecretModel(), await this.service.create(given(input), actor));
  }

  @Mutation(() => UpdatedWebhookModel, {
    description: 'PATCH /v1/webhooks/{id}; `secret` is set only when rotateSecret was asked',
  })
  @RequiresRole('admin')
  async updateWebhook(
    @Args('id', { type: () => ID }) id: string,
    @Args('input') input: UpdateWebhookInput,
    @Actor() actor: Actor,
  ): Promise<UpdatedWebhookModel> {
    const updated = await this.service.update(id, given(input), actor);
    return Object.assign(new UpdatedWebhookModel(), { secret: null, ...updated });
  }

  @Mutation(() => Boolean, { description: 'DELETE /v1/webhooks/{id}' })
  @RequiresRole('admin')
  async deleteWebhook(@Args('id', { type: () => ID }) id: string, @Actor() actor: Actor): Promise<boolean> {
    await this.service.delete(id, actor);
    return true;
  }

  @Mutation(() => WebhookDeliveryModel, { description: 'POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry' })
  @RequiresRole('admin')
  async retryWebhookDelivery(
    @Args('id', { type: () => ID }) id: string,
    @Args('deliveryId', { type: () => ID }) deliveryId: string,
    @Actor() actor: Actor,
  ): Promise<WebhookDeliveryModel> {
    return toDeliveryModel(await this.service.retryDelivery(id, deliveryId, actor));
  }

  @Mutation(() => WebhookReplayModel, { description: 'POST /v1/webhooks/{id}/replay' })
  @RequiresRole('admin')
  async replayWebhook(
    @Args('id', { type: () => ID }) id: string,
    @Args('since') since: string,
    @Actor() actor: Actor,
  ): Promise<WebhookReplayModel> {
    return Object.assign(new WebhookReplayModel(), await this.service.replay(id, { since }, actor));
  }
}
