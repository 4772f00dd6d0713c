import { ArgsType, Field, GraphQLISODateTime, Int } from '@nestjs/graphql';
import { PodSpecInput } from '../../kernel/graphql/models/pod-spec.input';
import { readsArguments } from '../../kernel/graphql/query-limits';
import { TaintInput, TolerationInput } from '../../kernel/graphql/models/taint.model';
import { podSpecBody, taintBody, tolerationBody } from '../../kernel/graphql/models/to-rest-body';
import { DEFAULT_FEASIBLE_LIMIT, MAX_FEASIBLE_LIMIT } from '../decision-bodies';
import { MAX_TAINT_IMPACT_LIMIT } from '../taint-impact-paging';
import { PodRefModel } from './pod-ref.model';

/** GraphQL arguments of the decision queries, and their REST body shapes (one parser, one set of validators). */
@ArgsType()
export class FeasibleNodesArgs {
  @Field(() => PodSpecInput, {
    nullable: true,
    description: 'An inline pod, evaluated as if it were created (admission defaults applied)',
  })
  pod?: PodSpecInput | null;
  @Field(() => PodRefModel, { nullable: true, description: 'A stored pod instead of an inline one' })
  podRef?: PodRefModel | null;
  @Field(() => [String], { nullable: true, description: 'Only these nodes (unknown names: NOT_FOUND)' }) nodeNames?:
    string[] | null;
  @Field(() => String, { nullable: true, description: 'Only the nodes this Kubernetes label selector picks' })
  labelSelector?: string | null;
  @Field(() => Int, {
    nullable: true,
    description: `Caps \`nodes\` (default ${DEFAULT_FEASIBLE_LIMIT}, max ${MAX_FEASIBLE_LIMIT}), never the counts`,
  })
  limit?: number | null;
}

@ArgsType()
export class TaintImpactArgs {
  @Field(() => [String], {
    description: 'kubectl taint syntax: `key=value:Effect` adds, `key:Effect-` / `key-` removes',
  })
  taints!: string[];
  @Field(() => [String], { nullable: true }) nodes?: string[] | null;
  @Field(() => String, { nullable: true }) labelSelector?: string | null;
  @Field(() => Boolean, { nullable: true }) all?: boolean | null;
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'Evaluate at this instant (default now)' })
  at?: Date | null;
}

/** The lists, paged: `limit` items (evictions, then tolerating pods), resumed with the previous page's `continue`. */
@ArgsType()
export class TaintImpactPageArgs extends TaintImpactArgs {
  @Field(() => Int, {
    nullable: true,
    description: `Page the lists: at most this many evictions + tolerating pods (1..${MAX_TAINT_IMPACT_LIMIT})`,
  })
  limit?: number | null;
  @Field(() => String, {
    nullable: true,
    description: 'The `continue` of the previous page (same arguments and limit)',
  })
  continue?: string | null;
  @Field(() => Boolean, {
    nullable: true,
    description: 'Also place each evicted pod on the nodes as they would be (placement, workloads, stranded)',
  })
  replacement?: boolean | null;
}

@ArgsType()
export class TolerationMatchArgs {
  @Field(() => [TaintInput]) taints!: TaintInput[];
  @Field(() => [TolerationInput]) tolerations!: TolerationInput[];
}

const present = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

export function feasibleNodesBody(args: FeasibleNodesArgs): Record<string, unknown> {
  return {
    ...(present(args.pod) ? { pod: podSpecBody(args.pod) } : {}),
    ...(present(args.podRef) ? { podRef: { namespace: args.podRef.namespace, name: args.podRef.name } } : {}),
    ...(present(args.nodeNames) ? { nodeNames: args.nodeNames } : {}),
    ...(present(args.labelSelector) ? { labelSelector: args.labelSelector } : {}),
    ...(present(args.limit) ? { limit: args.limit } : {}),
  };
}

export function taintImpactBody(
  args: TaintImpactArgs & Partial<Pick<TaintImpactPageArgs, 'limit' | 'continue' | 'replacement'>>,
): Record<string, unknown> {
  return {
    ...(present(args.replacement) ? { replacement: args.replacement } : {}),
    ...(present(args.limit) ? { limit: args.limit } : {}),
    ...(present(args.continue) ? { continue: args.continue } : {}),
    taints: args.taints,
    ...(present(args.nodes) ? { nodes: args.nodes } : {}),
    ...(present(args.labelSelector) ? { labelSelector: args.labelSelector } : {}),
    ...(present(args.all) ? { all: args.all } : {}),
    // An unparseable DateTime arrives as an Invalid Date: let the body parser answer it as a 400.
    ...(present(args.at) ? { at: Number.isNaN(args.at.getTime()) ? 'invalid date-time' : args.at.toISOString() } : {}),
  };
}

export function tolerationMatchBody(args: TolerationMatchArgs): Record<string, unknown> {
  return { taints: args.taints.map(taintBody), tolerations: args.tolerations.map(tolerationBody) };
}

/** Query cost: the per-node cost times the nodes `limit` lets through, in tens (limit 10 costs one node's worth). */
export const feasibleNodesComplexity = readsArguments(feasibleNodesCost, 'limit');
function feasibleNodesCost({
  args,
  childComplexity,
}: {
  args: { limit?: number | null };
  childComplexity: number;
}): number {
  const limit = Math.min(Math.max(args.limit ?? DEFAULT_FEASIBLE_LIMIT, 0), MAX_FEASIBLE_LIMIT);
  return 1 + childComplexity * Math.max(1, Math.ceil(limit / 10));
}

/** Query cost: one match per given taint. */
export const tolerationMatchComplexity = readsArguments(tolerationMatchCost, 'taints');
function tolerationMatchCost({
  args,
  childComplexity,
}: {
  args: { taints?: unknown[] };
  childComplexity: number;
}): number {
  return 1 + childComplexity * Math.max(1, args.taints?.length ?? 1);
}
