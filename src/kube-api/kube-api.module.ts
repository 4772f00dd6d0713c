import { Module } from '@nestjs/common';
import { InventoryModule } from '../inventory/inventory.module';
import { TaintsModule } from '../taints/taints.module';
import { DiscoveryController } from './discovery.controller';
import { KubeNodesService } from './kube-nodes.service';
import { NodesController } from './nodes.controller';

/** The Kubernetes API server (issue 12): discovery and core/v1 objects over taintwise's services. */
@Module({
  imports: [InventoryModule, TaintsModule],
  controllers: [DiscoveryController, NodesController],
  providers: [KubeNodesService],
})
export class KubeApiModule {}
