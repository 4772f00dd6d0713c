import type { ApolloServerPlugin } from '@apollo/server';
import {
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  Kind,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';

/**
 * Rejects a query nested deeper than `maxDepth` fields (introspection included; its deepest is ~13, so the check skips
 * `__schema`).
 */
export function depthLimit(maxDepth: number): ValidationRule {
  return (context: ValidationContext) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions)
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    const depthOf = (node: ASTNode, depth: number, seen: Set<string>): number => {
      if (!('selectionSet' in node) || !node.selectionSet) return depth;
      let max = depth;
      for (const s of node.selectionSet.selections) {
        if (s.kind === Kind.FIELD) {
          if (s.name.value.startsWith('__')) continue;
          max = Math.max(max, depthOf(s, depth + 1, seen));
        } else if (s.kind === Kind.INLINE_FRAGMENT) {
          max = Math.max(max, depthOf(s, depth, seen));
        } else if (s.kind === Kind.FRAGMENT_SPREAD && !seen.has(s.name.value)) {
          const f = fragments.get(s.name.value);
          if (f) max = Math.max(max, depthOf(f, depth, new Set([...seen, s.name.value])));
        }
      }
      return max;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node, 0, new Set());
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`query depth ${depth} exceeds the limit of ${maxDepth}`, {
              nodes: [node],
              extensions: { code: 'QUERY_TOO_DEEP' },
            }),
          );
        }
      },
    };
  };
}

/** Rejects a query whose estimated cost exceeds `maxComplexity` (lists count their `first`/`limit`). */
export function complexityLimit(maxComplexity: number): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema }) {
          let error: GraphQLError | undefined;
          try {
            error = complexityError(
              { schema, document, operationName: request.operationName, variableValues: request.variables },
              maxComplexity,
            );
          } catch {
            // Variables that do not fit their types: execution refuses them (BAD_USER_INPUT, 400) before
            // any resolver runs, so there is no cost to bound. Thrown from here they would be a 500.
            return;
          }
          if (error) throw error;
        },
      };
    },
  };
}

/** The complexity check on its own, for transports Apollo does not serve (graphql-ws). */
export function complexityError(
  args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    operationName?: string | null;
    variableValues?: Record<string, unknown> | null;
  },
  maxComplexity: number,
): GraphQLError | undefined {
  // graphql-query-complexity coerces the variables itself, without an error limit: a list of 20,000
  // wrong items takes seconds. graphql-js stops at the first error; bad variables are refused by
  // execution anyway (BAD_USER_INPUT) before any resolver runs.
  const operation = getOperationAST(args.document, args.operationName ?? undefined);
  if (!operation) return undefined;
  const coerced = getVariableValues(args.schema, operation.variableDefinitions ?? [], args.variableValues ?? {}, {
    maxErrors: 1,
  });
  if (coerced.errors) throw coerced.errors[0];
  const complexity = getComplexity({
    schema: args.schema,
    operationName: args.operationName ?? undefined,
    query: args.document,
    variables: args.variableValues ?? {},
    estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
  });
  if (complexity <= maxComplexity) return undefined;
  return new GraphQLError(`query complexity ${complexity} exceeds the limit of ${maxComplexity}`, {
    extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400 } },
  });
}
