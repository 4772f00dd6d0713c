import { ArgsType, Field, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('EventRecord', { description: 'One entry of the event log: who (actor, requestId) changed what (subject, data).' })
export class EventRecordModel {
  @Field() id!: string;
  @Field() type!: string;
  @Field() actor!: string;
  @Field(() => String, { nullable: true }) requestId!: string | null;
  @Field() subjectKind!: string;
  @Field() subjectName!: string;
  @Field({ description: 'the event data as JSON text' }) data!: string;
  @Field() createdAt!: string;
}

@ObjectType('EventConnection')
export class EventConnectionModel {
  @Field(() => [EventRecordModel]) items!: EventRecordModel[];
  @Field(() => String, { nullable: true }) endCursor!: string | null;
  @Field() hasNextPage!: boolean;
}

@ArgsType()
export class EventHistoryArgs {
  @Field({ nullable: true, description: 'an event id (exclusive) or an RFC 3339 time (inclusive)' }) since?: string;
  @Field(() => [String], { nullable: true }) types?: string[];
  @Field({ nullable: true }) actor?: string;
  @Field(() => Int, { nullable: true, defaultValue: 100 }) first?: number;
  @Field({ nullable: true }) after?: string;
}
