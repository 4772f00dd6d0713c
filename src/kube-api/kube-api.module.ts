import { Module } from '@nestjs/common';
import { InventoryModule } from '../inventory/inventory.module';
import { TaintsModule } from '../taints/taints.module';
import { DiscoveryController } from './discovery.controller';
import { EventsModule } from '../events/events.module';
import { KubeEventsController } from './events.controller';
import { KubeEventsService } from './kube-events.service';
import { OpenApiController } from './openapi.controller';
import { KubeNodesService } from './kube-nodes.service';
import { NodesController } from './nodes.controller';
import { KubePodsService } from './kube-pods.service';
import { PodsController } from './pods.controller';
import { KubeBudgetsController } from './budgets.controller';
import { KubeDaemonSetsController } from './daemonsets.controller';
import { EvictionsModule } from '../evictions/evictions.module';
import { KubeVersions } from './watch/kube-versions';
import { WatchCache } from './watch/watch-cache';
import { KubeWatchService } from './watch/kube-watch.service';

/** The Kubernetes API server (issue 12): discovery and core/v1 objects over taintwise's services. */
@Module({
  imports: [InventoryModule, TaintsModule, EventsModule, EvictionsModule],
  controllers: [
    DiscoveryController,
    OpenApiController,
    NodesController,
    PodsController,
    KubeEventsController,
    KubeBudgetsController,
    KubeDaemonSetsController,
  ],
  providers: [KubeNodesService, KubePodsService, KubeEventsService, KubeVersions, WatchCache, KubeWatchService],
})
export class KubeApiModule {}
