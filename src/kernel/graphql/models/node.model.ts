import { Field, GraphQLISODateTime, ObjectType } from '@nestjs/graphql';
import type { StoredNode } from '../../model/stored-objects';
import { KeyValue, toEntries } from './key-value.model';
import { TaintModel, toTaintModel } from './taint.model';

@ObjectType('NodeCondition')
export class NodeConditionModel {
  @Field() type!: string;
  @Field() status!: string;
  @Field({ nullable: true }) reason?: string;
  @Field({ nullable: true }) message?: string;
  @Field(() => GraphQLISODateTime, { nullable: true }) lastTransitionTime?: Date;
}

@ObjectType('Node', { description: 'A node of the inventory (API.md "Node").' })
export class NodeModel {
  @Field() name!: string;
  @Field(() => [KeyValue]) labels!: KeyValue[];
  @Field(() => [TaintModel]) taints!: TaintModel[];
  @Field() unschedulable!: boolean;
  @Field(() => [NodeConditionModel]) conditions!: NodeConditionModel[];
  @Field(() => [KeyValue], { nullable: true, description: 'null: no resource limit is applied' }) allocatable!:
    KeyValue[] | null;
  @Field() resourceVersion!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime) updatedAt!: Date;
}

export function toNodeModel(n: StoredNode): NodeModel {
  return {
    name: n.name,
    labels: toEntries(n.labels),
    taints: n.taints.map(toTaintModel),
    unschedulable: n.unschedulable,
    conditions: n.conditions.map((c) => ({
      ...c,
      lastTransitionTime: c.lastTransitionTime ? new Date(c.lastTransitionTime) : undefined,
    })),
    allocatable: n.allocatable ? toEntries(n.allocatable) : null,
    resourceVersion: n.resourceVersion,
    createdAt: n.createdAt,
    updatedAt: n.updatedAt,
  };
}
