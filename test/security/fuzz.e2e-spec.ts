import fc from 'fast-check';
import {
  encodeLenient,
  fillPath,
  graphqlSurface,
  namedType,
  restOperations,
  send,
  typeName,
  type GraphQLOperation,
  type GraphQLSurface,
  type RawResult,
  type RestOperation,
  type TypeRef,
} from '../support/api-surface';
import { startTestApp, testModes, type TestApp } from '../support/test-app';

// ~8,600 requests per run: on a loaded 2-core machine one test can take minutes, not a sign of a hang.
jest.setTimeout(600_000);

// Issue 7 — "never a 500 for bad input": generated malformed and adversarial bodies, paths, queries
// and content types against EVERY REST route (from /docs-json) and GraphQL operation (from
// introspection). Each answer must be a 4xx problem+json with a useful detail (or a 2xx where the
// input happens to be valid), and a rejected mutation must leave the database as it was (no event
// written: every committed mutation writes one). FUZZ_RUNS sets the inputs per operation (default
// 200), FUZZ_SEED replays a run.
/** A transport failure (timeout, reset) is a finding like a 500, not a crash of the property. */
const safely = (p: Promise<RawResult>): Promise<RawResult> =>
  p.catch((e: Error) => ({ status: 0, headers: new Headers(), text: `no answer: ${e.message}`, body: undefined }));
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
// One storage mode keeps the file within its time budget: the real servers when CI has them.
const MODE = testModes().at(-1)!;

// ------------------------------------------------------------------ generators

const nasty = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '💥',
  'é',
  'Ω≈ç√',
  '\u202e',
  '\r\n',
  '\t',
  '%00',
  '%',
  '%zz',
  '..',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'x'.repeat(300),
  'x'.repeat(5000),
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  "'; DROP TABLE nodes; --",
  'NoSchedule',
  'NoExecute',
  'Exists',
  'Gt',
  'Lt',
  'In',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  'null',
  'true',
  '[]',
  '{}',
  'a=b',
  'a in (x',
  '!',
  'a,b',
  '-',
  'key=value:NoSchedule',
  'key:NoExecute-',
  '=:',
  '2026-13-45T99:99:99Z',
  '1970-01-01T00:00:00Z',
  '9223372036854775808',
];
const weirdString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...nasty) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9]([-a-z0-9.]{0,20}[a-z0-9])?$/) },
);
const weirdNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(
    -1,
    0,
    1,
    0.5,
    -0.5,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53,
    2 ** 64,
    -(2 ** 63),
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    1e-300,
  ),
);
const protoKeys = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'key',
  'effect',
  'operator',
  'value',
  'taints',
  'tolerations',
  'nodes',
  'name',
  'labels',
  'extra',
);
const { value: adversarial } = fc.letrec<{ value: unknown; array: unknown[]; object: Record<string, unknown> }>(
  (tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      weirdString,
      weirdNumber,
      fc.boolean(),
      fc.constant(null),
      tie('array'),
      tie('object'),
    ),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(fc.oneof(weirdString, protoKeys), tie('value'), { maxKeys: 4 }),
  }),
);
const hugeArray = fc.constantFrom(
  Array.from({ length: 5000 }, (_, i) => ({ key: `k${i}`, effect: 'NoSchedule' })),
  Array.from({ length: 20_000 }, () => 'x'),
  Array.from({ length: 1001 }, (_, i) => `dup-${i % 2}=v:NoSchedule`),
);
function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}
const anyValue = fc.oneof(
  { weight: 8, arbitrary: adversarial },
  { weight: 1, arbitrary: hugeArray },
  { weight: 1, arbitrary: fc.constantFrom(nested(50), nested(500)) },
);

/** Valid bodies to mutate, by route: most of the search space then sits right next to what the service accepts. */
const KUBE_NODE = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'fz-n1', labels: { pool: 'gpu' } },
  spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], unschedulable: false },
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
};
const KUBE_POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'fz-k1', namespace: 'default' },
  spec: {
    containers: [{ name: 'app', image: 'x', resources: { requests: { cpu: '100m' } } }],
    tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }],
  },
};
const EXAMPLES: Record<string, unknown> = {
  'POST /api/v1/nodes': KUBE_NODE,
  'PUT /api/v1/nodes/{name}': KUBE_NODE,
  'PATCH /api/v1/nodes/{name}': { spec: { taints: [{ key: 'k', effect: 'NoExecute' }] } },
  'PUT /api/v1/nodes/{name}/status': KUBE_NODE,
  'PATCH /api/v1/nodes/{name}/status': { status: { conditions: [{ type: 'Ready', status: 'False' }] } },
  'POST /api/v1/namespaces/{namespace}/pods': KUBE_POD,
  'PUT /api/v1/namespaces/{namespace}/pods/{name}': KUBE_POD,
  'PATCH /api/v1/namespaces/{namespace}/pods/{name}': { metadata: { labels: { tier: 'front' } } },
  'POST /api/v1/namespaces/{namespace}/pods/{name}/binding': {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: 'fz-p2' },
    target: { kind: 'Node', name: 'fz-n2' },
  },
  'PUT /v1/nodes/{name}': {
    labels: { pool: 'gpu', zone: 'a' },
    taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
    unschedulable: false,
    conditions: [{ type: 'Ready', status: 'True' }],
    allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
  },
  'PUT /v1/namespaces/{namespace}/pods/{name}': {
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule', tolerationSeconds: 30 }],
    nodeSelector: { pool: 'gpu' },
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['gpu'] }] }],
        },
      },
    },
    resources: { requests: { cpu: '100m', memory: '64Mi' } },
    priority: 0,
    nodeName: 'fz-n1',
  },
  'POST /v1/namespaces/{namespace}/pods/{name}/binding': { nodeName: 'fz-n1', force: false },
  'POST /v1/import': {
    kind: 'List',
    apiVersion: 'v1',
    items: [
      {
        kind: 'Node',
        apiVersion: 'v1',
        metadata: { name: 'fz-imported', labels: { a: 'b' } },
        spec: { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] },
      },
      {
        kind: 'Pod',
        apiVersion: 'v1',
        metadata: { namespace: 'default', name: 'fz-ip' },
        spec: { nodeName: 'fz-imported', tolerations: [{ operator: 'Exists' }] },
        status: { phase: 'Running' },
      },
    ],
  },
  'POST /v1/taints': { nodes: ['fz-n1', 'fz-n2'], taints: ['fz=x:NoSchedule', 'old-'], overwrite: true, dryRun: false },
  'PUT /v1/nodes/{name}/conditions': [
    { type: 'Ready', status: 'False' },
    { type: 'MemoryPressure', status: 'True' },
  ],
  'POST /v1/decisions/feasible-nodes': {
    pod: { tolerations: [{ key: 'dedicated', operator: 'Exists' }], nodeSelector: { pool: 'gpu' } },
    labelSelector: 'pool in (gpu)',
    limit: 10,
  },
  'POST /v1/decisions/taint-impact': {
    taints: ['maintenance=true:NoExecute'],
    nodes: ['fz-n1'],
    at: '2030-01-01T00:00:00Z',
  },
  'POST /v1/decisions/toleration-match': {
    taints: [{ key: 'a', value: 'b', effect: 'NoSchedule' }],
    tolerations: [{ key: 'a', operator: 'Exists', tolerationSeconds: 5 }],
  },
};

type Mutation = {
  kind: 'replace' | 'delete' | 'unknown-field' | 'duplicate' | 'wrap' | 'proto';
  at: number;
  value: unknown;
};
const mutation = fc.record({
  kind: fc.constantFrom('replace', 'replace', 'replace', 'delete', 'unknown-field', 'duplicate', 'wrap', 'proto'),
  at: fc.nat(),
  value: anyValue,
}) as fc.Arbitrary<Mutation>;

/** Applies mutations to a deep copy of a JSON value, each at one of its nodes. */
function mutate(example: unknown, mutations: Mutation[]): unknown {
  const root = { v: structuredClone(example) };
  for (const m of mutations) {
    const slots: Array<{ parent: any; key: string | number }> = [];
    const walk = (parent: any, key: string | number) => {
      slots.push({ parent, key });
      const v = parent[key];
      if (v && typeof v === 'object') for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) walk(v, k);
    };
    walk(root, 'v');
    const { parent, key } = slots[m.at % slots.length];
    const current = parent[key];
    switch (m.kind) {
      case 'replace':
        parent[key] = structuredClone(m.value);
        break;
      case 'delete':
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else if (parent !== root) delete parent[key];
        break;
      case 'unknown-field':
        if (current && typeof current === 'object' && !Array.isArray(current))
          current[`unknown_${m.at % 7}`] = structuredClone(m.value);
        break;
      case 'duplicate':
        if (Array.isArray(current) && current.length) current.push(structuredClone(current[0]));
        else if (Array.isArray(parent)) parent.push(structuredClone(current));
        break;
      case 'wrap':
        parent[key] = [current];
        break;
      case 'proto':
        if (current && typeof current === 'object' && !Array.isArray(current))
          Object.defineProperty(current, m.at % 2 ? '__proto__' : 'constructor', {
            value: m.at % 2 ? { polluted: 'yes' } : { prototype: { polluted: 'yes' } },
            enumerable: true,
            configurable: true,
            writable: true,
          });
        break;
    }
  }
  return root.v;
}

const rawBodies = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    '',
    ' ',
    '{',
    '{"a":',
    '}',
    '[',
    'null',
    'true',
    '0',
    '-1',
    '"text"',
    '[]',
    '{}',
    '{"a":1,"a":2}',
    '\ufeff{}',
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '{"taints":[{"key":"a","effect":"NoSchedule","__proto__":{"x":1}}]}',
    'NaN',
    '{"a":1e999}',
    '{"a":-0}',
    "{'a':1}",
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
    'kind: List\nitems: [*a]\n',
    '<xml/>',
    'a=1&b=2',
  ),
  fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)),
  fc.constantFrom(
    Buffer.from([0xff, 0xfe, 0xfd]),
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    Buffer.from('{"a":"\xed\xa0\x80"}', 'latin1'),
  ),
);
const contentTypes = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/yaml',
  'application/merge-patch+json',
  'application/octet-stream',
  'text/json',
  'application/JSON',
  '',
);

interface RestInput {
  params: Record<string, string>;
  query: Array<[string, string]>;
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; value: string | Buffer };
  contentType: string;
}

function restInputs(op: RestOperation): fc.Arbitrary<RestInput> {
  const known: Record<string, string[]> = {
    name: ['fz-n1', 'fz-n2', 'fz-p1', 'fz-missing'],
    namespace: ['default', 'fz-ns'],
  };
  const param = (name: string) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...(known[name] ?? ['probe'])) },
      { weight: 3, arbitrary: weirdString.filter((s) => s.length > 0) },
    );
  const params = fc.record(Object.fromEntries(op.pathParams.map((p) => [p, param(p)]))) as fc.Arbitrary<
    Record<string, string>
  >;
  const queryName = fc.oneof(
    { weight: 4, arbitrary: op.queryParams.length ? fc.constantFrom(...op.queryParams) : fc.constant('limit') },
    { weight: 1, arbitrary: fc.oneof(protoKeys, weirdString) },
  );
  const queryValue = fc.oneof(
    weirdString,
    weirdNumber.map(String),
    fc.constantFrom(
      '1',
      '500',
      '0',
      '-5',
      '100000',
      'Scheduled',
      'Pending',
      'Running',
      'pool=gpu',
      'eyJ4IjoxfQ',
      'NodeCreated,PodCreated',
      '1',
    ),
  );
  const query = fc.array(fc.tuple(queryName, queryValue), { maxLength: 4 });
  const example = EXAMPLES[op.id] ?? {};
  const jsonBody = fc.oneof(
    { weight: 5, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ms) => mutate(example, ms)) },
    { weight: 1, arbitrary: fc.constant(example) },
    { weight: 2, arbitrary: anyValue },
  );
  const body = op.hasBody
    ? fc.oneof(
        { weight: 6, arbitrary: jsonBody.map((value) => ({ kind: 'json' as const, value })) },
        { weight: 2, arbitrary: rawBodies.map((value) => ({ kind: 'raw' as const, value })) },
        { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
      )
    : op.method === 'GET' // fetch cannot send a body with GET
      ? fc.constant({ kind: 'none' as const })
      : fc.oneof(
          { weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) },
          { weight: 1, arbitrary: rawBodies.map((value) => ({ kind: 'raw' as const, value })) },
        );
  return fc.record({ params, query, body, contentType: contentTypes });
}

function restRequest(
  op: RestOperation,
  input: RestInput,
): { path: string; init: { body?: string | Buffer; headers: Record<string, string> } } {
  const qs = input.query.length
    ? `?${input.query.map(([k, v]) => `${encodeLenient(k)}=${encodeLenient(v)}`).join('&')}`
    : '';
  const path = fillPath(op, (name) => input.params[name] ?? 'probe') + qs;
  const headers: Record<string, string> = {};
  let body: string | Buffer | undefined;
  if (input.body.kind === 'json') body = JSON.stringify(input.body.value) ?? 'null';
  else if (input.body.kind === 'raw') body = input.body.value;
  if (body !== undefined && input.contentType) headers['content-type'] = input.contentType;
  return { path, init: { body, headers } };
}

// GraphQL: values that follow the argument types most of the time, and break them otherwise.
function gqlValue(ref: TypeRef, surface: GraphQLSurface, depth = 0): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(adversarial, fc.constant(null));
  let right: fc.Arbitrary<unknown>;
  if (ref.kind === 'NON_NULL') right = gqlValue(ref.ofType!, surface, depth);
  else if (ref.kind === 'LIST')
    right = fc.oneof(
      { weight: 6, arbitrary: fc.array(gqlValue(ref.ofType!, surface, depth + 1), { maxLength: 4 }) },
      { weight: 1, arbitrary: hugeArray },
    );
  else {
    const t = surface.types.get(ref.name!);
    if (t?.kind === 'ENUM')
      right = fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...t.enumValues.map((v: { name: string }) => v.name)) },
        { weight: 1, arbitrary: weirdString },
      );
    else if (t?.kind === 'INPUT_OBJECT') {
      if (depth > 4) right = fc.constant({});
      else {
        const fields = Object.fromEntries(
          t.inputFields.map((f: { name: string; type: TypeRef }) => [f.name, gqlValue(f.type, surface, depth + 1)]),
        );
        right = fc
          .tuple(
            fc.record(fields, { requiredKeys: [] }),
            fc.option(fc.tuple(fc.oneof(protoKeys, weirdString), adversarial), { freq: 8 }),
          )
          .map(([obj, extra]) => (extra ? { ...obj, [extra[0]]: extra[1] } : obj));
      }
    } else if (ref.name === 'Int' || ref.name === 'Float') right = weirdNumber;
    else if (ref.name === 'Boolean') right = fc.boolean();
    else if (ref.name === 'DateTime')
      right = fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        weirdString,
      );
    else right = weirdString;
  }
  return fc.oneof({ weight: 5, arbitrary: right }, { weight: 1, arbitrary: wrong });
}

/** A selection of every field reachable without arguments, a few levels deep. */
function selection(ref: TypeRef, surface: GraphQLSurface, depth: number): string {
  const t = surface.types.get(namedType(ref).name!);
  if (!t || !['OBJECT', 'INTERFACE'].includes(t.kind)) return '';
  if (depth === 0) return ' { __typename }';
  const fields = (t.fields ?? [])
    .filter((f: any) => !f.args.some((a: any) => a.type.kind === 'NON_NULL'))
    .map((f: any) => `${f.name}${selection(f.type, surface, depth - 1)}`);
  return ` { __typename ${fields.join(' ')} }`;
}

function gqlDocument(op: GraphQLOperation, surface: GraphQLSurface): string {
  const vars = op.args.map((a) => `$${a.name}: ${typeName(a.type)}`).join(', ');
  const call = op.args.length ? `(${op.args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  return `${op.kind} Fuzz${vars ? `(${vars})` : ''} { ${op.name}${call}${selection(op.type, surface, 3)} }`;
}

const transportInputs = fc.oneof(
  fc
    .record({
      query: fc.oneof(
        weirdString,
        fc.constantFrom(
          '{',
          '{ nope }',
          'query { serviceInfo { open } } query { serviceInfo { open } }',
          'subscription { events { id } }',
          `{ ${'a: __typename '.repeat(5000)} }`,
          `{ serviceInfo ${'{ open '.repeat(200)}${'}'.repeat(200)} }`,
          'mutation { __typename }',
          '{ __schema { types { fields { type { ofType { ofType { name } } } } } } }',
          'fragment A on Query { ...A } { ...A }',
        ),
      ),
      variables: fc.option(adversarial),
      operationName: fc.option(weirdString),
    })
    .map((b) => ({ kind: 'json' as const, value: b })),
  adversarial.map((value) => ({ kind: 'json' as const, value })),
  fc
    .array(fc.record({ query: fc.constant('{ serviceInfo { open } }') }), { maxLength: 3 })
    .map((value) => ({ kind: 'json' as const, value })),
  rawBodies.map((value) => ({ kind: 'raw' as const, value })),
);

// ------------------------------------------------------------------ checks

interface Tally {
  inputs: number;
  statuses: Record<string, number>;
  failures: string[];
}
const tallies = new Map<string, Tally>();
const tally = (id: string): Tally =>
  tallies.get(id) ?? (tallies.set(id, { inputs: 0, statuses: {}, failures: [] }), tallies.get(id)!);

function describeInput(input: unknown): string {
  const text = JSON.stringify(input, (_, v) =>
    Buffer.isBuffer(v) || (v && v.type === 'Buffer')
      ? `<bytes ${Buffer.from(v.data ?? v).toString('hex')}>`
      : typeof v === 'string' && v.length > 80
        ? `${v.slice(0, 80)}…(${v.length})`
        : v,
  );
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/** Node's HTTP parser refuses a request line or headers over 16 KB itself, before the app sees it. */
const BEFORE_THE_APP = new Set([431]);

function checkRest(r: RawResult): string | undefined {
  if (r.status >= 500 || r.status < 200) return `status ${r.status}: ${r.text.slice(0, 300)}`;
  if (BEFORE_THE_APP.has(r.status)) return undefined;
  if (r.status >= 400) {
    if (!r.headers.get('content-type')?.includes('application/problem+json'))
      return `${r.status} without problem+json (${r.headers.get('content-type')}): ${r.text.slice(0, 200)}`;
    if (
      r.body?.status !== r.status ||
      typeof r.body.detail !== 'string' ||
      r.body.detail.length < 5 ||
      typeof r.body.title !== 'string'
    )
      return `${r.status} with an unhelpful problem: ${r.text.slice(0, 200)}`;
    if (/internal error|undefined|\[object Object\]|TypeError|Cannot read/.test(r.body.detail))
      return `${r.status} leaks an internal message: ${r.body.detail.slice(0, 200)}`;
  }
  return undefined;
}

function checkGraphQL(r: RawResult): string | undefined {
  if (r.status >= 500 || r.status < 200) return `status ${r.status}: ${r.text.slice(0, 300)}`;
  if (BEFORE_THE_APP.has(r.status)) return undefined;
  if (r.status >= 400 && r.headers.get('content-type')?.includes('application/problem+json')) return checkRest(r);
  if (typeof r.body !== 'object' || r.body === null) return `${r.status} not JSON: ${r.text.slice(0, 200)}`;
  for (const e of r.body.errors ?? []) {
    if (e?.extensions?.code === 'INTERNAL_SERVER_ERROR' || !e?.extensions?.code)
      return `error without a client code: ${JSON.stringify(e).slice(0, 300)}`;
    if (typeof e.message !== 'string' || e.message.length < 5 || /internal error|Cannot read|TypeError/.test(e.message))
      return `unhelpful error: ${JSON.stringify(e).slice(0, 300)}`;
  }
  if (r.status >= 400 && !r.body.errors?.length) return `${r.status} without errors`;
  return undefined;
}

/** The Kubernetes API routes (src/kube-api), which /docs-json does not list: errors there are metav1 Status. */
const KUBE_OPERATIONS: RestOperation[] = (
  [
    ['GET', '/version'],
    ['GET', '/api'],
    ['GET', '/apis'],
    ['GET', '/api/v1'],
    ['GET', '/apis/{group}/{version}'],
    ['GET', '/openapi/v3'],
    ['GET', '/openapi/v3/api/v1'],
    ['GET', '/api/v1/nodes', ['labelSelector', 'fieldSelector', 'limit', 'continue', 'watch', 'includeObject']],
    ['GET', '/api/v1/nodes/{name}'],
    ['POST', '/api/v1/nodes', ['dryRun', 'fieldValidation']],
    ['PUT', '/api/v1/nodes/{name}', ['dryRun', 'fieldValidation']],
    ['PATCH', '/api/v1/nodes/{name}', ['dryRun']],
    ['DELETE', '/api/v1/nodes/{name}', ['dryRun']],
    ['PUT', '/api/v1/nodes/{name}/status'],
    ['PATCH', '/api/v1/nodes/{name}/status'],
    ['GET', '/api/v1/pods', ['labelSelector', 'fieldSelector', 'limit', 'continue']],
    ['GET', '/api/v1/namespaces/{namespace}/pods', ['fieldSelector', 'limit', 'continue']],
    ['GET', '/api/v1/namespaces/{namespace}/pods/{name}'],
    ['POST', '/api/v1/namespaces/{namespace}/pods', ['dryRun', 'fieldValidation']],
    ['PUT', '/api/v1/namespaces/{namespace}/pods/{name}', ['dryRun', 'fieldValidation']],
    ['PATCH', '/api/v1/namespaces/{namespace}/pods/{name}', ['dryRun']],
    ['DELETE', '/api/v1/namespaces/{namespace}/pods/{name}', ['dryRun']],
    ['GET', '/api/v1/events', ['fieldSelector', 'limit', 'continue']],
    ['GET', '/api/v1/namespaces/{namespace}/events', ['fieldSelector', 'limit', 'continue']],
    ['POST', '/api/v1/namespaces/{namespace}/pods/{name}/binding'],
    ['POST', '/api/v1/namespaces/{namespace}/pods/{name}/eviction', ['dryRun']],
    ['GET', '/apis/policy/v1/poddisruptionbudgets', ['labelSelector', 'limit', 'continue', 'includeObject']],
    ['GET', '/apis/policy/v1/namespaces/{namespace}/poddisruptionbudgets', ['labelSelector', 'limit', 'continue']],
    ['GET', '/apis/policy/v1/namespaces/{namespace}/poddisruptionbudgets/{name}'],
    ['GET', '/apis/policy/v1/namespaces/{namespace}/poddisruptionbudgets/{name}/status'],
    ['POST', '/apis/policy/v1/namespaces/{namespace}/poddisruptionbudgets', ['dryRun', 'fieldValidation']],
    ['PUT', '/apis/policy/v1/namespaces/{namespace}/poddisruptionbudgets/{name}', ['dryRun', 'fieldValidation']],
    ['PATCH', '/apis/policy/v1/namespaces/{namespace}/poddisruptionbudgets/{name}', ['dryRun']],
    ['DELETE', '/apis/policy/v1/namespaces/{namespace}/poddisruptionbudgets/{name}', ['dryRun']],
    ['GET', '/apis/apps/v1/namespaces/{namespace}/daemonsets/{name}'],
    ['GET', '/api/v1/namespaces'],
    ['GET', '/api/v1/namespaces/{name}'],
  ] as Array<[string, string, string[]?]>
).map(([method, path, queryParams = []]) => ({
  method,
  path,
  pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
  queryParams,
  hasBody: method !== 'GET' && method !== 'DELETE',
  requiredRole: method === 'GET' ? 'viewer' : 'operator',
  streaming: false,
  id: `${method} ${path}`,
}));

function checkKube(r: RawResult, sentPath?: string): string | undefined {
  // a generated segment such as '..' is resolved by the client before sending: a path that no longer starts
  // with a Kubernetes prefix reached taintwise's own API, which answers problem+json
  if (sentPath !== undefined && !/^\/(api|apis|openapi|version)(\/|$)/.test(new URL(sentPath, 'http://x').pathname))
    return checkRest(r);
  if (r.status >= 500 || r.status < 200) return `status ${r.status}: ${r.text.slice(0, 300)}`;
  if (BEFORE_THE_APP.has(r.status) || r.status < 400) return undefined;
  if (r.body?.kind !== 'Status' || r.body.code !== r.status || typeof r.body.reason !== 'string')
    return `${r.status} is not a Kubernetes Status: ${r.text.slice(0, 200)}`;
  if (typeof r.body.message !== 'string' || r.body.message.length < 5)
    return `${r.status} with an unhelpful Status: ${r.text.slice(0, 200)}`;
  if (/internal error|undefined|\[object Object\]|TypeError|Cannot read/.test(r.body.message))
    return `${r.status} leaks an internal message: ${r.body.message.slice(0, 200)}`;
  return undefined;
}

// ------------------------------------------------------------------ the suite

describe(`fuzzing every operation (${MODE}, ${RUNS} inputs each, seed ${SEED})`, () => {
  let app: TestApp;
  let rest: RestOperation[];
  let gql: GraphQLSurface;
  let lastEventId = '0';

  const url = (path: string) => app.url + path;
  /** Events after the last one seen: none may appear after a rejected mutation. */
  type Event = { id: string; type: string; subjectName: string; actor: string; requestId: string | null };
  let otherActors = 0;
  async function newEvents(): Promise<Event[]> {
    const out: Event[] = [];
    for (;;) {
      const r = await send(url(`/v1/events/history?since=${lastEventId}&limit=1000`), 'GET');
      if (r.status !== 200) throw new Error(`event history: ${r.status} ${r.text.slice(0, 200)}`);
      out.push(...r.body.items);
      if (r.body.items.length) lastEventId = r.body.items[r.body.items.length - 1].id;
      if (!r.body.continue) {
        otherActors += out.filter((e) => e.actor !== 'anonymous').length; // the eviction timers
        return out;
      }
    }
  }
  /**
   * Every event carries the request id of the write that caused it, so the events of a whole operation's
   * inputs are read once after them (one history read per operation, not one per input) and matched by
   * id: a rejected request with an event is a failure. Returns how many accepted requests wrote one.
   */
  type Answered = { rejected: boolean; described: string };
  async function checkWrites(answered: Map<string, Answered>, t: Tally): Promise<number> {
    const written = new Map<string, Event[]>();
    for (const e of await newEvents()) {
      if (e.requestId !== null && answered.has(e.requestId))
        written.set(e.requestId, [...(written.get(e.requestId) ?? []), e]);
    }
    let accepted = 0;
    for (const [requestId, events] of written) {
      const { rejected, described } = answered.get(requestId)!;
      if (!rejected) accepted++;
      else if (t.failures.length < 5)
        t.failures.push(
          `${described} → rejected but wrote ${events.map((e) => `${e.type} ${e.subjectName}`).join(', ')}`,
        );
    }
    return accepted;
  }
  let requestCounter = 0;
  /** Nodes, pods and evictions with their versions: what a rejected operation must not change. */
  async function fingerprint(): Promise<string> {
    const parts: string[] = [];
    for (const path of ['/v1/nodes?limit=5000', '/v1/pods?limit=5000', '/v1/evictions?limit=5000']) {
      const r = await send(url(path), 'GET');
      if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
      parts.push(
        r.body.items
          .map((i: any) => `${i.namespace ?? ''}/${i.name ?? i.id}@${i.resourceVersion ?? i.status}`)
          .sort()
          .join(','),
      );
    }
    return parts.join('|');
  }
  async function seed(): Promise<void> {
    for (const [name, body] of [
      [
        'fz-n1',
        {
          labels: { pool: 'gpu' },
          taints: [{ key: 'old', effect: 'NoSchedule' }],
          allocatable: { cpu: '8', memory: '16Gi', pods: '110' },
        },
      ],
      ['fz-n2', { labels: { pool: 'cpu' } }],
    ] as const) {
      await send(url(`/v1/nodes/${name}`), 'PUT', { body });
    }
    await send(url('/v1/namespaces/default/pods/fz-p1'), 'PUT', {
      body: { nodeName: 'fz-n1', tolerations: [{ operator: 'Exists' }] },
    });
    await send(url('/v1/namespaces/default/pods/fz-p2'), 'PUT', { body: { resources: { requests: { cpu: '1' } } } });
    await newEvents();
  }

  beforeAll(async () => {
    app = await startTestApp(MODE, { env: { RATE_LIMIT_PER_MINUTE: '0', BODY_LIMIT_BYTES: String(1024 * 1024) } });
    rest = (await restOperations(app)).filter((op) => op.id !== 'GET /healthz');
    gql = await graphqlSurface(app);
    await seed();
  });
  afterAll(async () => {
    const rows = [...tallies].map(
      ([id, t]) =>
        `${id.padEnd(58)} ${String(t.inputs).padStart(5)}  ${Object.entries(t.statuses)
          .sort()
          .map(([s, n]) => `${s}:${n}`)
          .join(' ')}`,
    );
    // The count per operation is part of the report issue 7 asks for.
    process.stdout.write(`\nfuzz (${MODE}, seed ${SEED}): inputs per operation and answers\n${rows.join('\n')}\n`);
    await app?.close();
  });

  it('found the operations', () => {
    expect(rest.length).toBeGreaterThanOrEqual(15);
    expect(gql.operations.length).toBeGreaterThanOrEqual(5);
  });

  const restCase =
    (
      pick: (ops: RestOperation[]) => RestOperation[],
      check: (r: RawResult, sentPath?: string) => string | undefined = checkRest,
    ) =>
    async () => {
      const picked = pick(rest);
      for (const op of picked) {
        const t = tally(`REST ${op.id}`);
        const mutating = op.method !== 'GET';
        if (mutating) await seed();
        const before = mutating ? await fingerprint() : '';
        const othersBefore = otherActors;
        const answered = new Map<string, Answered>();
        await fc.assert(
          fc.asyncProperty(restInputs(op), async (input) => {
            const { path, init } = restRequest(op, input);
            const requestId = `fz-${++requestCounter}`;
            const r = await safely(
              send(url(path), op.method, {
                body: init.body,
                headers: { ...init.headers, 'x-request-id': requestId },
                timeoutMs: 15_000,
              }),
            );
            t.inputs++;
            t.statuses[r.status] = (t.statuses[r.status] ?? 0) + 1;
            const failure = check(r, path);
            const described = () =>
              `${op.method} ${path.slice(0, 200)} ${describeInput(input.body)} [${input.contentType}]`;
            if (failure && t.failures.length < 5) t.failures.push(`${described()} → ${failure}`);
            if (!failure && mutating) answered.set(requestId, { rejected: r.status >= 400, described: described() });
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
        const accepted = mutating ? await checkWrites(answered, t) : 0;
        if (mutating && accepted === 0 && otherActors === othersBefore) {
          const after = await fingerprint();
          if (after !== before)
            t.failures.push(`no input was accepted, yet the inventory changed:\n${before}\n${after}`);
        }
      }
      const failures = picked.flatMap((op) => tally(`REST ${op.id}`).failures.map((f) => `${op.id}: ${f}`));
      expect(failures).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    };

  it(
    'REST reads: every route answers 2xx or a useful 4xx problem, never 500',
    restCase((ops) => ops.filter((o) => o.method === 'GET')),
  );
  it(
    'REST writes and decisions: never 500; a rejected write changes nothing',
    restCase((ops) => ops.filter((o) => o.method !== 'GET')),
  );

  it(
    'Kubernetes API: every route answers 2xx or a Status (kind Status, its code, a reason), never 500; a rejected write changes nothing',
    restCase(() => KUBE_OPERATIONS, checkKube),
  );

  it('GraphQL: every query and mutation answers data or client errors, never INTERNAL_SERVER_ERROR; a rejected mutation changes nothing', async () => {
    for (const op of gql.operations.filter((o) => o.kind !== 'subscription')) {
      const t = tally(`GraphQL ${op.id}`);
      const document = gqlDocument(op, gql);
      const variables = fc.record(Object.fromEntries(op.args.map((a) => [a.name, gqlValue(a.type, gql)])), {
        requiredKeys: [],
      });
      if (op.kind === 'mutation') await seed();
      const answered = new Map<string, Answered>();
      await fc.assert(
        fc.asyncProperty(variables, async (vars) => {
          const requestId = `fz-${++requestCounter}`;
          const r = await safely(
            send(url('/graphql'), 'POST', {
              body: { query: document, variables: vars },
              headers: { 'x-request-id': requestId },
              timeoutMs: 15_000,
            }),
          );
          t.inputs++;
          t.statuses[r.status] = (t.statuses[r.status] ?? 0) + 1;
          const failure = checkGraphQL(r);
          if (failure && t.failures.length < 5) t.failures.push(`${failure} ← ${describeInput(vars)}`);
          if (!failure && op.kind === 'mutation' && r.body?.errors?.length)
            answered.set(requestId, {
              rejected: true,
              described: `errors ${JSON.stringify(r.body.errors).slice(0, 200)} ← ${describeInput(vars)}`,
            });
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      if (op.kind === 'mutation') await checkWrites(answered, t);
    }
    const t = tally('GraphQL transport (malformed requests)');
    await fc.assert(
      fc.asyncProperty(transportInputs, contentTypes, fc.boolean(), async (body, contentType, get) => {
        const r =
          get &&
          body.kind === 'json' &&
          body.value &&
          typeof body.value === 'object' &&
          'query' in (body.value as object)
            ? await safely(
                send(url(`/graphql?query=${encodeLenient(String((body.value as { query: unknown }).query))}`), 'GET', {
                  headers: { 'apollo-require-preflight': 'true' },
                }),
              )
            : await safely(
                send(url('/graphql'), 'POST', {
                  body: body.kind === 'json' ? (JSON.stringify(body.value) ?? 'null') : body.value,
                  headers: contentType ? { 'content-type': contentType } : {},
                }),
              );
        t.inputs++;
        t.statuses[r.status] = (t.statuses[r.status] ?? 0) + 1;
        const failure = checkGraphQL(r);
        if (failure && t.failures.length < 5) t.failures.push(`${describeInput(body)} [${contentType}] → ${failure}`);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    const failures = [...tallies]
      .filter(([id]) => id.startsWith('GraphQL'))
      .flatMap(([id, tl]) => tl.failures.map((f) => `${id}: ${f}`));
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
