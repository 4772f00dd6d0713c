import { Module } from '@nestjs/common';
import { FeasibleNodesService } from './feasible-nodes.service';
import { TaintImpactService } from './taint-impact.service';
import { TolerationMatchService } from './toleration-match.service';
import { DecisionsResolver } from './graphql/decisions.resolver';
import { DecisionsController } from './rest/decisions.controller';

/** Read-only decisions over the snapshot (API.md "Decisions"): feasible nodes, taint impact, toleration match. */
@Module({
  controllers: [DecisionsController],
  providers: [FeasibleNodesService, TaintImpactService, TolerationMatchService, DecisionsResolver],
  exports: [FeasibleNodesService, TaintImpactService, TolerationMatchService],
})
export class DecisionsModule {}
