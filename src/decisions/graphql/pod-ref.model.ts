import { Field, InputType, ObjectType } from '@nestjs/graphql';

/** A pod by namespace and name (API.md `podRef`, and the `pod` of every decision entry). */
@ObjectType('PodRef')
@InputType('PodRefInput')
export class PodRefModel {
  @Field() namespace!: string;
  @Field() name!: string;
}
