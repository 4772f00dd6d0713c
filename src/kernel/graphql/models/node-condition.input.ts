import { Field, InputType } from '@nestjs/graphql';

/** A node condition as PUT /v1/nodes/{name}/conditions and node upserts take it. */
@InputType('NodeConditionInput')
export class NodeConditionInput {
  @Field() type!: string;
  @Field({ description: 'True, False or Unknown' }) status!: string;
  @Field({ nullable: true }) reason?: string;
  @Field({ nullable: true }) message?: string;
}
