import type { Role } from '../../src/kernel/auth/roles';
import type { TestApp } from './test-app';

/**
 * The API surface as the service itself publishes it — REST operations from `/docs-json` and
 * GraphQL fields from introspection — so the security suites cover routes added later without
 * being edited.
 */

export interface RestOperation {
  method: string;
  /** OpenAPI template, e.g. `/v1/nodes/{name}` */
  path: string;
  pathParams: string[];
  queryParams: string[];
  hasBody: boolean;
  /** `x-required-role` (RequiresRole), `viewer` when absent. */
  requiredRole: Role;
  /** SSE and other streams: read the status, then hang up. */
  streaming: boolean;
  id: string;
}

export async function restOperations(app: TestApp, headers: Record<string, string> = {}): Promise<RestOperation[]> {
  const doc = await app.request('GET', '/docs-json', undefined, headers);
  if (doc.status !== 200) throw new Error(`GET /docs-json answered ${doc.status}: ${doc.text.slice(0, 200)}`);
  const ops: RestOperation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.body.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
      const params: any[] = [...(item.parameters ?? []), ...(op.parameters ?? [])];
      const produces = Object.keys(op.responses?.['200']?.content ?? {});
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        hasBody: Boolean(op.requestBody) || ['put', 'post', 'patch'].includes(method),
        requiredRole: (op['x-required-role'] as Role | undefined) ?? 'viewer',
        streaming: produces.includes('text/event-stream') || (/\/v1\/events$/.test(path) && method === 'get'),
        id: `${method.toUpperCase()} ${path}`,
      });
    }
  }
  return ops;
}

/** A concrete URL for an operation: path parameters filled in (URL-encoded) and an optional query. */
export function fillPath(
  op: RestOperation,
  values: Record<string, string> | ((name: string) => string),
  query?: Record<string, string>,
): string {
  const valueOf = typeof values === 'function' ? values : (name: string) => values[name] ?? 'probe';
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeLenient(valueOf(name)));
  const qs = query && Object.keys(query).length ? `?${new URLSearchParams(query).toString()}` : '';
  return path + qs;
}

/** encodeURIComponent that also takes lone surrogates (sent as U+FFFD, as a browser would). */
export function encodeLenient(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));
  }
}

export interface RawResult {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/**
 * One HTTP exchange with a deadline; a streaming answer (SSE, or a Kubernetes API watch that was accepted) is read
 * only up to its headers.
 * `body` may be any string (sent as is) or a value (sent as JSON).
 */
export async function send(
  url: string,
  method: string,
  options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RawResult> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`${method} ${url} took longer than ${options.timeoutMs ?? 10_000} ms`)),
    options.timeoutMs ?? 10_000,
  );
  try {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let body: string | Buffer | undefined;
    if (options.body !== undefined) {
      if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body as string | Buffer;
      else {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const response = await fetch(url, { method, headers, body, signal: controller.signal });
    const kubeWatch = response.status === 200 && /[?&]watch=(1|true)(&|$)/.test(url);
    if (kubeWatch || (response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      controller.abort();
      return { status: response.status, headers: response.headers, text: '', body: undefined };
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------- GraphQL

export interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

export interface GraphQLOperation {
  kind: 'query' | 'mutation' | 'subscription';
  name: string;
  args: Array<{ name: string; type: TypeRef; defaultValue: string | null }>;
  type: TypeRef;
  id: string;
}

export interface GraphQLSurface {
  operations: GraphQLOperation[];
  types: Map<string, any>;
}

const TYPE_REF =
  'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } }';
const INTROSPECTION = `{ __schema {
  queryType { name } mutationType { name } subscriptionType { name }
  types { kind name
    fields { name type { ${TYPE_REF} } args { name defaultValue type { ${TYPE_REF} } } }
    inputFields { name defaultValue type { ${TYPE_REF} } }
    enumValues { name }
  } } }`;

export async function graphqlSurface(app: TestApp, headers: Record<string, string> = {}): Promise<GraphQLSurface> {
  const r = await app.graphql(INTROSPECTION, undefined, headers);
  if (r.status !== 200 || !r.body.data) throw new Error(`introspection failed: ${r.status} ${r.text.slice(0, 300)}`);
  const schema = r.body.data.__schema;
  const types = new Map<string, any>(schema.types.map((t: any) => [t.name, t]));
  const operations: GraphQLOperation[] = [];
  for (const [kind, root] of [
    ['query', schema.queryType],
    ['mutation', schema.mutationType],
    ['subscription', schema.subscriptionType],
  ] as const) {
    if (!root) continue;
    for (const f of types.get(root.name).fields ?? []) {
      operations.push({ kind, name: f.name, args: f.args, type: f.type, id: `${kind} ${f.name}` });
    }
  }
  return { operations, types };
}

export function typeName(ref: TypeRef): string {
  if (ref.kind === 'NON_NULL') return `${typeName(ref.ofType!)}!`;
  if (ref.kind === 'LIST') return `[${typeName(ref.ofType!)}]`;
  return ref.name!;
}

export function namedType(ref: TypeRef): TypeRef {
  return ref.ofType ? namedType(ref.ofType) : ref;
}

/** `query Op($a: T!) { field(a: $a) { __typename } }`: every argument a variable, the smallest selection. */
export function operationDocument(op: GraphQLOperation, surface: GraphQLSurface, args = op.args): string {
  const vars = args.map((a) => `$${a.name}: ${typeName(a.type)}`).join(', ');
  const call = args.length ? `(${args.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  const named = surface.types.get(namedType(op.type).name!);
  const selection = ['OBJECT', 'INTERFACE', 'UNION'].includes(named?.kind) ? ' { __typename }' : '';
  return `${op.kind} Probe${vars ? `(${vars})` : ''} { ${op.name}${call}${selection} }`;
}

/** The smallest well-typed value for each required argument (to get past validation to the resolver). */
export function minimalVariables(op: GraphQLOperation, surface: GraphQLSurface): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (const a of op.args) {
    if (a.type.kind === 'NON_NULL' && a.defaultValue === null) vars[a.name] = minimalValue(a.type, surface);
  }
  return vars;
}

export function minimalValue(ref: TypeRef, surface: GraphQLSurface): unknown {
  if (ref.kind === 'NON_NULL') return minimalValue(ref.ofType!, surface);
  if (ref.kind === 'LIST') return [];
  const t = surface.types.get(ref.name!);
  if (t?.kind === 'ENUM') return t.enumValues[0].name;
  if (t?.kind === 'INPUT_OBJECT') {
    const out: Record<string, unknown> = {};
    for (const f of t.inputFields)
      if (f.type.kind === 'NON_NULL' && f.defaultValue === null) out[f.name] = minimalValue(f.type, surface);
    return out;
  }
  switch (ref.name) {
    case 'Int':
    case 'Float':
      return 1;
    case 'Boolean':
      return false;
    case 'DateTime':
      return new Date(0).toISOString();
    case 'JSON':
    case 'JSONObject':
      return {};
    default:
      return 'probe';
  }
}

/** API.md's role policy, from the operation alone (what each route or field SHOULD require). */
export function expectedRestRole(method: string, path: string): Role {
  if (/\/v1\/(audit|events\/history)/.test(path)) return 'admin';
  if (method === 'GET') return 'viewer';
  if (path.startsWith('/v1/decisions/')) return 'viewer';
  if (path === '/v1/import' || (path === '/v1/nodes/{name}' && (method === 'PUT' || method === 'DELETE')))
    return 'admin';
  return 'operator';
}

export function expectedGraphQLRole(op: Pick<GraphQLOperation, 'kind' | 'name'>): Role {
  if (/audit|history/i.test(op.name) && /event|audit/i.test(op.name)) return 'admin';
  if (op.kind !== 'mutation') return 'viewer';
  if (/^(put|upsert|create|replace|delete|remove)Node$|^import/i.test(op.name)) return 'admin';
  return 'operator';
}
