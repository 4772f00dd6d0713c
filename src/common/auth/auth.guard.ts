import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error';
import { ApiKeys, bearerToken } from './api-keys';
import { IS_PUBLIC, REQUIRED_ROLE } from './public.decorator';
import { OPEN_PRINCIPAL, roleAtLeast, type Principal, type Role } from './roles';

export type RequestWithPrincipal = FastifyRequest & { principal?: Principal };

/** Every REST route and GraphQL field checks the caller's role (issue 7). 401 without/with a wrong key, 403 when too low. */
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
    if (!request) return true; // subscriptions authenticate on connect
    const principal = this.authenticate(request);
    request.principal = principal;
    const required = this.reflector.getAllAndOverride<Role>(REQUIRED_ROLE, targets) ?? 'viewer';
    if (!roleAtLeast(principal.role, required)) {
      throw new AppError('Forbidden', `key "${principal.name}" has role ${principal.role}; this needs ${required}`);
    }
    return true;
  }

  authenticate(request: RequestWithPrincipal): Principal {
    if (request.principal) return request.principal;
    if (this.keys.open) return OPEN_PRINCIPAL;
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new AppError('Unauthenticated', 'missing API key: send Authorization: Bearer <key>');
    const principal = this.keys.verify(token);
    if (!principal) throw new AppError('Unauthenticated', 'invalid API key');
    return principal;
  }
}

export function requestOf(context: ExecutionContext): RequestWithPrincipal | undefined {
  if (context.getType<string>() === 'graphql') {
    return GqlExecutionContext.create(context).getContext<{ req?: RequestWithPrincipal }>().req;
  }
  return context.switchToHttp().getRequest<RequestWithPrincipal>();
}
