import { Field, ObjectType } from '@nestjs/graphql';
import { NodeModel } from './node.model';
import { PodModel } from './pod.model';

@ObjectType('PageInfo')
export class PageInfo {
  @Field() hasNextPage!: boolean;
  @Field(() => String, { nullable: true, description: 'pass as `after` for the next page' }) endCursor!: string | null;
}

@ObjectType('NodeEdge')
export class NodeEdge {
  @Field() cursor!: string;
  @Field(() => NodeModel) node!: NodeModel;
}

@ObjectType('NodeConnection', { description: 'Nodes by name, from the in-memory snapshot.' })
export class NodeConnection {
  @Field(() => [NodeEdge]) edges!: NodeEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

@ObjectType('PodEdge')
export class PodEdge {
  @Field() cursor!: string;
  @Field(() => PodModel) node!: PodModel;
}

@ObjectType('PodConnection', { description: 'Pods by namespace, then name.' })
export class PodConnection {
  @Field(() => [PodEdge]) edges!: PodEdge[];
  @Field(() => PageInfo) pageInfo!: PageInfo;
}

/** A REST page (`items` + `continue`) as a connection; every edge's cursor is the `continue` token after it. */
export function toConnection<T, M>(page: { items: T[]; continue?: string }, cursorOf: (item: T) => string, toModel: (item: T) => M): { edges: Array<{ cursor: string; node: M }>; pageInfo: PageInfo } {
  const edges = page.items.map((item) => ({ cursor: cursorOf(item), node: toModel(item) }));
  return { edges, pageInfo: { hasNextPage: page.continue !== undefined, endCursor: edges.length ? edges[edges.length - 1].cursor : null } };
}
