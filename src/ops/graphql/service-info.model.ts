import { Field, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'How this replica is running.' })
export class ServiceInfo {
  @Field({ description: 'postgres (DATABASE_URL) or pglite (embedded, DATA_DIR)' }) storage!: string;
  @Field({ description: 'redis (BullMQ, REDIS_URL) or in-process' }) timers!: string;
  @Field({ description: 'SEMANTICS A.1: Gt/Lt tolerations enabled' }) comparisonOperators!: boolean;
  @Field({ description: 'true when no API keys are configured' }) open!: boolean;
}
