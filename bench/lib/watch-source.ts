import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

type Obj = Record<string, any>;

/**
 * A minimal Kubernetes API for the mirror's watch-lag scenario: lists of nodes and pods (limit/continue) and a
 * pod watch that streams MODIFIED events at a fixed rate. The second taintwise (the bench's service) cannot
 * produce 1,000 watch events/s on demand on this machine while the mirror runs beside it, so this source
 * does; the initial-sync scenario uses the real service.
 */
export class WatchSource {
  private version = 1000;
  private readonly streams = new Set<ServerResponse>();
  readonly nodes: Obj[] = [];
  readonly pods: Obj[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(nodes: number, pods: number): Promise<WatchSource> {
    let self: WatchSource | undefined = undefined;
    const server = createServer((req, res) => self!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    self = new WatchSource(server, `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    for (let i = 0; i < nodes; i++)
      self.nodes.push({
        metadata: { name: `w-node-${i}`, resourceVersion: self.next() },
        spec: {},
        status: { allocatable: { cpu: '64', memory: '256Gi', pods: '110' } },
      });
    for (let i = 0; i < pods; i++)
      self.pods.push({
        metadata: {
          namespace: 'watch',
          name: `w-pod-${i}`,
          uid: `w-uid-${i}`,
          resourceVersion: self.next(),
          labels: { gen: '0' },
          creationTimestamp: '2026-11-20T10:00:00Z',
        },
        spec: { nodeName: `w-node-${i % nodes}`, containers: [{ name: 'c', image: 'x' }] },
        status: { phase: 'Running', startTime: '2026-11-20T10:00:01Z' },
      });
    return self;
  }

  get watching(): number {
    return this.streams.size;
  }

  /** `rate` MODIFIED pod events per second for `seconds`, in 10 ms ticks; answers how many were sent. */
  async stream(rate: number, seconds: number): Promise<number> {
    const started = performance.now();
    let sent = 0;
    const total = Math.round(rate * seconds);
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      let lines = '';
      for (; sent < due; sent++) {
        const pod = this.pods[sent % this.pods.length];
        pod.metadata = { ...pod.metadata, resourceVersion: this.next(), labels: { gen: String(sent) } };
        lines += JSON.stringify({ type: 'MODIFIED', object: { kind: 'Pod', apiVersion: 'v1', ...pod } }) + '\n';
      }
      if (lines) for (const s of this.streams) s.write(lines);
      await new Promise((r) => setTimeout(r, 10));
    }
    return sent;
  }

  async close(): Promise<void> {
    for (const s of this.streams) s.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private next(): string {
    this.version += 1;
    return String(this.version);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.url);
    const q = url.searchParams;
    const list =
      url.pathname === '/api/v1/nodes'
        ? this.nodes
        : url.pathname === '/api/v1/pods'
          ? this.pods
          : url.pathname === '/apis/policy/v1/poddisruptionbudgets'
            ? []
            : undefined;
    if (!list) {
      res.writeHead(404).end();
      return;
    }
    if (q.get('watch') === 'true') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      if (url.pathname === '/api/v1/pods') {
        this.streams.add(res);
        res.on('close', () => this.streams.delete(res));
      }
      return;
    }
    const start = Number(q.get('continue') ?? 0);
    const limit = Number(q.get('limit') ?? list.length) || list.length;
    const next = start + limit < list.length ? String(start + limit) : undefined;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        kind: 'List',
        apiVersion: 'v1',
        metadata: { resourceVersion: String(this.version), ...(next ? { continue: next } : {}) },
        items: list.slice(start, start + limit),
      }),
    );
  }
}
