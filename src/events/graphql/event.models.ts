import { ArgsType, Field, Int, ObjectType } from '@nestjs/graphql';
import { connectionType, type Connection } from '../../kernel/graphql/models/connection.model';

@ObjectType('EventRecord', {
  description: 'One entry of the event log: who (actor, requestId) changed what (subject, data).',
})
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

export const EventConnectionModel = connectionType('Event', EventRecordModel, 'The audit log, oldest first.');
export type EventConnectionModel = Connection<EventRecordModel>;

@ArgsType()
export class EventHistoryArgs {
  @Field({ nullable: true, description: 'an event id (exclusive) or an RFC 3339 time (inclusive)' }) since?: string;
  @Field(() => [String], { nullable: true }) types?: string[];
  @Field({ nullable: true }) actor?: string;
  @Field(() => Int, { nullable: true, defaultValue: 100 }) first?: number;
  @Field({ nullable: true }) after?: string;
}
