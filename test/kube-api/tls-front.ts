import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { selfSignedLoopbackCertificate } from '../support/self-signed';

/**
 * kubectl sends a kubeconfig's credentials only to an https server (client-go clientcmd reads user
 * auth only when the transport is TLS), so the tests put a TLS front before the test app, as a
 * deployment puts an ingress: a self-signed certificate for 127.0.0.1 made by openssl, which the
 * kubeconfig trusts as its certificate authority, and every connection piped to the app's port.
 */
export class TlsFront {
  private constructor(
    private readonly server: Server,
    private readonly dir: string,
    readonly url: string,
    /** PEM of the self-signed certificate (the kubeconfig's certificate-authority-data). */
    readonly caPem: string,
  ) {}

  static async start(appUrl: string): Promise<TlsFront> {
    const dir = mkdtempSync(join(tmpdir(), 'tw-tls-'));
    const { key, cert } = selfSignedLoopbackCertificate(dir);
    const target = new URL(appUrl);
    const server = createServer({ key, cert }, (socket) => {
      const upstream = connect(Number(target.port), target.hostname);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
      socket.on('close', () => upstream.destroy());
      upstream.on('close', () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return new TlsFront(server, dir, `https://127.0.0.1:${port}`, cert);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
