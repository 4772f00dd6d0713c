import { ArgsType, Field, InputType, Int, ObjectType } from '@nestjs/graphql';
import type { DisruptionBudgetStatus, IntOrPercent } from '../../domain/disruption/budget-types';
import { KeyValue, KeyValueInput, toEntries } from '../../kernel/graphql/models/key-value.model';
import type { StoredBudget } from '../../kernel/model/stored-budget';

@ObjectType('LabelSelectorRequirement')
export class LabelSelectorRequirementModel {
  @Field() key!: string;
  @Field({ description: 'In, NotIn, Exists or DoesNotExist' }) operator!: string;
  @Field(() => [String]) values!: string[];
}

@ObjectType('LabelSelector', { description: 'metav1.LabelSelector' })
export class LabelSelectorModel {
  @Field(() => [KeyValue]) matchLabels!: KeyValue[];
  @Field(() => [LabelSelectorRequirementModel]) matchExpressions!: LabelSelectorRequirementModel[];
}

@ObjectType('DisruptionBudgetStatus', { description: 'as the disruption controller computes it (SEMANTICS B.9.2)' })
export class DisruptionBudgetStatusModel {
  @Field(() => Int) expectedPods!: number;
  @Field(() => Int) currentHealthy!: number;
  @Field(() => Int) desiredHealthy!: number;
  @Field(() => Int) disruptionsAllowed!: number;
}

@ObjectType('DisruptionBudget', {
  description: 'A policy/v1 PodDisruptionBudget (REST: /v1/namespaces/{ns}/poddisruptionbudgets)',
})
export class DisruptionBudgetModel {
  @Field() namespace!: string;
  @Field() name!: string;
  @Field() uid!: string;
  @Field(() => [KeyValue]) labels!: KeyValue[];
  @Field(() => String, { nullable: true, description: 'an integer ("2") or a percentage ("50%")' })
  minAvailable!: string | null;
  @Field(() => String, { nullable: true, description: 'an integer ("1") or a percentage ("25%")' })
  maxUnavailable!: string | null;
  @Field(() => LabelSelectorModel, { nullable: true, description: 'null: selects no pod' })
  selector!: LabelSelectorModel | null;
  @Field(() => String, { nullable: true }) unhealthyPodEvictionPolicy!: string | null;
  @Field(() => DisruptionBudgetStatusModel) status!: DisruptionBudgetStatusModel;
  @Field(() => Int) generation!: number;
  @Field() resourceVersion!: string;
  @Field() createdAt!: Date;
}

@InputType('LabelSelectorRequirementInput')
export class LabelSelectorRequirementInput {
  @Field() key!: string;
  @Field() operator!: string;
  @Field(() => [String], { nullable: true }) values?: string[];
}

@InputType('LabelSelectorInput')
export class LabelSelectorInput {
  @Field(() => [KeyValueInput], { nullable: true }) matchLabels?: KeyValueInput[];
  @Field(() => [LabelSelectorRequirementInput], { nullable: true })
  matchExpressions?: LabelSelectorRequirementInput[];
}

@InputType('DisruptionBudgetInput', { description: 'the spec of PUT /v1/namespaces/{ns}/poddisruptionbudgets/{name}' })
export class DisruptionBudgetInput {
  @Field(() => [KeyValueInput], { nullable: true }) labels?: KeyValueInput[];
  @Field(() => String, { nullable: true, description: 'an integer ("2") or a percentage ("50%")' })
  minAvailable?: string | null;
  @Field(() => String, { nullable: true, description: 'an integer ("1") or a percentage ("25%")' })
  maxUnavailable?: string | null;
  @Field(() => LabelSelectorInput, { nullable: true, description: 'absent or null: selects no pod' })
  selector?: LabelSelectorInput | null;
  @Field(() => String, { nullable: true }) unhealthyPodEvictionPolicy?: string | null;
  @Field({ nullable: true, description: 'optimistic concurrency' }) resourceVersion?: string;
}

@ArgsType()
export class BudgetsArgs {
  @Field({ nullable: true }) namespace?: string;
  @Field(() => Int, { nullable: true, defaultValue: 100 }) first?: number;
  @Field({ nullable: true }) after?: string;
}

/** GraphQL's String form of an IntOrString: "2" is the integer 2, "50%" a percentage. */
export function intOrPercentFromString(value: string | null | undefined): IntOrPercent | null | undefined {
  if (value === null || value === undefined) return value;
  return /^-?[0-9]+$/.test(value) ? Number(value) : value;
}

export function toBudgetModel(budget: StoredBudget, status: DisruptionBudgetStatus | undefined): DisruptionBudgetModel {
  const selector = budget.spec.selector;
  return {
    namespace: budget.namespace,
    name: budget.name,
    uid: budget.uid,
    labels: toEntries(budget.labels),
    minAvailable: budget.spec.minAvailable == null ? null : String(budget.spec.minAvailable),
    maxUnavailable: budget.spec.maxUnavailable == null ? null : String(budget.spec.maxUnavailable),
    selector:
      selector === null
        ? null
        : {
            matchLabels: toEntries(selector.matchLabels),
            matchExpressions: (selector.matchExpressions ?? []).map((e) => ({ ...e, values: e.values ?? [] })),
          },
    unhealthyPodEvictionPolicy: budget.spec.unhealthyPodEvictionPolicy ?? null,
    status: status ?? { expectedPods: 0, currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0 },
    generation: budget.generation,
    resourceVersion: budget.resourceVersion,
    createdAt: budget.createdAt,
  };
}
