import {
  type GraphQLInputType,
  type GraphQLSchema,
  isInputObjectType,
  isListType,
  isNonNullType,
  typeFromAST,
  type VariableDefinitionNode,
} from 'graphql';

/**
 * Variables holding at most this many values (objects, lists and leaves) may be judged by graphql-jit's
 * compiled coercion alone (jitMayJudge's `limit`). Its errors cost ~7 µs each and are not limited, so this
 * bounds a wrong request's cost at ~2 ms (a 1 MB list of wrong items took 4 s); the bench mix's pods hold 5-54.
 */
export const JIT_COERCION_MAX_VALUES = 256;

/** An operation's variables and their types, resolved once per compiled document. */
export type VariableTypes = ReadonlyArray<readonly [name: string, type: GraphQLInputType]>;

export function variableTypesOf(schema: GraphQLSchema, definitions: readonly VariableDefinitionNode[]): VariableTypes {
  const types: Array<readonly [string, GraphQLInputType]> = [];
  for (const definition of definitions) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    // an unknown type never reaches here (validation refuses it); if it did, the check below has nothing to say
    if (type !== undefined) types.push([definition.variable.name.value, type]);
  }
  return types;
}

/**
 * Whether graphql-jit's compiled coercion alone may judge these variables (src/kernel/graphql/jit-execution.ts),
 * instead of graphql-js checking them first:
 * - at most `limit` values, counting every object, list and leaf: graphql-jit has no error limit and
 *   makes one error per wrong item (~7 µs each), so a large wrong list must meet graphql-js, which stops at
 *   the first;
 * - no empty list where an input object is expected: graphql-jit takes that `[]` as `{}`, which graphql-js
 *   refuses. It is the one difference test/inventory/graphql-jit.e2e-spec.ts found between the two over
 *   the live schema; a non-empty list there is refused by both (its indexes are unknown fields).
 * @example jitMayJudge({ pod: { tolerations: [] } }, types, 256) === true // a list where a list is expected
 * @example jitMayJudge({ pod: [] }, types, 256) === false // PodInput is an input object
 */
export function jitMayJudge(variables: Record<string, unknown>, types: VariableTypes, limit: number): boolean {
  if (!valuesWithin(variables, limit)) return false;
  for (const [name, type] of types) if (emptyListForInputObject(variables[name], type)) return false;
  return true;
}

/**
 * Whether a JSON value holds at most `limit` values, counting every object, list and leaf (the value itself
 * included). It walks with its own stack (a value nested thousands of levels deep is no stack overflow) and
 * stops as soon as the count passes the limit, so its cost is bounded by `limit`, not by what was sent.
 * @example valuesWithin({ a: [1, 2] }, 4) === true; valuesWithin({ a: [1, 2] }, 3) === false
 */
export function valuesWithin(value: unknown, limit: number): boolean {
  if (limit < 1) return false;
  const stack: unknown[] = [value];
  let found = 1; // every value is counted when it is found, before it is walked
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === null || typeof next !== 'object') continue;
    if (Array.isArray(next)) {
      found += next.length;
      if (found > limit) return false;
      for (const item of next) stack.push(item);
    } else {
      for (const key in next) {
        if (!Object.prototype.hasOwnProperty.call(next, key)) continue;
        if (++found > limit) return false;
        stack.push((next as Record<string, unknown>)[key]);
      }
    }
  }
  return true;
}

/**
 * Whether `value`, read as `type`, has an empty list where an input object is expected. Recursive: call it
 * only on values valuesWithin has bounded. Values of the wrong shape elsewhere are left to the coercions,
 * which refuse them alike.
 */
export function emptyListForInputObject(value: unknown, type: GraphQLInputType): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (isNonNullType(type)) return emptyListForInputObject(value, type.ofType);
  if (isListType(type)) {
    // a single value is coerced into a list of one
    if (!Array.isArray(value)) return emptyListForInputObject(value, type.ofType);
    for (const item of value) if (emptyListForInputObject(item, type.ofType)) return true;
    return false;
  }
  if (!isInputObjectType(type)) return false;
  if (Array.isArray(value)) return value.length === 0;
  const fields = type.getFields();
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key) || !Object.prototype.hasOwnProperty.call(fields, key))
      continue;
    if (emptyListForInputObject((value as Record<string, unknown>)[key], fields[key].type)) return true;
  }
  return false;
}
