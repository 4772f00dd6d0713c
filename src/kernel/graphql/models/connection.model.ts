import type { Type } from '@nestjs/common';
import { Field, ObjectType } from '@nestjs/graphql';
import type { Page } from '../../http/paging';
import { readsArguments } from '../query-limits';
import { NodeModel } from './node.model';
import { PodModel } from './pod.model';

/** Every GraphQL list has one shape: Relay connections (`edges { cursor node }`, `pageInfo`). */
@ObjectType('PageInfo')
export class PageInfo {
  @Field() hasNextPage!: boolean;
  @Field(() => String, { nullable: true, description: 'pass as `after` for the next page' }) endCursor!: string | null;
}

export interface Connection<M> {
  edges: Array<{ cursor: string; node: M }>;
  pageInfo: PageInfo;
}

/** The `<Name>Edge` and `<Name>Connection` object types for a model. */
export function connectionType<M>(name: string, model: Type<M>, description: string): Type<Connection<M>> {
  @ObjectType(`${name}Edge`)
  class Edge {
    @Field() cursor!: string;
    @Field(() => model) node!: M;
  }
  @ObjectType(`${name}Connection`, { description })
  class ConnectionOfModel {
    @Field(() => [Edge]) edges!: Edge[];
    @Field(() => PageInfo) pageInfo!: PageInfo;
  }
  return ConnectionOfModel;
}

export const NodeConnection = connectionType('Node', NodeModel, 'Nodes by name, from the in-memory snapshot.');
export type NodeConnection = Connection<NodeModel>;
export const PodConnection = connectionType('Pod', PodModel, 'Pods by namespace, then name.');
export type PodConnection = Connection<PodModel>;

/** Query cost of a connection: its selection once per item asked for (`first`, default 100). */
export const chargePerItem = readsArguments(
  ({ args, childComplexity }: { args: { first?: number | null }; childComplexity: number }) =>
    childComplexity * (args.first ?? 100),
  'first',
);

/** A REST page (`items` + `continue`) as a connection; every edge's cursor is the `continue` token after it. */
export function toConnection<T, M>(
  page: Page<T>,
  cursorOf: (item: T) => string,
  toModel: (item: T) => M,
): Connection<M> {
  const edges = page.items.map((item) => ({ cursor: cursorOf(item), node: toModel(item) }));
  const endCursor = edges.length ? edges[edges.length - 1].cursor : null;
  return { edges, pageInfo: { hasNextPage: page.continue !== undefined, endCursor } };
}
