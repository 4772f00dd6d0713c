import { KubectlTaintError, type KubectlTaintErrorCode } from '../../domain/kubectl-taint/kubectl-taint-error';
import { LabelSelectorError } from '../../domain/label-selector/parse-label-selector';
import { AppError, type ErrorKind } from './app-error';

/**
 * Maps anything thrown below the transports to an AppError: our own errors, the domain's typed errors,
 * Prisma's known request errors, and infrastructure failures. The one error path: services let domain
 * errors through and both transports call this, so REST and GraphQL cannot disagree about a failure.
 */

/** kubectl taint (SEMANTICS B.3), every code once: the compiler checks this table is complete. */
const KUBECTL_TAINT_KINDS: Record<KubectlTaintErrorCode, ErrorKind> = {
  InvalidSpec: 'BadRequest', // a spec kubectl cannot parse
  AddAndRemove: 'BadRequest', // one command adds and removes the same taint
  AlreadyExists: 'Conflict', // the stored node has the taint and overwrite is false
  NotFound: 'NotFound', // a removal matches no taint on the stored node
};

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof KubectlTaintError) return fromKubectlTaint(error);
  if (error instanceof LabelSelectorError) {
    const message = `Invalid value: ${JSON.stringify(error.selector)}: ${error.message}`;
    return new AppError('BadRequest', `labelSelector: ${error.message}`, [
      { field: 'labelSelector', type: 'Invalid value', message },
    ]);
  }
  if (error instanceof Error) {
    const state = fromSqlState(error);
    if (state) return state;
    const prisma = fromPrisma(error);
    if (prisma) return prisma;
    const driver = fromDriverAdapterKind(error);
    if (driver) return driver;
    if (isTimeout(error)) return new AppError('Unavailable', TIMED_OUT);
    if (isUnavailable(error)) return new AppError('Unavailable', 'the database is unavailable; retry later');
  }
  return new AppError('Internal', 'internal error');
}

const TIMED_OUT = 'the database did not answer in time; retry later';

/** kubectl's own words; a refusal on a stored node names the node (kubectl prints it the same way). */
function fromKubectlTaint(error: KubectlTaintError): AppError {
  const kind = KUBECTL_TAINT_KINDS[error.code];
  if (error.node === undefined) {
    const fieldErrors =
      error.code === 'InvalidSpec' || error.code === 'AddAndRemove'
        ? [{ field: 'taints', type: 'Invalid value' as const, message: `Invalid value: ${error.message}` }]
        : [];
    return new AppError(kind, error.message, fieldErrors);
  }
  const message = error.code === 'NotFound' ? `node ${error.node}: ${error.message}` : error.message;
  return new AppError(kind, message, [], { node: error.node });
}

/**
 * PostgreSQL's SQLSTATE, wherever the layers put it: a pg error's `code`, or Prisma's
 * `meta.driverAdapterError.cause.originalCode` (raw queries and errors the adapter does not name).
 */
function sqlStateOf(error: Error): string | undefined {
  const meta = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } } })
    .meta;
  const cause = meta?.driverAdapterError?.cause;
  for (const candidate of [cause?.originalCode, cause?.code, (error as { code?: unknown }).code]) {
    if (typeof candidate === 'string' && /^[0-9A-Z]{5}$/.test(candidate) && !/^P\d{4}$/.test(candidate))
      return candidate;
  }
  return undefined;
}

/** https://www.postgresql.org/docs/current/errcodes-appendix.html */
function fromSqlState(error: Error): AppError | undefined {
  const state = sqlStateOf(error);
  if (!state) return undefined;
  if (state === '57014') return new AppError('Unavailable', TIMED_OUT); // statement_timeout (DB_STATEMENT_TIMEOUT_MS)
  if (state === '40001' || state === '40P01' || state === '55P03')
    return new AppError('Conflict', 'write conflict with a concurrent change; retry');
  if (state.startsWith('08') || state.startsWith('53') || state.startsWith('57P'))
    return new AppError('Unavailable', 'the database is unavailable; retry later');
  // Data exceptions (a NUL character, a number out of range...) and values too large to index: the
  // structural checks should have refused them already; never a 500 for bad input.
  if (state.startsWith('22') || state === '54000')
    return new AppError(
      'BadRequest',
      'the database refused a value in the request (too large, or a character PostgreSQL cannot store such as \\u0000)',
    );
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

/**
 * The kinds @prisma/driver-adapter-utils gives a lost or slow database (adapter-pg maps ECONNRESET to
 * `ConnectionClosed`, ECONNREFUSED to `DatabaseNotReachable`, ETIMEDOUT to `SocketTimeout`). A query inside an
 * interactive transaction throws the adapter's DriverAdapterError as is (message: the kind, `cause.kind`); other
 * queries arrive wrapped by Prisma (`meta.driverAdapterError.cause.kind`). Either way it is a 503, never a 500.
 */
const DRIVER_KINDS: Record<string, string> = {
  ConnectionClosed: 'the database is unavailable; retry later',
  DatabaseNotReachable: 'the database is unavailable; retry later',
  TooManyConnections: 'the database is unavailable; retry later',
  SocketTimeout: 'the database did not answer in time; retry later',
};

function fromDriverAdapterKind(error: Error): AppError | undefined {
  const own = (error as { cause?: { kind?: unknown } }).cause;
  const meta = (error as { meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } }).meta;
  for (const kind of [
    typeof own === 'object' && own !== null ? own.kind : undefined,
    meta?.driverAdapterError?.cause?.kind,
  ]) {
    const message = typeof kind === 'string' && Object.hasOwn(DRIVER_KINDS, kind) ? DRIVER_KINDS[kind] : undefined;
    if (message) return new AppError('Unavailable', message);
  }
  return undefined;
}

const TIMEOUT =
  /statement timeout|canceling statement due to statement timeout|Transaction API error|Unable to start a transaction in the given time|expired transaction/i;

function isTimeout(error: Error): boolean {
  return TIMEOUT.test(`${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`);
}

const UNAVAILABLE =
  /ECONNREFUSED|ECONNRESET|Connection terminated|connect ETIMEDOUT|timeout exceeded when trying to connect|terminating connection|Can't reach database|the database system is (starting up|shutting down)|statement timeout|canceling statement due to statement timeout|DatabaseNotReachable|Server has closed the connection/i;

function isUnavailable(error: Error): boolean {
  const text = `${error.name} ${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`;
  return UNAVAILABLE.test(text);
}
