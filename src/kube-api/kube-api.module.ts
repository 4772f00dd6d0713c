import { Module } from '@nestjs/common';
import { InventoryModule } from '../inventory/inventory.module';
import { TaintsModule } from '../taints/taints.module';
import { DiscoveryController } from './discovery.controller';
import { OpenApiController } from './openapi.controller';
import { KubeNodesService } from './kube-nodes.service';
import { NodesController } from './nodes.controller';
import { KubePodsService } from './kube-pods.service';
import { PodsController } from './pods.controller';

/** The Kubernetes API server (issue 12): discovery and core/v1 objects over taintwise's services. */
@Module({
  imports: [InventoryModule, TaintsModule],
  controllers: [DiscoveryController, OpenApiController, NodesController, PodsController],
  providers: [KubeNodesService, KubePodsService],
})
export class KubeApiModule {}
