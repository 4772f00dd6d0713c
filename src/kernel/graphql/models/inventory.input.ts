import { ArgsType, Field, InputType, Int } from '@nestjs/graphql';
import { NodeConditionInput } from './node-condition.input';
import { KeyValueInput } from './key-value.model';
import { PodSpecInput } from './pod-spec.input';
import { TaintInput } from './taint.model';

/** `PUT /v1/nodes/{name}`'s body (API.md "Node" without server fields). */
@InputType('NodeInput')
export class NodeInput {
  @Field(() => [KeyValueInput], { nullable: true }) labels?: KeyValueInput[];
  @Field(() => [TaintInput], { nullable: true, description: 'timeAdded is set by the server' }) taints?: TaintInput[];
  @Field({ nullable: true }) unschedulable?: boolean;
  @Field(() => [NodeConditionInput], { nullable: true }) conditions?: NodeConditionInput[];
  @Field(() => [KeyValueInput], {
    nullable: true,
    description: 'e.g. [{key: "cpu", value: "4"}]; null: no resource limit',
  })
  allocatable?: KeyValueInput[] | null;
  @Field({
    nullable: true,
    description: 'optimistic concurrency: the write fails with CONFLICT when the node moved on',
  })
  resourceVersion?: string;
}

/** `PUT /v1/namespaces/{ns}/pods/{name}`'s body (API.md "Pod" without server fields). */
@InputType('PodInput')
export class PodInput extends PodSpecInput {
  @Field(() => [KeyValueInput], { nullable: true, description: 'metadata.labels (what disruption budgets select)' })
  labels?: KeyValueInput[];
  @Field(() => String, {
    nullable: true,
    description: 'on create only: stores the pod bound there (no scheduler checks); cannot change on replace',
  })
  nodeName?: string | null;
  @Field({ nullable: true, description: 'Pending, Running, Succeeded, Failed' }) phase?: string;
  @Field({ nullable: true }) uid?: string;
  @Field({ nullable: true }) resourceVersion?: string;
}

/** Cursor paging (Relay connections): `first` items after the cursor `after`. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, defaultValue: 100, description: '1..5000' }) first?: number;
  @Field({ nullable: true, description: 'endCursor of the previous page' }) after?: string;
}

@ArgsType()
export class NodesArgs extends PageArgs {
  @Field({ nullable: true, description: 'Kubernetes label selector, e.g. "pool=gpu,zone in (a,b)"' })
  labelSelector?: string;
}

@ArgsType()
export class PodsArgs extends PageArgs {
  @Field({ nullable: true }) namespace?: string;
  @Field({ nullable: true }) nodeName?: string;
  @Field({ nullable: true, description: 'Pending, Running, Succeeded, Failed or Evicted' }) phase?: string;
}
