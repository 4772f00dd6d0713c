import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { requestOf } from './auth.guard';
import { OPEN_PRINCIPAL, type Principal } from './roles';

/** The authenticated caller, for recording as the actor of a change. */
export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  return requestOf(context)?.principal ?? OPEN_PRINCIPAL;
});

/** The request id (x-request-id or generated), for the event log. */
export const RequestId = createParamDecorator((_: unknown, context: ExecutionContext): string | undefined => {
  const id = requestOf(context)?.id;
  return id === undefined ? undefined : String(id);
});
