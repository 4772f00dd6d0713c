import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error';
import { ApiKeys, bearerToken } from './api-keys';
import type { RequestWithPrincipal } from './request-principal';
import { OPEN_PRINCIPAL, type Principal } from './roles';

/** API.md: "With keys configured, every route but /healthz and /readyz needs one." */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** The caller of a request: the open principal without keys; 401 (AppError) without a key or with a wrong one. */
export function authenticate(keys: ApiKeys, authorization: string | string[] | undefined): Principal {
  if (keys.open) return OPEN_PRINCIPAL;
  const token = bearerToken(authorization);
  if (!token) throw new AppError('Unauthenticated', 'missing API key: send Authorization: Bearer <key>');
  const principal = keys.verify(token);
  if (!principal) throw new AppError('Unauthenticated', 'invalid API key');
  return principal;
}

/**
 * Authenticates every HTTP request before routing reaches a handler: Nest routes, GraphQL over HTTP
 * (introspection included), the OpenAPI document and UI, the explorer and unknown paths alike — a
 * route outside Nest cannot forget the check. The principal is left on the request for the rate
 * limiter, the AuthGuard's role check (`@RequiresRole`) and `@CurrentPrincipal`. CORS preflights
 * (OPTIONS) carry no credentials by design and are answered by @fastify/cors, registered before.
 * GraphQL subscriptions (WebSocket upgrades bypass Fastify) authenticate in `graphqlWsAuthentication`.
 */
export function installAuthentication(fastify: FastifyInstance, keys: ApiKeys): void {
  fastify.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.method === 'OPTIONS' || PUBLIC_PATHS.has(pathOf(request.url))) return;
    const req = request as RequestWithPrincipal;
    // the rate limiter may have verified the key already
    req.principal ??= authenticate(keys, request.headers.authorization);
  });
}

export function pathOf(url: string): string {
  const path = url.split('?')[0];
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The graphql-ws connection context; Nest's default GraphQL context makes it the operation's `req`. */
interface WsContext {
  connectionParams?: Readonly<Record<string, unknown>>;
  extra: unknown;
}

/**
 * graphql-ws options: the key comes in `connectionParams.authorization` ("Bearer <key>") of the
 * connection_init message; a missing or wrong key closes the socket with 4401 and the reason. The
 * principal is kept on the connection context, which Nest hands to resolvers as `req`, so the
 * AuthGuard checks roles on subscription resolvers exactly as on queries.
 */
export function graphqlWsAuthentication(keys: ApiKeys) {
  return {
    onConnect: (ctx: WsContext): boolean => {
      const raw = ctx.connectionParams?.authorization ?? ctx.connectionParams?.Authorization;
      try {
        (ctx as WsContext & { principal?: Principal }).principal = authenticate(
          keys,
          typeof raw === 'string' ? raw : undefined,
        );
        return true;
      } catch (e) {
        (ctx.extra as { socket?: { close(code: number, reason: string): void } }).socket?.close(
          4401,
          e instanceof Error ? e.message : 'Unauthorized',
        );
        return false;
      }
    },
  };
}
