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
    const state = fromSqlState(error);
    if (state) return state;
    const prisma = fromPrisma(error);
    if (prisma) return prisma;
    if (isTimeout(error)) return new AppError('Unavailable', TIMED_OUT);
    if (isUnavailable(error)) return new AppError('Unavailable', 'the database is unavailable; retry later');
  }
  return new AppError('Internal', 'internal error');
}

const TIMED_OUT = 'the database did not answer in time; retry later';

/**
 * PostgreSQL's SQLSTATE, wherever the layers put it: a pg error's `code`, or Prisma's
 * `meta.driverAdapterError.cause.originalCode` (raw queries and errors the adapter does not name).
 */
function sqlStateOf(error: Error): string | undefined {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } } }).meta;
  const cause = meta?.driverAdapterError?.cause;
  for (const candidate of [cause?.originalCode, cause?.code, (error as { code?: unknown }).code]) {
    if (typeof candidate === 'string' && /^[0-9A-Z]{5}$/.test(candidate) && !/^P\d{4}$/.test(candidate)) return candidate;
  }
  return undefined;
}

/** https://www.postgresql.org/docs/current/errcodes-appendix.html */
function fromSqlState(error: Error): AppError | undefined {
  const state = sqlStateOf(error);
  if (!state) return undefined;
  if (state === '57014') return new AppError('Unavailable', TIMED_OUT); // statement_timeout (DB_STATEMENT_TIMEOUT_MS)
  if (state === '40001' || state === '40P01' || state === '55P03') return new AppError('Conflict', 'write conflict with a concurrent change; retry');
  if (state.startsWith('08') || state.startsWith('53') || state.startsWith('57P')) return new AppError('Unavailable', 'the database is unavailable; retry later');
  // Data exceptions (a NUL character, a number out of range...) and values too large to index: the
  // structural checks should have refused them already; never a 500 for bad input.
  if (state.startsWith('22') || state === '54000') return new AppError('BadRequest', 'the database refused a value in the request (too large, or a character PostgreSQL cannot store such as \\u0000)');
  return undefined;
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
    case 'P1017':
    case 'P2037':
      return new AppError('Unavailable', 'the database is unavailable; retry later');
    case 'P1008': // socket timeout
    case 'P2024': // no pooled connection in time
    case 'P2028': // an interactive transaction could not start, or ran past its timeout
      return new AppError('Unavailable', TIMED_OUT);
    case 'P2000':
    case 'P2007':
    case 'P2020':
      return new AppError('BadRequest', 'the database refused a value in the request (too long or out of range)');
    default:
      return undefined;
  }
}

const TIMEOUT = /statement timeout|canceling statement due to statement timeout|Transaction API error|Unable to start a transaction in the given time|expired transaction/i;

function isTimeout(error: Error): boolean {
  return TIMEOUT.test(`${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`);
}

const UNAVAILABLE = /ECONNREFUSED|ECONNRESET|Connection terminated|connect ETIMEDOUT|timeout exceeded when trying to connect|terminating connection|Can't reach database|the database system is (starting up|shutting down)|statement timeout|canceling statement due to statement timeout|DatabaseNotReachable|Server has closed the connection/i;

function isUnavailable(error: Error): boolean {
  const text = `${error.name} ${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`;
  return UNAVAILABLE.test(text);
}
