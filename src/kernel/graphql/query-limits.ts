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
  TypeInfo,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
  visit,
  visitWithTypeInfo,
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

/**
 * Declares which of its field's arguments a complexity estimator reads (`({ args }) => ... args.limit`):
 * the complexity check's cache keys only on the variables given to those (costPlan). An estimator
 * without the declaration is taken to read every argument of its field.
 */
export function readsArguments<F extends (...args: never[]) => number>(estimator: F, ...names: string[]): F {
  return Object.assign(estimator, { costArguments: names });
}

/** The variables a document's complexity depends on, or undefined when it cannot be told. */
export function costPlan(schema: GraphQLSchema, document: DocumentNode): string[] | undefined {
  const typeInfo = new TypeInfo(schema);
  const names = new Set<string>();
  let known = true;
  const collect = (value: ValueNode) =>
    visit(value, {
      Variable(node) {
        names.add(node.name.value);
      },
    });
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const field = typeInfo.getFieldDef();
        if (!field) {
          known = false;
          return;
        }
        const estimator = field.extensions?.complexity as unknown;
        if (typeof estimator !== 'function') return; // a number, or the simple estimator: no arguments read
        const reads = (estimator as { costArguments?: string[] }).costArguments;
        for (const argument of node.arguments ?? [])
          if (reads === undefined || reads.includes(argument.name.value)) collect(argument.value);
      },
      // @include / @skip decide which fields count at all
      Directive(node) {
        for (const argument of node.arguments ?? []) collect(argument.value);
      },
    }),
  );
  return known ? [...names].sort() : undefined;
}

/** Per document (as Apollo's document store hands it back), its plan and the keys already found within the limit. */
interface CostMemo {
  plan: string[] | undefined;
  allowed: Set<string>;
}
const MAX_ALLOWED_KEYS = 256;

/**
 * Rejects a query whose estimated cost exceeds `maxComplexity` (lists count their `first`/`limit`).
 *
 * The estimate depends on the document, the operation and the values of the few variables the estimators
 * read (costPlan: the arguments they declare with readsArguments, and directives' arguments), not on the
 * rest: a feasibleNodes query with a new inline pod costs what the same query with another pod cost. So
 * an operation found within the limit is remembered by those values and not estimated again — the
 * estimate coerced the variables twice and walked the document with TypeInfo (~19 % of a feasibleNodes
 * query's CPU, bench/ANALYSIS.md). Only successes are remembered: a query over the limit, or whose
 * variables do not fit, takes the full path every time, with its error as before.
 */
export function complexityLimit(maxComplexity: number): ApolloServerPlugin {
  const memos = new WeakMap<DocumentNode, CostMemo>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema }) {
          let memo = memos.get(document);
          if (memo === undefined) {
            memo = { plan: costPlan(schema, document), allowed: new Set() };
            memos.set(document, memo);
          }
          const key = memo.plan && costKey(memo.plan, request.operationName, request.variables);
          if (key !== undefined && memo.allowed.has(key)) return;
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
          if (key !== undefined) {
            if (memo.allowed.size >= MAX_ALLOWED_KEYS) memo.allowed.clear();
            memo.allowed.add(key);
          }
        },
      };
    },
  };
}

/** The operation and the values of the plan's variables as text; undefined when they cannot be written. */
function costKey(
  plan: string[],
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): string | undefined {
  let key = operationName ?? '';
  try {
    for (const name of plan) {
      const given = variables != null && Object.prototype.hasOwnProperty.call(variables, name);
      key += given ? `\u0001${JSON.stringify(variables[name]) ?? 'undefined'}` : '\u0002';
    }
  } catch {
    return undefined;
  }
  return key;
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
