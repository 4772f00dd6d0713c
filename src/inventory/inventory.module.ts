import { Global, Module } from '@nestjs/common';
import { EvictionPlanner } from '../evictions/eviction-planner.service';
import { NodeService } from './node.service';
import { PodService } from './pod.service';
import { NodesController } from './rest/nodes.controller';
import { PodsController } from './rest/pods.controller';
import { BindingService } from './binding.service';
import { ImportService } from './import.service';
import { BindingController } from './rest/binding.controller';
import { ImportController } from './rest/import.controller';
import { ImportResolver } from './graphql/import.resolver';
import { NodesResolver } from './graphql/nodes.resolver';
import { PodsResolver } from './graphql/pods.resolver';

/**
 * Nodes and pods: their use cases and transports, the import, and the eviction planner every write
 * consults. Global because taints, decisions and evictions use its services. (Repositories, the unit of
 * work and the snapshot are the kernel's: PersistenceModule.)
 */
@Global()
@Module({
  controllers: [NodesController, PodsController, BindingController, ImportController],
  providers: [
    EvictionPlanner,
    NodeService,
    PodService,
    ImportService,
    BindingService,
    NodesResolver,
    PodsResolver,
    ImportResolver,
  ],
  exports: [EvictionPlanner, NodeService, PodService, ImportService, BindingService],
})
export class InventoryModule {}
