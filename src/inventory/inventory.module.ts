import { Global, Module } from '@nestjs/common';
import { EventBus } from '../kernel/events/event-bus';
import { EvictionPlanner } from '../evictions/eviction-planner.service';
import { ChangeFeedService } from '../kernel/snapshot/change-feed.service';
import { SnapshotService } from '../kernel/snapshot/snapshot.service';
import { NodeRepository } from '../kernel/persistence/repositories/node.repository';
import { NodeService } from './node.service';
import { PodRepository } from '../kernel/persistence/repositories/pod.repository';
import { PodService } from './pod.service';
import { NodesController } from './rest/nodes.controller';
import { PodsController } from './rest/pods.controller';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import { BindingService } from './binding.service';
import { BulkInventoryRepository } from '../kernel/persistence/repositories/bulk-inventory.repository';
import { ImportService } from './import.service';
import { BindingController } from './rest/binding.controller';
import { ImportController } from './rest/import.controller';
import { ImportResolver } from './graphql/import.resolver';
import { NodesResolver } from './graphql/nodes.resolver';
import { PodsResolver } from './graphql/pods.resolver';

/**
 * The stored inventory and everything that writes it: repositories, the unit of work, the snapshot
 * it keeps fresh, the eviction planner every write consults, and the node/pod use cases.
 * Global because decisions, evictions and the transports all read it.
 */
@Global()
@Module({
  controllers: [NodesController, PodsController, BindingController, ImportController],
  providers: [NodeRepository, PodRepository, UnitOfWork, SnapshotService, EventBus, EvictionPlanner, NodeService, PodService, ChangeFeedService, BulkInventoryRepository, ImportService, BindingService, NodesResolver, PodsResolver, ImportResolver],
  exports: [NodeRepository, PodRepository, UnitOfWork, SnapshotService, EventBus, EvictionPlanner, NodeService, PodService, ImportService, BindingService],
})
export class InventoryModule {}
