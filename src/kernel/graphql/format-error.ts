import type { GraphQLFormattedError } from 'graphql';
import { ERROR_KINDS } from '../errors/app-error';
import { toAppError } from '../errors/to-app-error';

const PASSTHROUGH = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'QUERY_TOO_DEEP',
  'QUERY_TOO_COMPLEX',
  'PERSISTED_QUERY_NOT_FOUND',
  'OPERATION_RESOLUTION_FAILURE',
  'BAD_REQUEST',
]);

/**
 * The one GraphQL error mapper: the same AppError kinds as REST, as `extensions.code`, with the
 * Kubernetes field errors in `extensions.errors` (API.md "Errors").
 */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  // Apollo reports every failed validation rule as GRAPHQL_VALIDATION_FAILED; keep the rule's own code
  // (QUERY_TOO_DEEP) when it has one, as over graphql-ws.
  const ruleCode = (error as { originalError?: { extensions?: { code?: unknown } } })?.originalError?.extensions?.code;
  const code =
    formatted.extensions?.code === 'GRAPHQL_VALIDATION_FAILED' &&
    typeof ruleCode === 'string' &&
    PASSTHROUGH.has(ruleCode)
      ? ruleCode
      : formatted.extensions?.code;
  if (typeof code === 'string' && PASSTHROUGH.has(code)) {
    return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code } };
  }
  // A GraphQLError that wraps nothing was raised by graphql-js itself while reading the request (e.g.
  // "Too many errors processing variables"), never by a resolver: the client's fault, not a 500.
  if (
    (error as { constructor?: { name?: string } })?.constructor?.name === 'GraphQLError' &&
    !(error as { originalError?: unknown }).originalError &&
    !formatted.path
  ) {
    return { message: formatted.message, locations: formatted.locations, extensions: { code: 'BAD_USER_INPUT' } };
  }
  const original = (error as { originalError?: unknown })?.originalError ?? error;
  const appError = toAppError(original);
  const extensions: Record<string, unknown> = {
    code: ERROR_KINDS[appError.kind].code,
    status: ERROR_KINDS[appError.kind].status,
  };
  if (appError.fieldErrors.length)
    extensions.errors = appError.fieldErrors.map((e) => ({ field: e.field, message: e.message }));
  for (const [k, v] of Object.entries(appError.extra)) extensions[k] = v;
  return { message: appError.message, locations: formatted.locations, path: formatted.path, extensions };
}
