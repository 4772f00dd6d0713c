import { Module } from '@nestjs/common';
import { WebhooksResolver } from './graphql/webhooks.resolver';
import { WebhooksController } from './rest/webhooks.controller';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookService } from './webhook.service';

/**
 * Signed webhooks with a durable outbox (issue 15): subscriptions (REST and GraphQL, admin only), and
 * the worker that delivers the outbox rows UnitOfWork writes with every event.
 */
@Module({
  controllers: [WebhooksController],
  providers: [WebhookService, WebhookDispatcher, WebhooksResolver],
  exports: [WebhookService, WebhookDispatcher],
})
export class WebhooksModule {}
