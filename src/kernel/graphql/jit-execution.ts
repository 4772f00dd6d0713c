import type { ApolloServerPlugin, GraphQLRequestContext, GraphQLRequestListener } from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import { getVariableValues, type ExecutionResult } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { Metrics } from '../observability/metrics';
import { JIT_COERCION_MAX_VALUES, jitMayJudge, variableTypesOf, type VariableTypes } from './jit-judged-variables';

/** Compiled documents kept (by document hash and operation name): the explorer's and platforms' queries. */
const MAX_COMPILED = 500;

/** A document as graphql-jit compiled it, and its operation's variable types (for jitMayJudge). */
interface Compiled {
  query: CompiledQuery;
  variableTypes: VariableTypes;
}

/**
 * Executes queries with graphql-jit instead of graphql-js (GRAPHQL_JIT, on by default): the query is
 * compiled once per document into JavaScript that completes each field of the selection directly,
 * instead of graphql-js walking the document and the schema for every field of every answer. The
 * resolvers are the same functions, called with the same context, on every request: nothing is answered
 * from a cache.
 *
 * Only a query whose execution comes back without an error is answered here. Any error (a resolver's
 * 4xx, a variable that does not coerce) and every mutation and subscription go through graphql-js as
 * before, so Apollo's one error path (formatError, didEncounterErrors) stays the only one: a query has
 * no side effects, so executing it a second time changes nothing but the time it takes.
 */
@Plugin()
export class JitExecutionPlugin implements ApolloServerPlugin {
  private readonly compiled = new Map<string, Compiled | null>();

  constructor(private readonly metrics: Metrics) {}

  async requestDidStart(): Promise<GraphQLRequestListener<object>> {
    return {
      responseForOperation: async (context) => {
        const answered = await this.execute(context);
        this.metrics.graphqlExecutions.inc({ executor: answered ? 'graphql-jit' : 'graphql-js' });
        return answered;
      },
    };
  }

  private async execute(context: GraphQLRequestContext<object>) {
    if (context.operation?.operation !== 'query' || context.document === undefined) return null;
    const compiled = this.compiledFor(context);
    if (compiled === null) return null;
    const { query, variableTypes } = compiled;
    // Variables graphql-jit refuses end its execution in an error, so they go to graphql-js, which refuses
    // them with its own error. Others are checked by graphql-js first (jitMayJudge says why), which stops at
    // the first error; for the rest the check (~11 % of a feasibleNodes query's CPU) is skipped.
    const variables = context.request.variables ?? {};
    if (!jitMayJudge(variables, variableTypes, JIT_COERCION_MAX_VALUES)) {
      const { variableDefinitions = [] } = context.operation;
      if (getVariableValues(context.schema, variableDefinitions, variables, { maxErrors: 1 }).errors) return null;
    }
    const result = (await query.query(undefined, context.contextValue, variables)) as ExecutionResult | undefined;
    if (result === undefined || result.errors?.length) return null;
    return {
      http: context.response.http,
      body: { kind: 'single' as const, singleResult: { data: result.data as Record<string, unknown> } },
    };
  }

  private compiledFor(context: GraphQLRequestContext<object>): Compiled | null {
    const key = `${context.queryHash}\u0000${context.operationName ?? ''}`;
    let compiled = this.compiled.get(key);
    if (compiled === undefined) {
      const result = compileQuery(context.schema, context.document!, context.operationName ?? undefined);
      // a document graphql-jit cannot compile is left to graphql-js, and not compiled again
      compiled = isCompiledQuery(result)
        ? {
            query: result,
            variableTypes: variableTypesOf(context.schema, context.operation!.variableDefinitions ?? []),
          }
        : null;
      if (this.compiled.size >= MAX_COMPILED) this.compiled.delete(this.compiled.keys().next().value!);
      this.compiled.set(key, compiled);
    }
    return compiled;
  }
}
