import { ERROR_KINDS, type AppError, type ErrorKind } from '../errors/app-error';

/**
 * The Kubernetes API paths taintwise serves (src/kube-api): their errors leave as a metav1 `Status`
 * instead of problem+json, also when they are raised before a route runs (authentication, rate limit,
 * body parsing), so kubectl prints its usual `Error from server (Reason): message` lines.
 */
export function isKubeApiPath(url: string): boolean {
  const path = url.split('?')[0];
  return /^\/(api|apis|openapi)(\/|$)/.test(path) || path === '/version' || path === '/version/';
}

/** metav1.StatusReason for each failure kind (apimachinery pkg/apis/meta/v1/types.go, StatusReason*). */
const REASONS: Record<ErrorKind, string> = {
  BadRequest: 'BadRequest',
  Unauthenticated: 'Unauthorized',
  Forbidden: 'Forbidden',
  NotFound: 'NotFound',
  Conflict: 'Conflict',
  PayloadTooLarge: 'RequestEntityTooLarge',
  Invalid: 'Invalid',
  RateLimited: 'TooManyRequests',
  Unavailable: 'ServiceUnavailable',
  GatewayTimeout: 'Timeout',
  Internal: 'InternalError',
};

export interface KubeStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: Array<{ reason: string; message: string; field?: string }>;
    retryAfterSeconds?: number;
  };
  code: number;
}

/** metav1.CauseType of a field error type (apimachinery util/validation/field/errors.go ErrorType). */
const CAUSE_TYPES: Record<string, string> = {
  'Not found': 'FieldValueNotFound',
  'Required value': 'FieldValueRequired',
  'Duplicate value': 'FieldValueDuplicate',
  'Invalid value': 'FieldValueInvalid',
  'Unsupported value': 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  'Too long': 'FieldValueTooLong',
  'Too many': 'FieldValueTooMany',
  'Internal error': 'InternalError',
};

/**
 * An AppError as Kubernetes' `Status`. Details may be given by the raiser in `extra.kube` (resource
 * kind and name, the causes with Kubernetes field paths); otherwise the field errors become causes as is.
 */
export function kubeStatusFor(error: AppError): KubeStatus {
  const code = error.kind === 'NotFound' && error.extra.methodNotAllowed ? 405 : ERROR_KINDS[error.kind].status;
  const given = error.extra.kube as KubeStatus['details'] | undefined;
  const causes =
    given?.causes ??
    error.fieldErrors.map((e) => ({
      reason: CAUSE_TYPES[e.type] ?? 'FieldValueInvalid',
      message: e.message,
      field: e.field,
    }));
  const details: KubeStatus['details'] = { ...(given ?? {}) };
  if (causes.length) details.causes = causes;
  if (typeof error.extra.retryAfterSeconds === 'number') details.retryAfterSeconds = error.extra.retryAfterSeconds;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: error.message,
    reason:
      code === 405
        ? 'MethodNotAllowed'
        : typeof error.extra.kubeReason === 'string'
          ? error.extra.kubeReason
          : REASONS[error.kind],
    ...(Object.keys(details).length ? { details } : {}),
    code,
  };
}
