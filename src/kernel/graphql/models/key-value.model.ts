import { Field, InputType, ObjectType } from '@nestjs/graphql';

/** Maps (labels, nodeSelector, resource lists) as lists of entries: GraphQL has no map type. */
@ObjectType('KeyValue')
export class KeyValue {
  @Field() key!: string;
  @Field() value!: string;
}

@InputType('KeyValueInput')
export class KeyValueInput {
  @Field() key!: string;
  @Field() value!: string;
}

export function toEntries(map: Record<string, string> | null | undefined): KeyValue[] {
  return Object.entries(map ?? {}).map(([key, value]) => ({ key, value }));
}

export function fromEntries(entries: ReadonlyArray<KeyValueInput> | null | undefined): Record<string, string> {
  return Object.fromEntries((entries ?? []).map((e) => [e.key, e.value]));
}
