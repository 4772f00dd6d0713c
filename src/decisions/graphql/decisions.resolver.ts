import { Args, Extensions, Query, Resolver } from '@nestjs/graphql';
import { ANSWERED_FROM_SNAPSHOT } from '../../kernel/graphql/answer-cache';
import { CurrentPrincipal } from '../../kernel/auth/principal.decorator';
import type { Principal } from '../../kernel/auth/roles';
import { FeasibleNodesService } from '../feasible-nodes.service';
import { TaintImpactService } from '../taint-impact.service';
import { TolerationMatchService } from '../toleration-match.service';
import {
  FeasibleNodesArgs,
  feasibleNodesBody,
  feasibleNodesComplexity,
  TaintImpactArgs,
  taintImpactBody,
  TaintImpactPageArgs,
  TolerationMatchArgs,
  tolerationMatchBody,
  tolerationMatchComplexity,
} from './decision.args';
import { FeasibleNodesDecisionModel } from './feasible-nodes.model';
import { TaintImpactModel } from './taint-impact.model';
import { TaintImpactSummaryModel } from './taint-impact-summary.model';
import { TolerationMatchModel } from './toleration-match.model';

/** The decision queries: GraphQL inputs become the REST bodies and go to the same service (viewer role). */
@Resolver()
export class DecisionsResolver {
  constructor(
    private readonly feasible: FeasibleNodesService,
    private readonly impact: TaintImpactService,
    private readonly matching: TolerationMatchService,
  ) {}

  @Query(() => FeasibleNodesDecisionModel, {
    description:
      'Where may this pod run, ranked, and why not elsewhere? (POST /v1/decisions/feasible-nodes) The same query asked again before the inventory changes is answered from a cache (the same answer, byte for byte).',
    complexity: feasibleNodesComplexity,
  })
  @Extensions(ANSWERED_FROM_SNAPSHOT)
  feasibleNodes(@Args() args: FeasibleNodesArgs, @CurrentPrincipal() who: Principal) {
    return this.feasible.feasibleNodes(feasibleNodesBody(args), who);
  }

  @Query(() => TaintImpactModel, {
    description: 'What would these taints do, without applying them? (POST /v1/decisions/taint-impact)',
  })
  taintImpact(@Args() args: TaintImpactPageArgs) {
    return this.impact.taintImpact(taintImpactBody(args));
  }

  @Query(() => TaintImpactSummaryModel, {
    description:
      'taintImpact as counts: per node, per action and per workload, earliest/latest evictAt (POST /v1/decisions/taint-impact with summary: true)',
  })
  taintImpactSummary(@Args() args: TaintImpactArgs) {
    return this.impact.taintImpactSummary(taintImpactBody(args));
  }

  @Query(() => TolerationMatchModel, {
    description: 'How do these tolerations meet these taints? (POST /v1/decisions/toleration-match)',
    complexity: tolerationMatchComplexity,
  })
  tolerationMatch(@Args() args: TolerationMatchArgs) {
    return this.matching.tolerationMatch(tolerationMatchBody(args));
  }
}
