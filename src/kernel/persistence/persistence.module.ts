import { Global, Module } from '@nestjs/common';
import { EventBus } from '../events/event-bus';
import { ChangeFeedService } from '../snapshot/change-feed.service';
import { SnapshotService } from '../snapshot/snapshot.service';
import { EventRepository } from './repositories/event.repository';
import { EvictionRepository } from './repositories/eviction.repository';
import { NodeRepository } from './repositories/node.repository';
import { PodRepository } from './repositories/pod.repository';
import { BudgetRepository } from './repositories/budget.repository';
import { UnitOfWork } from './unit-of-work';
import { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository';
import { WebhookSubscriptionRepository } from './repositories/webhook-subscription.repository';
import { WebhookOutboxSignal } from '../events/webhook-outbox-signal';

const SHARED = [
  NodeRepository,
  PodRepository,
  BudgetRepository,
  EventRepository,
  EvictionRepository,
  WebhookSubscriptionRepository,
  WebhookDeliveryRepository,
  WebhookOutboxSignal,
  UnitOfWork,
  SnapshotService,
  EventBus,
];

/**
 * The kernel's stored state, for every feature: one repository per table, the unit of work that writes
 * through them, the snapshot it keeps fresh (and the change feed from other replicas), the event bus.
 */
@Global()
@Module({
  providers: [...SHARED, ChangeFeedService],
  exports: SHARED,
})
export class PersistenceModule {}
