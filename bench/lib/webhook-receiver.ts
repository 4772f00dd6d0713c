import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One webhook message as a receiver saw it: when it arrived (performance.now()) and what it carried. */
export interface ArrivedMessage {
  webhookId: string;
  arrivedAt: number;
  type: string;
  requestId: string | null;
}

/**
 * A healthy webhook receiver on loopback for the bench (issue 15): answers every POST 200 at once and
 * records its arrival. Parsing the body is the only work, as a receiver that queues messages would do.
 */
export class BenchWebhookReceiver {
  readonly messages: ArrivedMessage[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        const arrivedAt = performance.now();
        try {
          const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { type: string; requestId?: string | null };
          this.messages.push({
            webhookId: String(req.headers['webhook-id']),
            arrivedAt,
            type: body.type,
            requestId: body.requestId ?? null,
          });
        } catch {
          // not ours
        }
        res.statusCode = 200;
        res.end();
      });
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  }
}
