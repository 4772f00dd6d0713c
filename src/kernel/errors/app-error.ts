import type { FieldError } from '../../domain/types';

/**
 * The failure kinds of the application layer. Services throw AppError with one of these; exactly one
 * mapper per transport turns a kind into an HTTP status (problem+json) or a GraphQL extensions.code.
 * Services never throw HTTP exceptions.
 */
export const ERROR_KINDS = {
  BadRequest: { status: 400, code: 'BAD_REQUEST' },
  Unauthenticated: { status: 401, code: 'UNAUTHENTICATED' },
  Forbidden: { status: 403, code: 'FORBIDDEN' },
  NotFound: { status: 404, code: 'NOT_FOUND' },
  Conflict: { status: 409, code: 'CONFLICT' },
  PayloadTooLarge: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
  Invalid: { status: 422, code: 'UNPROCESSABLE_ENTITY' },
  RateLimited: { status: 429, code: 'RATE_LIMITED' },
  Unavailable: { status: 503, code: 'SERVICE_UNAVAILABLE' },
  /** A mirror's write-through: the cluster took the change but the watch did not bring it back in time. */
  GatewayTimeout: { status: 504, code: 'GATEWAY_TIMEOUT' },
  Internal: { status: 500, code: 'INTERNAL_SERVER_ERROR' },
} as const;

export type ErrorKind = keyof typeof ERROR_KINDS;

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly fieldErrors: FieldError[] = [],
    /** Extra machine-readable detail (e.g. the reasons of an infeasible binding). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  /**
   * Kubernetes' NotFound wording, the same on every route: `nodes "n1" not found` (plural resource, the
   * name as the request gave it; several missing objects joined by "; ").
   */
  static notFound(resource: KubeResource, ...names: string[]): AppError {
    const message = names.map((name) => `${resource} "${name}" not found`).join('; ');
    return new AppError('NotFound', message, [], names.length > 1 ? { missing: names } : {});
  }

  /** Kubernetes' AlreadyExists: `nodes "n1" already exists` (409). */
  static alreadyExists(resource: KubeResource, name: string): AppError {
    return new AppError('Conflict', `${resource} "${name}" already exists`, [], { kubeReason: 'AlreadyExists' });
  }

  static invalid(kind: string, name: string, errors: FieldError[], detail: string): AppError {
    return new AppError('Invalid', detail, errors, { object: { kind, name } });
  }
}

/** Resources as Kubernetes names them in NotFound / AlreadyExists (`<plural>.<group>` outside the core group). */
export type KubeResource = 'nodes' | 'pods' | 'poddisruptionbudgets.policy';
