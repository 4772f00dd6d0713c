import { Module } from '@nestjs/common';
import { TaintMutationService } from './taint-mutation.service';
import { TaintsController } from './taints.controller';
import { TaintsResolver } from './graphql/taints.resolver';

/**
 * kubectl taint, cordon/uncordon and node conditions (issue 5). Inventory, planner and unit of work come from the
 * global InventoryModule.
 */
@Module({
  controllers: [TaintsController],
  providers: [TaintMutationService, TaintsResolver],
  exports: [TaintMutationService],
})
export class TaintsModule {}
