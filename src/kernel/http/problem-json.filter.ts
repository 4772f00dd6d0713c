import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { problemFor } from '../errors/problem-details';
import { httpErrorToAppError } from './http-error-to-app-error';
import { isKubeApiPath, kubeStatusFor } from './kube-status';

/** The one REST error mapper: every failure leaves as application/problem+json (API.md "Errors"). */
@Catch()
export class ProblemJsonFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception; // GraphQL maps its own errors.
    const http = host.switchToHttp();
    sendProblem(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), exception, this.logger);
  }
}

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  exception: unknown,
  logger: Pick<Logger, 'error'>,
): void {
  const error = httpErrorToAppError(exception);
  if (error.kind === 'Internal') {
    logger.error({ msg: 'unhandled error', requestId: request.id, err: describe(exception) });
  }
  if (error.kind === 'RateLimited' && typeof error.extra.retryAfterSeconds === 'number') {
    void reply.header('retry-after', String(error.extra.retryAfterSeconds));
  }
  if (isKubeApiPath(request.url)) {
    const status = kubeStatusFor(error);
    void reply.status(status.code).header('content-type', 'application/json').send(JSON.stringify(status));
    return;
  }
  const body = problemFor(error, String(request.id));
  void reply
    .status(body.status)
    .header('content-type', 'application/problem+json; charset=utf-8')
    .send(JSON.stringify(body));
}

function describe(e: unknown): unknown {
  return e instanceof Error ? { name: e.name, message: e.message, stack: e.stack } : e;
}
