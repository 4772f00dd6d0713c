import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Obj = Record<string, any>;
type Resource = 'nodes' | 'pods' | 'budgets';

const PATHS: Record<string, Resource> = {
  '/api/v1/nodes': 'nodes',
  '/api/v1/pods': 'pods',
  '/apis/policy/v1/poddisruptionbudgets': 'budgets',
};

/**
 * A small scripted Kubernetes API server, ONLY for what the second taintwise cannot produce on demand: a slow
 * list, bookmarks, a watch closed mid-stream, 410 Gone (as an ERROR event in the stream, or as the answer when a
 * watch opens). It speaks the API's wire contract for chunked lists (`limit`/`continue`, `metadata.resourceVersion`)
 * and watches (one JSON event per line; ADDED/MODIFIED/DELETED/BOOKMARK/ERROR), over plain http with no
 * credentials (client-node allows that), and records every watch request it gets.
 */
export class ScriptedCluster {
  readonly objects: Record<Resource, Map<string, Obj>> = { nodes: new Map(), pods: new Map(), budgets: new Map() };
  private version = 100;
  /** A list answers after this long (a slow list). */
  listDelayMs = 0;
  /** The next watch opens of a resource are answered 410 Gone (an HTTP answer, before the stream). */
  readonly goneOnOpen: Record<Resource, number> = { nodes: 0, pods: 0, budgets: 0 };
  readonly watchRequests: Array<{ resource: Resource; resourceVersion: string | null; bookmarks: boolean }> = [];
  /** Node PATCHes accepted (acceptWithoutWatch). */
  readonly patchRequests: string[] = [];
  readonly listRequests: Array<{ resource: Resource; limit: string | null; continue: string | null }> = [];
  private readonly open = new Set<{ resource: Resource; res: ServerResponse }>();
  /**
   * Every change sent (ADDED/MODIFIED/DELETED), with its resourceVersion: a watch that opens from a version is sent
   * the changes after it first, as the API server's watch cache does. Without this, a change made while the
   * mirror's watch was reconnecting (after cutWatches, a 410, a backoff) would be lost for good, which no real
   * server does; only `forget` and direct edits of `objects` model what a watch misses.
   */
  private readonly history: Array<{ resource: Resource; version: number; line: string }> = [];
  private readonly dir = mkdtempSync(join(tmpdir(), 'tw-scripted-'));

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<ScriptedCluster> {
    let self: ScriptedCluster | undefined = undefined;
    const server = createServer((req, res) => void self!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    self = new ScriptedCluster(server, `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    return self;
  }

  /** A kubeconfig naming this server, with no credentials. */
  kubeconfig(): string {
    const path = join(this.dir, 'kubeconfig');
    writeFileSync(
      path,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        `- name: scripted`,
        // client-node refuses plain http unless the kubeconfig says insecure-skip-tls-verify
        `  cluster: { server: "${this.url}", insecure-skip-tls-verify: true }`,
        'users:',
        '- name: anonymous',
        '  user: {}',
        'contexts:',
        '- name: scripted',
        '  context: { cluster: scripted, user: anonymous }',
        'current-context: scripted',
        '',
      ].join('\n'),
    );
    return path;
  }

  nextVersion(): string {
    this.version += 1;
    return String(this.version);
  }

  get currentVersion(): string {
    return String(this.version);
  }

  node(name: string, taints: Obj[] = []): Obj {
    return {
      kind: 'Node',
      apiVersion: 'v1',
      metadata: { name, resourceVersion: this.nextVersion(), creationTimestamp: '2026-11-20T10:00:00Z' },
      spec: taints.length ? { taints } : {},
      status: { allocatable: { cpu: '64', memory: '256Gi', pods: '5000' } },
    };
  }

  pod(namespace: string, name: string, nodeName: string): Obj {
    return {
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        name,
        namespace,
        uid: `uid-${namespace}-${name}`,
        resourceVersion: this.nextVersion(),
        creationTimestamp: '2026-11-20T10:00:00Z',
      },
      spec: { nodeName, containers: [{ name: 'c', image: 'x' }] },
      status: { phase: 'Running', startTime: '2026-11-20T10:00:01Z' },
    };
  }

  /**
   * A node PATCH the server accepts (200, a new resourceVersion) but whose change its watches never deliver: a stuck
   * watch, what a write-through waits for in vain. The stored node is not changed.
   */
  private async acceptWithoutWatch(req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
    for await (const _chunk of req) {
      // the patch itself is not applied
    }
    const node = this.objects.nodes.get(name);
    if (!node) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound' }));
      return;
    }
    this.patchRequests.push(name);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...node, metadata: { ...node.metadata, resourceVersion: this.nextVersion() } }));
  }

  /** Stores the object and tells the open watches of its resource. */
  put(resource: Resource, object: Obj, type: 'ADDED' | 'MODIFIED' = 'ADDED'): void {
    this.objects[resource].set(keyOf(object), object);
    this.send(resource, { type, object });
  }

  remove(resource: Resource, key: string): void {
    const object = this.objects[resource].get(key);
    if (!object) return;
    this.objects[resource].delete(key);
    this.send(resource, {
      type: 'DELETED',
      object: { ...object, metadata: { ...object.metadata, resourceVersion: this.nextVersion() } },
    });
  }

  /** Removes objects without telling anyone (what a watch misses while it is gone). */
  forget(resource: Resource, key: string): void {
    this.objects[resource].delete(key);
  }

  bookmark(resource: Resource): string {
    const resourceVersion = this.nextVersion();
    this.send(resource, {
      type: 'BOOKMARK',
      object: { kind: 'Node', apiVersion: 'v1', metadata: { resourceVersion } },
    });
    return resourceVersion;
  }

  /** 410 Gone as the stream's last event (the API server's "too old resource version"). */
  expire(resource: Resource): void {
    this.send(resource, {
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        message: 'too old resource version: 1 (100)',
        reason: 'Expired',
        code: 410,
      },
    });
  }

  /** Destroys every open watch connection mid-stream. */
  cutWatches(): void {
    for (const w of this.open) w.res.socket?.destroy();
    this.open.clear();
  }

  get openWatches(): number {
    return this.open.size;
  }

  send(resource: Resource, event: Obj): void {
    const line = JSON.stringify(event) + '\n';
    const version = Number(event.object?.metadata?.resourceVersion);
    if (['ADDED', 'MODIFIED', 'DELETED'].includes(event.type) && Number.isFinite(version))
      this.history.push({ resource, version, line });
    for (const w of this.open) if (w.resource === resource) w.res.write(line);
  }

  async close(): Promise<void> {
    this.cutWatches();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const patched = /^\/api\/v1\/nodes\/([^/]+)$/.exec(url.pathname);
    if (patched && req.method === 'PATCH') return this.acceptWithoutWatch(req, res, decodeURIComponent(patched[1]));
    const resource = PATHS[url.pathname];
    if (!resource || req.method !== 'GET') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound' }));
      return;
    }
    const q = url.searchParams;
    if (q.get('watch') === 'true' || q.get('watch') === '1') {
      this.watchRequests.push({
        resource,
        resourceVersion: q.get('resourceVersion'),
        bookmarks: q.get('allowWatchBookmarks') === 'true',
      });
      if (this.goneOnOpen[resource] > 0) {
        this.goneOnOpen[resource] -= 1;
        res.writeHead(410, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410, reason: 'Expired' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.flushHeaders();
      // the changes after the version the watch resumes from (none when it opens from a list's version)
      const from = Number(q.get('resourceVersion'));
      if (Number.isFinite(from) && from > 0)
        for (const h of this.history) if (h.resource === resource && h.version > from) res.write(h.line);
      const entry = { resource, res };
      this.open.add(entry);
      res.on('close', () => this.open.delete(entry));
      return;
    }
    this.listRequests.push({ resource, limit: q.get('limit'), continue: q.get('continue') });
    if (this.listDelayMs > 0) await new Promise((r) => setTimeout(r, this.listDelayMs));
    const all = [...this.objects[resource].values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
    const start = Number(q.get('continue') ?? 0);
    const limit = Number(q.get('limit') ?? all.length) || all.length;
    const items = all.slice(start, start + limit);
    const next = start + limit < all.length ? String(start + limit) : undefined;
    const kind = resource === 'nodes' ? 'NodeList' : resource === 'pods' ? 'PodList' : 'PodDisruptionBudgetList';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        kind,
        apiVersion: resource === 'budgets' ? 'policy/v1' : 'v1',
        metadata: { resourceVersion: this.currentVersion, ...(next ? { continue: next } : {}) },
        items: items.map((i) => {
          // list items do not carry kind/apiVersion in a real API server's answer
          const { kind: _k, apiVersion: _a, ...rest } = i;
          return rest;
        }),
      }),
    );
  }
}

function keyOf(o: Obj): string {
  return o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : o.metadata.name;
}
