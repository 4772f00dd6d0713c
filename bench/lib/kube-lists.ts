import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, listAll } from './http';

/** The Table every `kubectl get` asks for (server-side printing), as client-go sends it. */
const TABLE_ACCEPT =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const KUBECTL = '/usr/bin/kubectl';

export interface KubeListFigures {
  /** `GET /api/v1/nodes` without a limit (an informer's list): ms, items. */
  nodeList: { ms: number; items: number; bytes: number };
  /** `kubectl get nodes` as it pages (Table, --chunk-size 500). */
  nodeTable: { ms: number; rows: number; pages: number };
  /** `kubectl get pods -A`: the real kubectl when installed, else the same paged Table requests. */
  podsAll: { ms: number; rows: number; pages?: number; client: 'kubectl' | 'http' };
  /**
   * The pods the Kubernetes API shows: the inventory's, less those taintwise evicted (gone, as in a cluster), counted
   * before and after the listing (evictions may fall due while it runs).
   */
  podsExpected: { atMost: number; atLeast: number };
}

/** Issue 12's scale figures: the full node list and `kubectl get pods -A` over the whole inventory. */
export async function measureKubeLists(base: string, inventoryPods: number): Promise<KubeListFigures> {
  const list = await http(base, 'GET', '/api/v1/nodes');
  if (list.status !== 200) throw new Error(`GET /api/v1/nodes answered ${list.status}: ${list.text.slice(0, 200)}`);
  const nodeList = { ms: list.ms, items: list.body.items.length as number, bytes: Buffer.byteLength(list.text) };
  const nodeTable = await pagedTable(base, '/api/v1/nodes');
  const evictedBefore = (await listAll(base, '/v1/evictions?status=Executed')).items.length;
  const podsAll = existsSync(KUBECTL)
    ? { ...(await kubectlGetPodsAll(base)), client: 'kubectl' as const }
    : { ...(await pagedTable(base, '/api/v1/pods')), client: 'http' as const };
  const evictedAfter = (await listAll(base, '/v1/evictions?status=Executed')).items.length;
  const podsExpected = { atMost: inventoryPods - evictedBefore, atLeast: inventoryPods - evictedAfter };
  return { nodeList, nodeTable, podsAll, podsExpected };
}

async function pagedTable(base: string, path: string): Promise<{ ms: number; rows: number; pages: number }> {
  const started = performance.now();
  let rows = 0;
  let pages = 0;
  let token = '';
  do {
    const query = `?limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
    const r = await http(base, 'GET', path + query, undefined, { accept: TABLE_ACCEPT });
    if (r.status !== 200) throw new Error(`GET ${path}${query} answered ${r.status}: ${r.text.slice(0, 200)}`);
    rows += r.body.rows.length;
    pages++;
    token = r.body.metadata?.continue ?? '';
  } while (token);
  return { ms: performance.now() - started, rows, pages };
}

/** The machine's kubectl against the bench service (plain http: the bench runs without API keys). */
function kubectlGetPodsAll(base: string): Promise<{ ms: number; rows: number }> {
  const home = mkdtempSync(join(tmpdir(), 'twbench-kubectl-'));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      KUBECTL,
      [`--server=${base}`, `--cache-dir=${join(home, 'cache')}`, 'get', 'pods', '-A', '--no-headers'],
      { env: { PATH: process.env.PATH ?? '', HOME: home }, maxBuffer: 1024 * 1024 * 1024, timeout: 600_000 },
      (error, stdout, stderr) => {
        rmSync(home, { recursive: true, force: true });
        if (error) return reject(new Error(`kubectl get pods -A: ${String(stderr).slice(0, 300) || error.message}`));
        resolve({ ms: performance.now() - started, rows: String(stdout).split('\n').filter(Boolean).length });
      },
    );
  });
}
