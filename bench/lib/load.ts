import { summarize, type Summary } from './stats';

// autocannon ships no types; the programmatic API is small.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon: any = require('autocannon');

export interface LoadRequest {
  method: 'POST' | 'GET';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** When set, the n-th request sent (over the whole run) carries this body instead of `body`. */
  distinctBody?: (n: number) => string;
}

export interface LoadOptions {
  url: string;
  requests: LoadRequest[];
  connections: number;
  durationSec: number;
  warmupSec: number;
  /** CPU seconds used so far by the server process (for CPU ms per request, independent of the machine's load). */
  serverCpu?: () => number;
  /** Called when the measured run starts (after the warm-up, if there is one). */
  onWarmed?: () => void;
  /** Also return every measured latency (experiments that set them beside other events). */
  keepSamples?: boolean;
}

export interface LoadResult {
  connections: number;
  durationSec: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Successful requests per second over the measured window. */
  rps: number;
  /** Latency in ms of every response (measured by autocannon per response, not its rounded histogram). */
  latencyMs: Summary;
  bytesPerResponse: number;
  /** Server CPU time per successful request, and the rate that would give on one fully available core. */
  serverCpuMsPerRequest?: number;
  perCoreCapacityRps?: number;
  /** Every measured latency in ms, in arrival order (only with `keepSamples`). */
  samples?: number[];
}

/** Requests sent with a `distinctBody` so far, over every run of this process: never the same body twice. */
let sent = 0;

function once(options: LoadOptions, durationSec: number, record: boolean): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const statusCodes: Record<string, number> = {};
    let ok = 0;
    let bytes = 0;
    const started = performance.now();
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: durationSec,
        timeout: 30,
        requests: options.requests.map((r) => ({
          method: r.method,
          path: r.path,
          body: r.body,
          headers: { 'content-type': 'application/json', ...(r.headers ?? {}) },
          ...(r.distinctBody
            ? { setupRequest: (req: Record<string, unknown>) => ({ ...req, body: r.distinctBody!(sent++) }) }
            : {}),
        })),
      },
      (err: Error | null, result: any) => {
        if (err) return reject(err);
        const elapsed = (performance.now() - started) / 1000;
        resolve({
          connections: options.connections,
          durationSec: Math.round(elapsed * 10) / 10,
          requests: Object.values(statusCodes).reduce((s, n) => s + n, 0),
          ok,
          non2xx: result.non2xx ?? 0,
          errors: result.errors ?? 0,
          timeouts: result.timeouts ?? 0,
          statusCodes,
          rps: ok / elapsed,
          latencyMs: summarize(latencies),
          bytesPerResponse: ok ? bytes / ok : 0,
          ...(options.keepSamples ? { samples: latencies } : {}),
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, resBytes: number, responseTime: number) => {
      statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) {
        ok++;
        bytes += resBytes;
        if (record) latencies.push(responseTime);
      }
    });
  });
}

/** A warm-up run (discarded), then the measured run at fixed concurrency. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSec > 0) await once(options, options.warmupSec, false);
  options.onWarmed?.();
  const cpuBefore = options.serverCpu?.();
  const result = await once(options, options.durationSec, true);
  const cpuAfter = options.serverCpu?.();
  if (cpuBefore !== undefined && cpuAfter !== undefined && Number.isFinite(cpuAfter - cpuBefore) && result.ok > 0) {
    result.serverCpuMsPerRequest = ((cpuAfter - cpuBefore) * 1000) / result.ok;
    result.perCoreCapacityRps = 1000 / result.serverCpuMsPerRequest;
  }
  return result;
}
