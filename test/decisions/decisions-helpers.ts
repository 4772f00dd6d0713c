import { createHash } from 'node:crypto';
import type { Database } from '../../src/kernel/persistence/database';
import { DATABASE } from '../../src/kernel/tokens';
import { startTestApp, type TestApp } from '../support/test-app';

/** PUT a node (admin) and fail loudly if the inventory refused it. */
export async function putNode(
  app: TestApp,
  name: string,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<void> {
  const r = await app.request('PUT', `/v1/nodes/${name}`, { name, ...body }, headers);
  if (r.status !== 201 && r.status !== 200) throw new Error(`PUT node ${name}: ${r.status} ${r.text}`);
}

/** PUT a pod (pending, or bound on create with `nodeName`). */
export async function putPod(
  app: TestApp,
  namespace: string,
  name: string,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<void> {
  const r = await app.request('PUT', `/v1/namespaces/${namespace}/pods/${name}`, body, headers);
  if (r.status !== 201 && r.status !== 200) throw new Error(`PUT pod ${namespace}/${name}: ${r.status} ${r.text}`);
}

/** What a decision must never change: event and eviction rows, and every node's resourceVersion. */
export async function writtenState(
  app: TestApp,
): Promise<{ events: number; evictions: number; nodes: Record<string, string> }> {
  const database = app.app.get<Database>(DATABASE);
  const [events, evictions] = await Promise.all([database.prisma.event.count(), database.prisma.eviction.count()]);
  const list = await app.request('GET', '/v1/nodes?limit=1000');
  const nodes = Object.fromEntries(
    (list.body.items as Array<{ name: string; resourceVersion: string }>).map((n) => [n.name, n.resourceVersion]),
  );
  return { events, evictions, nodes };
}

/** GraphQL answers carry `null` where REST leaves a field out: drop them to compare the two. */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutNulls) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    ) as T;
  }
  return value;
}

/** An API_KEYS entry and the header that presents the key. */
export interface TestApiKey {
  entry: string;
  headers: Record<string, string>;
}

function apiKey(name: string, role: 'viewer' | 'operator' | 'admin'): TestApiKey {
  const key = `tw-test-${name}-${role}-key`;
  return {
    entry: `${name}:${role}:${createHash('sha256').update(key).digest('hex')}`,
    headers: { authorization: `Bearer ${key}` },
  };
}

/**
 * An embedded app with an admin key and a viewer key, whose explanations are redacted below operator
 * (REDACT_TAINTS_BELOW_ROLE, SEMANTICS A.2): what the viewer sees differs from what the admin sees.
 */
export async function startRedactingApp(): Promise<{ app: TestApp; admin: TestApiKey; viewer: TestApiKey }> {
  const admin = apiKey('ada', 'admin');
  const viewer = apiKey('vic', 'viewer');
  const app = await startTestApp('embedded', {
    env: { API_KEYS: `${admin.entry},${viewer.entry}`, REDACT_TAINTS_BELOW_ROLE: 'operator' },
  });
  return { app, admin, viewer };
}
