import { execute, GraphQLError, subscribe, validate, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { ApiKeys } from '../auth/api-keys';
import { graphqlWsAuthentication } from '../auth/authenticate.hook';
import { formatGraphQLError } from './format-error';
import { complexityError, depthLimit } from './query-limits';

/**
 * graphql-ws (subscriptions, and queries or mutations sent over the socket) bypasses Apollo Server:
 * its validation rules, plugins and formatError. These options give the WebSocket transport the same
 * guarantees as HTTP: the API key on connect, the depth and complexity limits before anything runs,
 * and errors in the same `extensions.code` shape.
 */
export function graphqlWsOptions(keys: ApiKeys, limits: { maxDepth: number; maxComplexity: number }) {
  const refuse = (args: ExecutionArgs): readonly GraphQLError[] => {
    const tooDeep = validate(args.schema, args.document, [depthLimit(limits.maxDepth)]);
    if (tooDeep.length) return tooDeep;
    try {
      const tooComplex = complexityError(args, limits.maxComplexity);
      return tooComplex ? [tooComplex] : [];
    } catch {
      return []; // bad variables: execution reports them itself
    }
  };
  const format = (errors: readonly GraphQLError[]) => errors.map((e) => formatGraphQLError(e.toJSON(), e));
  const options = {
    ...graphqlWsAuthentication(keys),
    execute: (args: ExecutionArgs) => {
      const errors = refuse(args);
      return errors.length ? { errors } : execute(args);
    },
    subscribe: (args: ExecutionArgs) => {
      const errors = refuse(args);
      return errors.length ? { errors } : subscribe(args);
    },
    onNext: (_ctx: unknown, _id: string, _payload: unknown, _args: unknown, result: ExecutionResult) =>
      result.errors?.length ? { ...result, errors: format(result.errors) } : undefined,
    onError: (_ctx: unknown, _id: string, _payload: unknown, errors: readonly GraphQLError[]) => format(errors),
  };
  // Nest's type lists only some graphql-ws options; it passes every one to useServer.
  return options as unknown as Pick<typeof options, 'onConnect'>;
}
