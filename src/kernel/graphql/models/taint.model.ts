import { Field, GraphQLISODateTime, InputType, Int, ObjectType } from '@nestjs/graphql';
import type { Taint } from '../../../domain/types';
import { TaintEffectEnum, TolerationOperatorEnum } from './enums';

@ObjectType('Taint', { description: 'A node taint (unique on a node by key and effect).' })
export class TaintModel {
  @Field() key!: string;
  @Field() value!: string;
  @Field(() => TaintEffectEnum) effect!: TaintEffectEnum;
  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: 'When the taint was first added; NoExecute clocks start here.',
  })
  timeAdded?: Date | null;
}

/** A taint as GraphQL shows it: the one mapper every resolver uses. */
export function toTaintModel(t: Taint): TaintModel {
  return { key: t.key, value: t.value ?? '', effect: t.effect as TaintEffectEnum, timeAdded: t.timeAdded ?? null };
}

@InputType('TaintInput')
export class TaintInput {
  @Field() key!: string;
  @Field({ nullable: true, defaultValue: '' }) value?: string;
  @Field(() => TaintEffectEnum) effect!: TaintEffectEnum;
}

@ObjectType('Toleration')
export class TolerationModel {
  @Field({ nullable: true }) key?: string;
  @Field(() => TolerationOperatorEnum, { nullable: true, description: 'null means Equal' })
  operator?: TolerationOperatorEnum;
  @Field({ nullable: true }) value?: string;
  @Field(() => TaintEffectEnum, { nullable: true, description: 'null means every effect' }) effect?: TaintEffectEnum;
  @Field(() => Int, { nullable: true, description: 'NoExecute only; null tolerates forever' }) tolerationSeconds?:
    number | null;
}

@InputType('TolerationInput')
export class TolerationInput {
  @Field({ nullable: true }) key?: string;
  @Field(() => TolerationOperatorEnum, { nullable: true }) operator?: TolerationOperatorEnum;
  @Field({ nullable: true }) value?: string;
  @Field(() => TaintEffectEnum, { nullable: true }) effect?: TaintEffectEnum;
  @Field(() => Int, { nullable: true }) tolerationSeconds?: number | null;
}
