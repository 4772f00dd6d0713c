import type { TestApp } from '../support/test-app';

/** Small factories for the eviction suites (STYLE habit 9): named stubs for the recurring states. */
export const noExecute = (key: string, seconds?: number) => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}),
});
export const tolerateForever = (key: string) => noExecute(key);

export async function putNode(app: TestApp, name: string, body: Record<string, unknown> = {}): Promise<void> {
  const r = await app.request('PUT', `/v1/nodes/${name}`, { labels: {}, ...body });
  if (r.status !== 201 && r.status !== 200) throw new Error(`PUT node ${name}: ${r.status} ${r.text}`);
}

export async function putPod(
  app: TestApp,
  namespace: string,
  name: string,
  body: Record<string, unknown>,
): Promise<any> {
  const r = await app.request('PUT', `/v1/namespaces/${namespace}/pods/${name}`, body);
  if (r.status !== 201 && r.status !== 200) throw new Error(`PUT pod ${namespace}/${name}: ${r.status} ${r.text}`);
  return r.body;
}

export async function getPod(app: TestApp, namespace: string, name: string): Promise<any> {
  const r = await app.request('GET', `/v1/namespaces/${namespace}/pods/${name}`);
  if (r.status !== 200) throw new Error(`GET pod ${namespace}/${name}: ${r.status} ${r.text}`);
  return r.body;
}

export async function taint(app: TestApp, body: Record<string, unknown>): Promise<any> {
  const r = await app.request('POST', '/v1/taints', body);
  if (r.status !== 200) throw new Error(`POST /v1/taints: ${r.status} ${r.text}`);
  return r.body;
}

export async function evictions(app: TestApp, query = ''): Promise<any[]> {
  const r = await app.request('GET', `/v1/evictions${query ? `?${query}` : ''}`);
  if (r.status !== 200) throw new Error(`GET /v1/evictions: ${r.status} ${r.text}`);
  return r.body.items;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
