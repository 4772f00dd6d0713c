import { Field, GraphQLISODateTime, Int, ObjectType } from '@nestjs/graphql';
import type { StoredPod } from '../../model/stored-objects';
import { AffinityModel } from './affinity.model';
import type { TaintEffectEnum, TolerationOperatorEnum } from './enums';
import { KeyValue, toEntries } from './key-value.model';
import { OwnerModel, ResourceRequirementsModel } from './pod-spec.input';
import { TolerationModel } from './taint.model';

@ObjectType('Pod', { description: 'A pod of the inventory (API.md "Pod").' })
export class PodModel {
  @Field() namespace!: string;
  @Field() name!: string;
  @Field() uid!: string;
  @Field(() => [KeyValue], { description: 'metadata.labels' }) labels!: KeyValue[];
  @Field(() => String, { nullable: true }) nodeName!: string | null;
  @Field({ description: 'Pending, Running, Succeeded, Failed or Evicted' }) phase!: string;
  @Field(() => GraphQLISODateTime, { nullable: true }) boundAt!: Date | null;
  @Field(() => [TolerationModel]) tolerations!: TolerationModel[];
  @Field(() => [KeyValue]) nodeSelector!: KeyValue[];
  @Field(() => AffinityModel, { nullable: true }) affinity!: AffinityModel | null;
  @Field(() => Int) priority!: number;
  @Field(() => OwnerModel, { nullable: true }) owner!: OwnerModel | null;
  @Field(() => ResourceRequirementsModel) resources!: ResourceRequirementsModel;
  @Field() hostNetwork!: boolean;
  @Field() resourceVersion!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
}

export function toPodModel(p: StoredPod): PodModel {
  return {
    namespace: p.namespace,
    name: p.name,
    uid: p.uid,
    labels: toEntries(p.labels),
    nodeName: p.nodeName,
    phase: p.phase,
    boundAt: p.boundAt,
    tolerations: p.tolerations.map((t) => ({
      key: t.key,
      operator: (t.operator || undefined) as TolerationOperatorEnum | undefined,
      value: t.value,
      effect: (t.effect || undefined) as TaintEffectEnum | undefined,
      tolerationSeconds: t.tolerationSeconds ?? null,
    })),
    nodeSelector: toEntries(p.nodeSelector),
    affinity: p.affinity as AffinityModel | null,
    priority: p.priority,
    owner: p.owner,
    resources: { requests: toEntries(p.resources.requests), limits: toEntries(p.resources.limits) },
    hostNetwork: p.hostNetwork,
    resourceVersion: p.resourceVersion,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
