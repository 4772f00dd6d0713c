import { Field, Int, ObjectType } from '@nestjs/graphql';
import { EvictionActionEnum } from '../../kernel/graphql/models/enums';
import { TaintModel } from '../../kernel/graphql/models/taint.model';

@ObjectType('TaintMatch')
export class TaintMatchModel {
  @Field(() => TaintModel) taint!: TaintModel;
  @Field() tolerated!: boolean;
  @Field(() => Int, { nullable: true, description: 'The first toleration, in order, that tolerates the taint' })
  tolerationIndex?: number;
}

@ObjectType('EvictionOutcome', { description: 'What happens to a pod already running on the node.' })
export class EvictionOutcomeModel {
  @Field(() => EvictionActionEnum) action!: EvictionActionEnum;
  @Field(() => Int, { nullable: true }) afterSeconds?: number;
}

@ObjectType('TolerationMatch', { description: 'API.md `POST /v1/decisions/toleration-match`.' })
export class TolerationMatchModel {
  // As long as the `taints` argument: the tolerationMatch query multiplies this per-taint cost by it.
  @Field(() => [TaintMatchModel], { complexity: ({ childComplexity }) => childComplexity }) matches!: TaintMatchModel[];
  @Field({ description: 'false when a NoSchedule or NoExecute taint is untolerated' }) schedulable!: boolean;
  @Field({ description: 'true when a PreferNoSchedule taint is untolerated' }) preferAvoid!: boolean;
  @Field(() => EvictionOutcomeModel) eviction!: EvictionOutcomeModel;
}
