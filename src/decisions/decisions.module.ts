import { Module } from '@nestjs/common';
import { DecisionsService } from './decisions.service';
import { DecisionsResolver } from './graphql/decisions.resolver';
import { DecisionsController } from './rest/decisions.controller';

/** Read-only decisions over the snapshot (API.md "Decisions"): feasible nodes, taint impact, toleration match. */
@Module({
  controllers: [DecisionsController],
  providers: [DecisionsService, DecisionsResolver],
  exports: [DecisionsService],
})
export class DecisionsModule {}
