import { Module } from '@nestjs/common';
import { EventRepository } from '../kernel/persistence/repositories/event.repository';
import { EventHistoryService } from './event-history.service';
import { EventStreamService } from './event-stream.service';
import { EventsController } from './events.controller';
import { EventsResolver } from './graphql/events.resolver';

/** The event log as streams (SSE, GraphQL subscription) and as the audit history. EventBus comes from InventoryModule. */
@Module({
  controllers: [EventsController],
  providers: [EventRepository, EventStreamService, EventHistoryService, EventsResolver],
  exports: [EventRepository],
})
export class EventsModule {}
