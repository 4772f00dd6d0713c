import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestOf } from './auth.guard';
import type { Actor as ActorOfChange } from '../persistence/change-set';
import { OPEN_PRINCIPAL, type Principal } from './roles';

/** The authenticated caller, for recording as the actor of a change. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  return requestOf(context)?.principal ?? OPEN_PRINCIPAL;
});

/** Who makes a change, as the event log records it: the caller's name and the request id. */
export type Actor = ActorOfChange;
export const Actor = createParamDecorator((_: unknown, context: ExecutionContext): Actor => {
  const request = requestOf(context);
  const name = (request?.principal ?? OPEN_PRINCIPAL).name;
  return request?.id === undefined ? { name } : { name, requestId: String(request.id) };
});
