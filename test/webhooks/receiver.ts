import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
    eventId: string;
    subject: { kind: string; name: string };
    actor: string;
    requestId: string | null;
  };
  at: number;
  status: number;
}

/**
 * A real webhook receiver: a node:http server on loopback that records every request and answers
 * with `respond(request, n)` (the status; default 200), optionally after `delayMs`.
 */
export class Receiver {
  readonly received: Received[] = [];
  respond: (r: Omit<Received, 'status'>, n: number) => number = () => 200;
  delayMs = 0;
  private server?: Server;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  port = 0;

  /** Starts on `port` (0: any free one). */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const base = {
          id: String(req.headers['webhook-id']),
          timestamp: String(req.headers['webhook-timestamp']),
          signature: String(req.headers['webhook-signature']),
          headers: req.headers,
          body,
          json: JSON.parse(body) as Received['json'],
          at: Date.now(),
        };
        const status = this.respond(base, this.received.length);
        this.received.push({ ...base, status });
        const answer = () => {
          res.statusCode = status;
          res.end('ok');
        };
        if (this.delayMs) setTimeout(answer, this.delayMs);
        else answer();
      });
    });
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((ok) => this.server!.listen(port, '127.0.0.1', ok));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  }

  ofType(type: string): Received[] {
    return this.received.filter((r) => r.json.type === type);
  }

  about(name: string): Received[] {
    return this.received.filter((r) => r.json.subject.name === name);
  }
}

/** Polls until `check` returns a value (not undefined/false) or the time runs out. */
export async function waitFor<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
