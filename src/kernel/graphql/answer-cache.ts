import type { ApolloServerPlugin, GraphQLRequestContext, GraphQLRequestListener } from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import { Kind, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { LRUCache } from 'lru-cache';
import { SecondSighting } from '../cache/second-sighting';
import type { RequestWithPrincipal } from '../auth/request-principal';
import { Metrics } from '../observability/metrics';
import { SnapshotService } from '../snapshot/snapshot.service';

/**
 * The field extension that lets a query's answer be cached (`@Extensions(ANSWERED_FROM_SNAPSHOT)` on the
 * resolver): its answer depends only on its arguments, the caller's role and the inventory, never on the time.
 * Every change to the inventory bumps the snapshot's `changeCount`, a finished pod's too (feasibleNodes reads a
 * podRef to one from the database).
 */
export const ANSWERED_FROM_SNAPSHOT = { answeredFromSnapshot: true } as const;

/** Answers kept, and their JSON text's length over all of them (~16 MB at most). */
const MAX_ANSWERS = 256;
const MAX_ANSWER_CHARS = 16_000_000;
/** Variables longer than this (as JSON) are not remembered, as REST does not remember longer bodies. */
const MAX_REMEMBERED_VARIABLES = 16_384;

interface CachedAnswer {
  data: Record<string, unknown>;
  /** What Apollo writes for `{ data }`: the same text, serialised once (`answerText`). */
  text: string;
}

/** The cached answers' text by their data object: Apollo's stringifyResult looks it up (`answerText`). */
const textOfData = new WeakMap<object, string>();

/**
 * Apollo's result serialiser (its own, `JSON.stringify(value) + '\n'`), except that an answer this cache
 * gave is sent as the text it kept: the same bytes, not serialised again.
 */
export function answerText(value: { data?: unknown; errors?: unknown; extensions?: unknown }): string {
  if (value.errors === undefined && value.extensions === undefined && value.data !== null) {
    const text = typeof value.data === 'object' ? textOfData.get(value.data as object) : undefined;
    if (text !== undefined) return text;
  }
  return `${JSON.stringify(value)}\n`;
}

/**
 * Repeated GraphQL questions answered as REST answers repeated ones (the decision cache): a query whose
 * every root field is marked ANSWERED_FROM_SNAPSHOT, asked again with the same document, operation,
 * variables (as sent) and caller role while the snapshot has not changed (`changeCount`), gets the data of
 * its last execution. The key is what the answer depends on, so it is the same answer; any change to the
 * inventory makes every older entry unreachable. Parsing, validation and the query limits (depth,
 * complexity) still run for every request; the role check is the one the first execution passed, as the
 * role is in the key.
 *
 * An answer is remembered from the second time its question is seen (second-sighting.ts: a stream of
 * distinct questions keeps nothing), and only an answer without errors.
 */
@Plugin()
export class AnswerCachePlugin implements ApolloServerPlugin {
  private readonly answers = new LRUCache<string, CachedAnswer>({
    max: MAX_ANSWERS,
    maxSize: MAX_ANSWER_CHARS,
    sizeCalculation: (answer) => answer.text.length,
  });
  private readonly asked = new SecondSighting();
  /** Per parsed document (Apollo keeps one per query text) and operation: whether its answers may be cached. */
  private readonly cacheable = new WeakMap<DocumentNode, Map<string, boolean>>();

  constructor(
    private readonly snapshots: SnapshotService,
    private readonly metrics: Metrics,
  ) {}

  async requestDidStart(): Promise<GraphQLRequestListener<object>> {
    let key: string | undefined;
    let answered = false;
    return {
      responseForOperation: async (context) => {
        key = this.keyOf(context);
        const cached = key === undefined ? undefined : this.answers.get(key);
        if (cached === undefined) return null;
        answered = true;
        this.metrics.graphqlExecutions.inc({ executor: 'answer-cache' });
        return { http: context.response.http, body: { kind: 'single', singleResult: { data: cached.data } } };
      },
      willSendResponse: async (context) => {
        if (key === undefined || answered || context.response.body.kind !== 'single') return;
        const { data, errors, extensions } = context.response.body.singleResult;
        if (errors !== undefined || extensions !== undefined || data === undefined || data === null) return;
        if (!this.asked.seenBefore(key)) return;
        const text = `${JSON.stringify({ data })}\n`;
        textOfData.set(data, text);
        this.answers.set(key, { data, text });
      },
    };
  }

  /** The cache key of a cacheable query from a caller with a role; undefined for anything else. */
  private keyOf(context: GraphQLRequestContext<object>): string | undefined {
    const { operation, document, queryHash } = context;
    if (operation?.operation !== 'query' || document === undefined || queryHash === undefined) return undefined;
    if (!this.isCacheable(context.schema, document, operation)) return undefined;
    const role = (context.contextValue as { req?: RequestWithPrincipal }).req?.principal?.role;
    if (role === undefined) return undefined;
    const variables = JSON.stringify(context.request.variables ?? {});
    if (variables.length > MAX_REMEMBERED_VARIABLES) return undefined;
    const operationName = context.operationName ?? '';
    return `${queryHash}\u0000${operationName}\u0000${variables}\u0000${role}\u0000${this.snapshots.snapshot.changeCount}`;
  }

  private isCacheable(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): boolean {
    let byOperation = this.cacheable.get(document);
    if (byOperation === undefined) this.cacheable.set(document, (byOperation = new Map()));
    const name = operation.name?.value ?? '';
    let cacheable = byOperation.get(name);
    if (cacheable === undefined) {
      const fields = schema.getQueryType()?.getFields() ?? {};
      // plain root fields only (a fragment at the root is possible but not worth following), each marked
      cacheable = operation.selectionSet.selections.every(
        (s) =>
          s.kind === Kind.FIELD &&
          (s.name.value === '__typename' || fields[s.name.value]?.extensions?.answeredFromSnapshot === true),
      );
      byOperation.set(name, cacheable);
    }
    return cacheable;
  }
}
