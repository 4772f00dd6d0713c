import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { selfSignedLoopbackCertificate } from '../support/self-signed';

/**
 * The "cluster" address a mirror's kubeconfig names: a TLS front (client-node, like client-go, sends a bearer
 * token only over https) made with openssl, piping every connection to the cluster app. `retarget` points it at
 * another app (the cluster restarted on a new port: to the mirror it is the same address); `cut` drops every open
 * connection (a watch closed mid-stream) without stopping the listener.
 */
export class ClusterFront {
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private readonly dir: string,
    private target: URL,
    readonly url: string,
    readonly caPem: string,
  ) {}

  static async start(appUrl: string): Promise<ClusterFront> {
    const dir = mkdtempSync(join(tmpdir(), 'tw-mirror-tls-'));
    const { key, cert } = selfSignedLoopbackCertificate(dir);
    let front: ClusterFront | undefined = undefined;
    const server = createServer({ key, cert }, (socket) => {
      const target = front!.target;
      const upstream = connect(Number(target.port), target.hostname);
      front!.sockets.add(socket);
      front!.sockets.add(upstream);
      const drop = () => {
        socket.destroy();
        upstream.destroy();
        front!.sockets.delete(socket);
        front!.sockets.delete(upstream);
      };
      socket.pipe(upstream).pipe(socket);
      socket.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    front = new ClusterFront(server, dir, new URL(appUrl), `https://127.0.0.1:${port}`, cert);
    return front;
  }

  /** New connections go to this app from now on. */
  retarget(appUrl: string): void {
    this.target = new URL(appUrl);
  }

  /** Drops every open connection (watches end mid-stream); the listener stays. */
  cut(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  /** A kubeconfig naming this front, its CA and a bearer token, as kubectl reads one; answers its path. */
  writeKubeconfig(token: string, context = 'cluster'): string {
    const path = join(this.dir, `kubeconfig-${Math.random().toString(36).slice(2)}`);
    writeFileSync(
      path,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: cluster',
        `  cluster: { server: "${this.url}", certificate-authority-data: "${Buffer.from(this.caPem).toString('base64')}" }`,
        'users:',
        '- name: mirror',
        `  user: { token: "${token}" }`,
        'contexts:',
        '- name: other',
        '  context: { cluster: cluster, user: nobody }',
        `- name: ${context}`,
        '  context: { cluster: cluster, user: mirror }',
        'current-context: other',
        '',
      ].join('\n'),
    );
    return path;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
