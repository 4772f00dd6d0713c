import { AppError } from './app-error';
import { KubectlTaintError } from '../../domain/kubectl-taint/kubectl-taint-error';
import { LabelSelectorError } from '../../domain/label-selector/parse-label-selector';
import { toAppError } from './to-app-error';

/** Shapes as Prisma 7 with @prisma/adapter-pg and pg throw them (captured against PostgreSQL 16). */
function prismaError(code: string, message: string, meta: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { name: 'PrismaClientKnownRequestError', code, meta });
}
const rawPostgres = (sqlState: string, message: string) =>
  prismaError('P2010', `Raw query failed. Code: \`${sqlState}\`. Message: \`${message}\``, {
    driverAdapterError: {
      name: 'DriverAdapterError',
      cause: { originalCode: sqlState, originalMessage: message, kind: 'postgres', code: sqlState, message },
    },
  });
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });
const timedOut = 'the database did not answer in time; retry later';
const unavailable = 'the database is unavailable; retry later';

describe('toAppError: infrastructure failures are 503/409/400, never 500', () => {
  it.each([
    {
      description: 'statement_timeout in a raw query (57014, DB_STATEMENT_TIMEOUT_MS)',
      error: rawPostgres('57014', 'canceling statement due to statement timeout'),
      kind: 'Unavailable',
      message: timedOut,
    },
    {
      description: 'statement_timeout straight from pg',
      error: pgError('57014', 'canceling statement due to statement timeout'),
      kind: 'Unavailable',
      message: timedOut,
    },
    {
      description: 'statement_timeout in a model query (message only)',
      error: Object.assign(
        new Error('Invalid `prisma.node.findMany()` invocation: canceling statement due to statement timeout'),
        { name: 'PrismaClientUnknownRequestError' },
      ),
      kind: 'Unavailable',
      message: timedOut,
    },
    {
      description: 'interactive transaction expired (P2028)',
      error: prismaError('P2028', 'Transaction API error: A query cannot be executed on an expired transaction.'),
      kind: 'Unavailable',
      message: timedOut,
    },
    {
      description: 'transaction could not start in maxWait (P2028)',
      error: prismaError('P2028', 'Transaction API error: Unable to start a transaction in the given time.'),
      kind: 'Unavailable',
      message: timedOut,
    },
    {
      description: 'socket timeout (P1008)',
      error: prismaError('P1008', 'Operations timed out'),
      kind: 'Unavailable',
      message: timedOut,
    },
    {
      description: 'server unreachable (P1001)',
      error: prismaError('P1001', "Can't reach database server"),
      kind: 'Unavailable',
      message: unavailable,
    },
    {
      description: 'connection closed (P1017)',
      error: prismaError('P1017', 'Server has closed the connection.'),
      kind: 'Unavailable',
      message: unavailable,
    },
    {
      description: 'too many connections (P2037)',
      error: prismaError('P2037', 'Too many database connections opened'),
      kind: 'Unavailable',
      message: unavailable,
    },
    {
      description: 'admin shutdown (57P01)',
      error: pgError('57P01', 'terminating connection due to administrator command'),
      kind: 'Unavailable',
      message: unavailable,
    },
    {
      description: 'connection failure (08006)',
      error: rawPostgres('08006', 'connection failure'),
      kind: 'Unavailable',
      message: unavailable,
    },
    {
      description:
        'connection reset inside an interactive transaction (adapter-pg DriverAdapterError ConnectionClosed, thrown as is)',
      error: Object.assign(new Error('ConnectionClosed'), {
        name: 'DriverAdapterError',
        cause: { kind: 'ConnectionClosed' },
      }),
      kind: 'Unavailable',
      message: unavailable,
    },
    {
      description: 'connection reset in a raw query (ConnectionClosed wrapped by Prisma)',
      error: prismaError('P2010', 'Raw query failed.', {
        driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'ConnectionClosed' } },
      }),
      kind: 'Unavailable',
      message: unavailable,
    },
    {
      description: 'socket timeout inside a transaction (adapter-pg DriverAdapterError SocketTimeout)',
      error: Object.assign(new Error('SocketTimeout'), {
        name: 'DriverAdapterError',
        cause: { kind: 'SocketTimeout' },
      }),
      kind: 'Unavailable',
      message: timedOut,
    },
    {
      description: 'pg pool: connection terminated',
      error: new Error('Connection terminated unexpectedly'),
      kind: 'Unavailable',
      message: unavailable,
    },
    {
      description: 'pg pool: connect timeout',
      error: new Error('timeout exceeded when trying to connect'),
      kind: 'Unavailable',
      message: unavailable,
    },
    {
      description: 'ECONNREFUSED',
      error: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      kind: 'Unavailable',
      message: unavailable,
    },
    {
      description: 'serialization failure (40001)',
      error: rawPostgres('40001', 'could not serialize access'),
      kind: 'Conflict',
      message: 'write conflict with a concurrent change; retry',
    },
    {
      description: 'deadlock (40P01)',
      error: pgError('40P01', 'deadlock detected'),
      kind: 'Conflict',
      message: 'write conflict with a concurrent change; retry',
    },
    {
      description: 'write conflict (P2034)',
      error: prismaError('P2034', 'Transaction failed due to a write conflict or a deadlock'),
      kind: 'Conflict',
      message: 'write conflict with a concurrent change; retry',
    },
    {
      description: 'NUL in text (22021)',
      error: rawPostgres('22021', 'invalid byte sequence for encoding "UTF8": 0x00'),
      kind: 'BadRequest',
      message: expect.stringMatching(/refused a value/),
    },
    {
      description: 'NUL in jsonb (22P05)',
      error: pgError('22P05', 'unsupported Unicode escape sequence'),
      kind: 'BadRequest',
      message: expect.stringMatching(/refused a value/),
    },
    {
      description: 'index row too large (54000)',
      error: rawPostgres('54000', 'index row size 3000 exceeds btree version 4 maximum 2704'),
      kind: 'BadRequest',
      message: expect.stringMatching(/refused a value/),
    },
    {
      description: 'value out of range (P2020)',
      error: prismaError('P2020', 'Value out of range for the type.'),
      kind: 'BadRequest',
      message: expect.stringMatching(/refused a value/),
    },
  ])('$description → $kind', ({ error, kind, message }) => {
    const mapped = toAppError(error);
    expect(mapped).toBeInstanceOf(AppError);
    expect({ kind: mapped.kind, message: mapped.message }).toEqual({ kind, message });
  });

  it('keeps AppErrors, and hides anything unknown behind a generic 500 (a look-alike code is not a domain error)', () => {
    expect(
      toAppError(Object.assign(new Error('taint "a:NoSchedule" already exists'), { code: 'AlreadyExists' })).kind,
    ).toBe('Internal');
    const own = AppError.notFound('nodes', 'x');
    expect(toAppError(own)).toBe(own);
    expect(toAppError(new TypeError('x is undefined'))).toMatchObject({ kind: 'Internal', message: 'internal error' });
    expect(toAppError(Object.assign(new Error('broken pipe'), { code: 'EPIPE' })).kind).toBe('Internal');
    expect(toAppError('a string')).toMatchObject({ kind: 'Internal' });
  });
});

describe('toAppError: the domain errors, each code mapped once (the one error path)', () => {
  it.each([
    {
      description: 'a spec kubectl cannot parse',
      error: new KubectlTaintError('InvalidSpec', 'invalid taint spec: a=b=c:NoSchedule'),
      kind: 'BadRequest',
      message: 'invalid taint spec: a=b=c:NoSchedule',
      fields: ['taints'],
    },
    {
      description: 'adding and removing one taint',
      error: new KubectlTaintError(
        'AddAndRemove',
        'can not both modify and remove the following taint(s) in the same command: k=NoSchedule',
      ),
      kind: 'BadRequest',
      message: 'can not both modify and remove the following taint(s) in the same command: k=NoSchedule',
      fields: ['taints'],
    },
    {
      description: 'a taint already on the node without overwrite',
      error: new KubectlTaintError(
        'AlreadyExists',
        'node n1 already has k taint(s) with same effect(s) and --overwrite is false',
        'n1',
      ),
      kind: 'Conflict',
      message: 'node n1 already has k taint(s) with same effect(s) and --overwrite is false',
      fields: [],
    },
    {
      description: 'a removal matching nothing names the node',
      error: new KubectlTaintError('NotFound', 'taint "k:NoSchedule" not found', 'n1'),
      kind: 'NotFound',
      message: 'node n1: taint "k:NoSchedule" not found',
      fields: [],
    },
    {
      description: 'a label selector that does not parse',
      error: new LabelSelectorError("unable to parse requirement: found '=', expected: identifier", '=x'),
      kind: 'BadRequest',
      message: "labelSelector: unable to parse requirement: found '=', expected: identifier",
      fields: ['labelSelector'],
    },
  ])('$description', ({ error, kind, message, fields }) => {
    const mapped = toAppError(error);
    expect({ kind: mapped.kind, message: mapped.message, fields: mapped.fieldErrors.map((f) => f.field) }).toEqual({
      kind,
      message,
      fields,
    });
  });

  it.each([
    { resource: 'nodes' as const, names: ['n1'], message: 'nodes "n1" not found' },
    { resource: 'pods' as const, names: ['web-1'], message: 'pods "web-1" not found' },
    { resource: 'nodes' as const, names: ['a', 'b'], message: 'nodes "a" not found; nodes "b" not found' },
  ])("NotFound in Kubernetes' words: $message", ({ resource, names, message }) => {
    expect(AppError.notFound(resource, ...names)).toMatchObject({ kind: 'NotFound', message });
  });
});
