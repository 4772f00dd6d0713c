import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkWebhookUrl, refusedAddress } from './url-policy';

/** Bytes of a receiver's answer read at most (the answer is not kept; only its status counts). */
export const RESPONSE_LIMIT_BYTES = 4096;

export interface AttemptResult {
  ok: boolean;
  statusCode?: number;
  latencyMs: number;
  error?: string;
}

/** An address refused at connect time (DNS rebinding): the lookup fails with this. */
class RefusedAddressError extends Error {
  readonly code = 'EWEBHOOKREFUSED';
}

/**
 * One HTTP POST per attempt (issue 15, "Safety"): keep-alive connections, the URL policy applied to the
 * address the connection actually uses (an IP literal before connecting, every resolved address of a
 * host name inside the socket's DNS lookup), no redirects (node's client follows none: a 3xx is an
 * answer that is not 2xx), an answer read to {@link RESPONSE_LIMIT_BYTES}, the whole attempt bounded by
 * `timeoutMs`.
 */
export class WebhookSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: { timeoutMs: number; allowPrivate: boolean }) {
    const lookup = this.checkedLookup;
    this.httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64, lookup } as http.AgentOptions);
    this.httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 64, lookup } as https.AgentOptions);
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  send(rawUrl: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    const verdict = checkWebhookUrl(rawUrl, this.options.allowPrivate);
    if ('reason' in verdict) return Promise.resolve({ ok: false, latencyMs: 0, error: `refused: ${verdict.reason}` });
    const url = verdict.url;
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<AttemptResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, latencyMs: elapsed() });
      };
      const payload = Buffer.from(body, 'utf8');
      const request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST',
        agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': 'taintwise-webhooks/1',
        },
      });
      const timer = setTimeout(
        () => request.destroy(new Error(`timed out after ${this.options.timeoutMs / 1000} s`)),
        this.options.timeoutMs,
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        finish({
          ok: false,
          error: error instanceof RefusedAddressError ? `refused: ${error.message}` : error.message,
        });
      });
      request.on('response', (response) => {
        const statusCode = response.statusCode ?? 0;
        let read = 0;
        const done = () => finish({ ok: statusCode >= 200 && statusCode < 300, statusCode, ...errorFor(statusCode) });
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_LIMIT_BYTES) {
            // Enough: the rest is not read (the connection is closed instead of reused).
            response.destroy();
            done();
          }
        });
        response.on('end', done);
        response.on('error', () => done());
        response.on('close', done);
      });
      request.end(payload);
    });
  }

  /** The socket's DNS lookup, refusing every address the policy refuses (checked at each new connection). */
  private readonly checkedLookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      for (const a of addresses) {
        const reason = refusedAddress(a.address, this.options.allowPrivate);
        if (reason) return callback(new RefusedAddressError(`${hostname} resolves to ${reason}`), '', 0);
      }
      if (addresses.length === 0) return callback(new Error(`${hostname} does not resolve`), '', 0);
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function errorFor(statusCode: number): { error?: string } {
  if (statusCode >= 200 && statusCode < 300) return {};
  if (statusCode >= 300 && statusCode < 400) return { error: `HTTP ${statusCode} (redirects are not followed)` };
  return { error: `HTTP ${statusCode}` };
}

/**
 * Registration-time check of a URL (422 reasons): the shape and, for a host name, every address it
 * resolves to now. Delivery checks again at each connection (the address may change).
 */
export async function refusedWebhookUrl(rawUrl: string, allowPrivate: boolean): Promise<string | undefined> {
  const verdict = checkWebhookUrl(rawUrl, allowPrivate);
  if ('reason' in verdict) return verdict.reason;
  if (verdict.literalAddress) return undefined;
  const host = verdict.url.hostname;
  const addresses = await new Promise<LookupAddress[] | Error>((resolve) =>
    dnsLookup(host, { all: true }, (error, found) => resolve(error ?? found)),
  );
  if (addresses instanceof Error || addresses.length === 0) return `${host} does not resolve`;
  for (const a of addresses) {
    const reason = refusedAddress(a.address, allowPrivate);
    if (reason) return `${host} resolves to ${reason}`;
  }
  return undefined;
}
