import { Module } from '@nestjs/common';
import { EventHistoryService } from './event-history.service';
import { EventStreamService } from './event-stream.service';
import { EventsController } from './events.controller';
import { EventsResolver } from './graphql/events.resolver';

/**
 * The event log as streams (SSE, GraphQL subscription) and as the audit history. EventBus comes from InventoryModule.
 */
@Module({
  controllers: [EventsController],
  providers: [EventStreamService, EventHistoryService, EventsResolver],
  exports: [EventHistoryService],
})
export class EventsModule {}
