import { Module } from '@nestjs/common';
import { DueEvictionSweeper } from './due-eviction-sweeper';
import { EvictionHistoryService } from './eviction-history.service';
import { EvictionReconciler } from './eviction-reconciler';
import { EvictionWorker } from './eviction-worker';
import { SweepAlarm } from './sweep-alarm';
import { EvictionsResolver } from './graphql/evictions.resolver';
import { EvictionsController } from './rest/evictions.controller';
import { EvictionApiController } from './rest/eviction-api.controller';
import { EvictionApiService } from './eviction-api.service';
import { HeldEvictionReleaser } from './held-eviction-releaser';

/**
 * The durable NoExecute engine (issue 5): the timer handler (worker) and the due-eviction sweeper
 * it wakes (also woken by this replica's local alarm), the reconciler that keeps the timers in line
 * with the Scheduled rows, and the history. The planner itself lives in the global
 * InventoryModule, because every inventory write consults it.
 */
@Module({
  controllers: [EvictionsController, EvictionApiController],
  providers: [
    EvictionHistoryService,
    DueEvictionSweeper,
    EvictionWorker,
    SweepAlarm,
    EvictionReconciler,
    EvictionsResolver,
    EvictionApiService,
    HeldEvictionReleaser,
  ],
  exports: [EvictionReconciler, EvictionWorker, DueEvictionSweeper, EvictionApiService],
})
export class EvictionsModule {}
