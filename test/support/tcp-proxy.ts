import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A fault-injecting TCP proxy for tests: listens on 127.0.0.1 (an ephemeral port), forwards every
 * connection to the target. `cut()` destroys every open connection and refuses new ones (the port
 * stops listening: ECONNREFUSED, as a crashed server); `restore()` listens again on the same port.
 * The shared PostgreSQL and Redis servers are never touched: only this process's path to them.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private listenPort = 0;
  /** Connections accepted since start (for assertions that clients reconnected). */
  accepted = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static async start(target: { host?: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target.host ?? '127.0.0.1', target.port);
    await proxy.listen();
    return proxy;
  }

  get port(): number {
    return this.listenPort;
  }

  get isCut(): boolean {
    return this.server === undefined;
  }

  /** Drops every connection at once and refuses new ones until restore(). */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    if (!this.server) await this.listen();
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private listen(): Promise<void> {
    const server = createServer((client) => {
      this.accepted++;
      const upstream = createConnection({ host: this.targetHost, port: this.targetPort });
      this.sockets.add(client);
      this.sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.listenPort, '127.0.0.1', () => {
        server.off('error', reject);
        this.listenPort = (server.address() as { port: number }).port;
        this.server = server;
        resolve();
      });
    });
  }
}
