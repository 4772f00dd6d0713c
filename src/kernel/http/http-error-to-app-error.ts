import { HttpException } from '@nestjs/common';
import { AppError, type ErrorKind } from '../errors/app-error';
import { toAppError } from '../errors/to-app-error';

const STATUS_KINDS: Record<number, ErrorKind> = {
  400: 'BadRequest',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'BadRequest',
  422: 'Invalid',
  429: 'RateLimited',
  503: 'Unavailable',
};

/**
 * REST-only failures (Nest's HttpException for unknown routes, Fastify's body-parser and body-size
 * errors) become AppErrors too, so the problem+json mapping has one input type.
 */
export function httpErrorToAppError(error: unknown): AppError {
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const kind = STATUS_KINDS[status] ?? (status >= 500 ? 'Internal' : 'BadRequest');
    const response = error.getResponse();
    const message =
      typeof response === 'object' && response && 'message' in response
        ? [response.message].flat().join('; ')
        : error.message;
    if (status === 400 && /JSON/.test(message) && !message.startsWith('malformed'))
      return new AppError('BadRequest', `malformed JSON body: ${message}`);
    return new AppError(
      kind,
      status === 404 && /^Cannot /.test(message) ? `no route for ${message.replace(/^Cannot /, '')}` : message,
    );
  }
  const fastifyError = error as { statusCode?: number; code?: string; message?: string };
  if (
    typeof fastifyError?.statusCode === 'number' &&
    typeof fastifyError.code === 'string' &&
    fastifyError.code.startsWith('FST_') &&
    !/JSON/.test(fastifyError.code)
  ) {
    const status = fastifyError.statusCode;
    const kind = STATUS_KINDS[status] ?? (status >= 500 ? 'Internal' : 'BadRequest');
    return new AppError(kind, describeFastifyError(fastifyError.code, fastifyError.message ?? ''));
  }
  if (error instanceof SyntaxError || (fastifyError?.statusCode === 400 && /JSON/.test(fastifyError.message ?? ''))) {
    return new AppError('BadRequest', `malformed JSON body: ${fastifyError?.message ?? String(error)}`);
  }
  return toAppError(error);
}

function describeFastifyError(code: string, message: string): string {
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `unsupported content type: ${message.replace(/^Unsupported Media Type:\s*/, '')}`;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'malformed JSON body: the body is empty';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return `malformed JSON body: ${message}`;
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return 'a path segment is too long (at most 512 characters)';
    case 'FST_ERR_BAD_URL':
      return 'malformed URL: not valid percent-encoding';
    default:
      return message;
  }
}
