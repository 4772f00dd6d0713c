import { AppError, type ErrorKind } from './app-error';

/**
 * Maps anything thrown below the transports to an AppError: our own errors, the domain's errors
 * (by their `code`), Prisma's known request errors, and infrastructure failures. One place, so REST
 * and GraphQL cannot disagree about what a failure means.
 */
const DOMAIN_CODES: Record<string, ErrorKind> = {
  // kubectl taint (domain/kubectl-taint): syntax and in-command conflicts are bad requests;
  // an existing taint without overwrite or a missing one to remove are conflicts with the stored node.
  InvalidSpec: 'BadRequest',
  Conflict: 'BadRequest',
  AlreadyExists: 'Conflict',
  NotFound: 'NotFound',
  InvalidLabelSelector: 'BadRequest',
};

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (error.name === 'LabelSelectorError') return new AppError('BadRequest', error.message);
    if (typeof code === 'string' && code in DOMAIN_CODES && error.name !== 'PrismaClientKnownRequestError') {
      return new AppError(DOMAIN_CODES[code], error.message);
    }
    const prisma = fromPrisma(error);
    if (prisma) return prisma;
    if (isUnavailable(error)) return new AppError('Unavailable', 'the database is unavailable; retry later');
  }
  return new AppError('Internal', 'internal error');
}

function fromPrisma(error: Error): AppError | undefined {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !/^P\d{4}$/.test(code)) return undefined;
  switch (code) {
    case 'P2002':
      return new AppError('Conflict', 'the object already exists or was changed concurrently; retry');
    case 'P2025':
      return new AppError('NotFound', 'not found');
    case 'P2034':
      return new AppError('Conflict', 'write conflict with a concurrent change; retry');
    case 'P1001':
    case 'P1002':
    case 'P1008':
    case 'P1017':
    case 'P2024':
      return new AppError('Unavailable', 'the database is unavailable; retry later');
    default:
      return undefined;
  }
}

const UNAVAILABLE = /ECONNREFUSED|ECONNRESET|Connection terminated|connect ETIMEDOUT|timeout exceeded when trying to connect|terminating connection|Can't reach database|the database system is (starting up|shutting down)|statement timeout|canceling statement due to statement timeout|DatabaseNotReachable|Server has closed the connection/i;

function isUnavailable(error: Error): boolean {
  const text = `${error.name} ${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`;
  return UNAVAILABLE.test(text);
}
