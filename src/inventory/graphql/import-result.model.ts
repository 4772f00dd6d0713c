import { Field, Int, ObjectType } from '@nestjs/graphql';
import { EvictionCountsModel } from '../../kernel/graphql/models/eviction-counts.model';
import type { ImportResult } from '../import.service';
import { KeyValue } from '../../kernel/graphql/models/key-value.model';

@ObjectType('ImportCounts')
export class ImportCounts {
  @Field(() => Int) created!: number;
  @Field(() => Int) updated!: number;
}

@ObjectType('SkippedKind')
export class SkippedKindModel {
  @Field() kind!: string;
  @Field(() => Int) count!: number;
}

@ObjectType('ImportItemError', { description: 'An item left out of the import; the rest was imported.' })
export class ImportItemErrorModel {
  @Field(() => Int, { nullable: true, description: '0-based item index over all documents (structural problems)' })
  index?: number;
  @Field(() => Int, { nullable: true }) document?: number;
  @Field() kind!: string;
  @Field({ nullable: true }) name?: string;
  @Field({ nullable: true }) field?: string;
  @Field() message!: string;
}

@ObjectType('ImportSummary')
export class ImportSummaryModel {
  @Field(() => Int) documents!: number;
  @Field(() => Int) items!: number;
  @Field(() => Int) nodes!: number;
  @Field(() => Int) pods!: number;
  @Field(() => Int, { description: 'policy/v1 PodDisruptionBudgets' }) budgets!: number;
  @Field(() => [KeyValue], { description: 'pods per phase (value: the count)' }) podsByPhase!: KeyValue[];
  @Field(() => Int) inactivePods!: number;
  @Field(() => Int) unboundPods!: number;
  @Field(() => Int) podAffinityDropped!: number;
  @Field(() => Int) boundAtDefaultedToNow!: number;
  @Field(() => Int) skipped!: number;
  @Field(() => Int) errors!: number;
  @Field(() => Int) invalid!: number;
  @Field(() => Int) podsOnUnknownNodes!: number;
  @Field(() => Int) durationMs!: number;
}

@ObjectType('ImportResult', { description: "POST /v1/import's answer." })
export class ImportResultModel {
  @Field({ description: 'json, json-stream (kubectl cluster-info dump) or yaml' }) format!: string;
  @Field(() => ImportCounts) nodes!: ImportCounts;
  @Field(() => ImportCounts) pods!: ImportCounts;
  @Field(() => ImportCounts, { description: 'policy/v1 PodDisruptionBudgets' }) budgets!: ImportCounts;
  @Field(() => [SkippedKindModel]) skipped!: SkippedKindModel[];
  @Field(() => [ImportItemErrorModel]) errors!: ImportItemErrorModel[];
  @Field(() => EvictionCountsModel) evictions!: EvictionCountsModel;
  @Field(() => [String]) notes!: string[];
  @Field(() => ImportSummaryModel) summary!: ImportSummaryModel;
}

export function toImportResultModel(r: ImportResult): ImportResultModel {
  return {
    ...r,
    summary: {
      ...r.summary,
      podsByPhase: Object.entries(r.summary.podsByPhase).map(([key, n]) => ({ key, value: String(n) })),
    },
  };
}
