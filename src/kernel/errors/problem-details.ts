import { STATUS_CODES } from 'node:http';
import type { AppError } from './app-error';
import { ERROR_KINDS } from './app-error';

/** RFC 9457 problem details, the shape of every REST error (API.md "Errors"). */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: Array<{ field: string; message: string }>;
  [extension: string]: unknown;
}

export function problemFor(error: AppError, requestId?: string): ProblemDetails {
  const status = ERROR_KINDS[error.kind].status;
  const body: ProblemDetails = {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail: error.message,
    ...error.extra,
  };
  if (error.fieldErrors.length > 0) {
    body.errors = error.fieldErrors.map((e) => ({ field: e.field, message: e.message }));
  }
  if (requestId) body.requestId = requestId;
  return body;
}
