import { Field, InputType, Int, ObjectType } from '@nestjs/graphql';
import { AffinityModel } from './affinity.model';
import { KeyValue, KeyValueInput } from './key-value.model';
import { TolerationInput } from './taint.model';

@ObjectType('ResourceRequirements')
export class ResourceRequirementsModel {
  @Field(() => [KeyValue]) requests!: KeyValue[];
  @Field(() => [KeyValue]) limits!: KeyValue[];
}

@InputType('ResourceRequirementsInput')
export class ResourceRequirementsInput {
  @Field(() => [KeyValueInput], { nullable: true, description: 'e.g. [{key: "cpu", value: "100m"}]' })
  requests?: KeyValueInput[];
  @Field(() => [KeyValueInput], { nullable: true }) limits?: KeyValueInput[];
}

@ObjectType('OwnerReference')
@InputType('OwnerReferenceInput')
export class OwnerModel {
  @Field() kind!: string;
  @Field() name!: string;
}

/** API.md "PodSpec" given inline to a decision, and the spec part of upsertPod. */
@InputType('PodSpecInput')
export class PodSpecInput {
  @Field(() => [TolerationInput], { nullable: true }) tolerations?: TolerationInput[];
  @Field(() => [KeyValueInput], { nullable: true }) nodeSelector?: KeyValueInput[];
  @Field(() => AffinityModel, { nullable: true }) affinity?: AffinityModel | null;
  @Field(() => ResourceRequirementsInput, { nullable: true }) resources?: ResourceRequirementsInput | null;
  @Field(() => Int, { nullable: true }) priority?: number;
  @Field(() => OwnerModel, { nullable: true }) owner?: OwnerModel | null;
  @Field({ nullable: true }) hostNetwork?: boolean;
}
