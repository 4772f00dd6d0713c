import { Field, InputType, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('NodeSelectorRequirement')
@InputType('NodeSelectorRequirementInput')
export class NodeSelectorRequirementModel {
  @Field() key!: string;
  @Field({ description: 'In, NotIn, Exists, DoesNotExist, Gt, Lt' }) operator!: string;
  @Field(() => [String], { nullable: true }) values?: string[];
}

@ObjectType('NodeSelectorTerm')
@InputType('NodeSelectorTermInput')
export class NodeSelectorTermModel {
  @Field(() => [NodeSelectorRequirementModel], { nullable: true }) matchExpressions?: NodeSelectorRequirementModel[];
  @Field(() => [NodeSelectorRequirementModel], { nullable: true }) matchFields?: NodeSelectorRequirementModel[];
}

@ObjectType('NodeSelector')
@InputType('NodeSelectorInput')
export class NodeSelectorModel {
  @Field(() => [NodeSelectorTermModel]) nodeSelectorTerms!: NodeSelectorTermModel[];
}

@ObjectType('PreferredSchedulingTerm')
@InputType('PreferredSchedulingTermInput')
export class PreferredSchedulingTermModel {
  @Field(() => Int) weight!: number;
  @Field(() => NodeSelectorTermModel) preference!: NodeSelectorTermModel;
}

@ObjectType('NodeAffinity')
@InputType('NodeAffinityInput')
export class NodeAffinityModel {
  @Field(() => NodeSelectorModel, { nullable: true })
  requiredDuringSchedulingIgnoredDuringExecution?: NodeSelectorModel | null;
  @Field(() => [PreferredSchedulingTermModel], { nullable: true }) preferredDuringSchedulingIgnoredDuringExecution?:
    PreferredSchedulingTermModel[] | null;
}

@ObjectType('Affinity')
@InputType('AffinityInput')
export class AffinityModel {
  @Field(() => NodeAffinityModel, { nullable: true }) nodeAffinity?: NodeAffinityModel | null;
}
