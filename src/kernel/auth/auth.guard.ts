import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import { AppError } from '../errors/app-error';
import { ApiKeys } from './api-keys';
import { authenticate } from './authenticate.hook';
import { IS_PUBLIC, REQUIRED_ROLE } from './public.decorator';
import type { RequestWithPrincipal } from './request-principal';
import { roleAtLeast, type Principal, type Role } from './roles';

/**
 * Every REST route and GraphQL field checks the caller's role (issue 7). 401 without/with a wrong key, 403 when too
 * low.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(ApiKeys) private readonly keys: ApiKeys,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = requestOf(context);
    // Subscriptions carry the principal found on connect (graphqlWsAuthentication) as req.principal.
    if (!request) throw new AppError('Unauthenticated', 'no request to authenticate');
    const principal = this.authenticate(request);
    request.principal = principal;
    const required = this.reflector.getAllAndOverride<Role>(REQUIRED_ROLE, targets) ?? 'viewer';
    if (!roleAtLeast(principal.role, required)) {
      throw new AppError('Forbidden', `key "${principal.name}" has role ${principal.role}; this needs ${required}`);
    }
    return true;
  }

  /** Normally done already by the onRequest hook (authenticate.hook.ts) or on WebSocket connect. */
  authenticate(request: RequestWithPrincipal): Principal {
    return request.principal ?? authenticate(this.keys, request.headers?.authorization);
  }
}

export function requestOf(context: ExecutionContext): RequestWithPrincipal | undefined {
  if (context.getType<string>() === 'graphql') {
    return GqlExecutionContext.create(context).getContext<{ req?: RequestWithPrincipal }>().req;
  }
  return context.switchToHttp().getRequest<RequestWithPrincipal>();
}
