import { Field, Int, ObjectType } from '@nestjs/graphql';
import { TaintModel } from '../../kernel/graphql/models/taint.model';

/** Estimated reasons per infeasible node (one per failing plugin, a few resources at most). */
const REASONS_PER_NODE = 2;

@ObjectType('NodeScores', { description: 'Normalised plugin scores, 0..100.' })
export class NodeScoresModel {
  @Field(() => Int) TaintToleration!: number;
  @Field(() => Int) NodeAffinity!: number;
}

@ObjectType('FilterReason', { description: 'Why one filter plugin rejected a node (SEMANTICS A.2).' })
export class FilterReasonModel {
  @Field({ description: 'NodeUnschedulable, TaintToleration, NodeAffinity or NodeResourcesFit' }) plugin!: string;
  @Field({ description: 'The reason as the scheduler words it, e.g. `node(s) had untolerated taint {dedicated: gpu}`' })
  message!: string;
  @Field(() => TaintModel, {
    nullable: true,
    description: 'TaintToleration: the first untolerated taint (null when redacted)',
  })
  taint?: TaintModel;
  @Field(() => String, {
    nullable: true,
    description: 'NodeResourcesFit: the resource that does not fit (`pods` for Too many pods)',
  })
  resource?: string;
}

@ObjectType('NodeDecision', {
  description: 'One candidate node: feasible with its score, or infeasible with every failing check.',
})
export class NodeDecisionModel {
  @Field() name!: string;
  @Field() feasible!: boolean;
  @Field(() => Int, { nullable: true, description: 'Feasible nodes: weighted total of the normalised scores, 0..100' })
  score?: number;
  @Field(() => NodeScoresModel, { nullable: true }) scores?: NodeScoresModel;
  @Field(() => [FilterReasonModel], {
    nullable: true,
    description: 'Infeasible nodes: every failing check in plugin order',
    complexity: ({ childComplexity }) => 1 + REASONS_PER_NODE * childComplexity,
  })
  reasons?: FilterReasonModel[];
}

@ObjectType('FeasibleNodesDecision', { description: 'API.md `POST /v1/decisions/feasible-nodes`.' })
export class FeasibleNodesDecisionModel {
  @Field(() => Int, { description: 'Candidate nodes (all, or those named/selected)' }) totalNodes!: number;
  @Field(() => Int) feasibleCount!: number;
  @Field({ description: '`<feasible>/<total> nodes are available: ...` (upstream FitError wording)' }) message!: string;
  // The list is as long as the query's `limit`; the feasibleNodes query multiplies this per-node cost by it.
  @Field(() => [NodeDecisionModel], {
    description: 'Feasible first (best score, then name), then infeasible by name; capped by limit',
    complexity: ({ childComplexity }) => childComplexity,
  })
  nodes!: NodeDecisionModel[];
}
