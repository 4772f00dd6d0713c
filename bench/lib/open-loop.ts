/**
 * An open-loop load: requests leave at a fixed rate whatever the service does, and each latency is
 * counted from the request's SCHEDULED send time, so a stall of the service shows in full on every
 * request that should have left during it (no coordinated omission, unlike a closed loop where a slow
 * answer delays the next request and hides the queue). node:http over a keep-alive Agent without a
 * socket limit: the sender never waits for a free connection (the peak of requests in flight says how
 * many connections the service held open).
 */
import { Agent, request } from 'node:http';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { summarize, type Summary } from './stats';

export interface OpenLoopOptions {
  url: string;
  path: string;
  /** The n-th request's body (never repeated: the service's answer cache must not answer). */
  body: (n: number) => string;
  ratePerSec: number;
  durationSec: number;
  /** A request not answered after this long counts as an error. */
  timeoutMs?: number;
}

export interface OpenLoopResult {
  ratePerSec: number;
  durationSec: number;
  scheduled: number;
  sent: number;
  ok: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** Answers per second over the time from the first scheduled send to the last answer. */
  achievedRate: number;
  /** From the scheduled send time to the end of the answer. */
  latencyMs: Summary & { p999: number };
  /** How late the loader itself sent (actual − scheduled): if large, the loader fell behind, not the service. */
  sendLagMs: Summary;
  peakInFlight: number;
  /** When the slowest answered request was scheduled to leave (ms since the epoch). */
  maxAt: number;
  /** Wall-clock window of the run (ms since the epoch), to match the service's GC pauses against. */
  windowStart: number;
  windowEnd: number;
  /**
   * The loader's OWN garbage-collection pauses in the window: while it is paused, answers wait unread
   * and count as latency, so a long one here is the loader's tail, not the service's.
   */
  loaderGc: { count: number; totalMs: number; longestMs: number; majorCount: number; majorLongestMs: number };
}

export async function runOpenLoop(o: OpenLoopOptions): Promise<OpenLoopResult> {
  const target = new URL(o.url);
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 1024 });
  const total = Math.round(o.ratePerSec * o.durationSec);
  const intervalMs = 1000 / o.ratePerSec;
  const latencies: number[] = [];
  const sendLag: number[] = [];
  const statusCodes: Record<string, number> = {};
  let ok = 0;
  let errors = 0;
  let inFlight = 0;
  let peakInFlight = 0;
  let maxLatency = -1;
  let maxScheduledAt = 0;
  let done = 0;
  let sent = 0;
  const timeoutMs = o.timeoutMs ?? 10_000;

  const loaderGc = { count: 0, totalMs: 0, longestMs: 0, majorCount: 0, majorLongestMs: 0 };
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      loaderGc.count++;
      loaderGc.totalMs += entry.duration;
      loaderGc.longestMs = Math.max(loaderGc.longestMs, entry.duration);
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        loaderGc.majorCount++;
        loaderGc.majorLongestMs = Math.max(loaderGc.majorLongestMs, entry.duration);
      }
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const windowStart = Date.now();
  const t0 = performance.now();
  let lastAnswer = t0;
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const settle = () => {
    done++;
    if (done === total) finish();
  };

  const fire = (n: number, scheduledAt: number) => {
    const payload = o.body(n);
    sendLag.push(performance.now() - scheduledAt);
    inFlight++;
    if (inFlight > peakInFlight) peakInFlight = inFlight;
    sent++;
    let over = false;
    const end = () => {
      if (over) return false;
      over = true;
      inFlight--;
      settle();
      return true;
    };
    const req = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: o.path,
        method: 'POST',
        agent,
        timeout: timeoutMs,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => {
          const now = performance.now();
          if (!end()) return;
          lastAnswer = now;
          const code = res.statusCode ?? 0;
          statusCodes[code] = (statusCodes[code] ?? 0) + 1;
          if (code >= 200 && code < 300) {
            ok++;
            latencies.push(now - scheduledAt);
            if (now - scheduledAt > maxLatency) {
              maxLatency = now - scheduledAt;
              maxScheduledAt = scheduledAt;
            }
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => {
      if (end()) errors++;
    });
    req.end(payload);
  };

  // The schedule: request n leaves at t0 + n·interval. A 1 ms timer sends every request that is due
  // (timers fire late on a busy machine; the latency still counts from the scheduled instant).
  await new Promise<void>((resolve) => {
    let n = 0;
    const tick = () => {
      const now = performance.now();
      while (n < total && t0 + n * intervalMs <= now) {
        fire(n, t0 + n * intervalMs);
        n++;
      }
      if (n < total) setTimeout(tick, Math.max(0, Math.min(1, t0 + n * intervalMs - performance.now())));
      else resolve();
    };
    tick();
  });
  await Promise.race([finished, new Promise((r) => setTimeout(r, timeoutMs + 1000))]);
  agent.destroy();
  gcObserver.disconnect();
  const elapsedSec = (lastAnswer - t0) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  const p999 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(0.999 * sorted.length) - 1)] : NaN;
  return {
    ratePerSec: o.ratePerSec,
    durationSec: o.durationSec,
    scheduled: total,
    sent,
    ok,
    non2xx: Object.entries(statusCodes)
      .filter(([c]) => Number(c) < 200 || Number(c) >= 300)
      .reduce((s, [, v]) => s + v, 0),
    errors: errors + (total - done),
    statusCodes,
    achievedRate: ok / elapsedSec,
    latencyMs: { ...summarize(latencies), p999 },
    sendLagMs: summarize(sendLag),
    peakInFlight,
    maxAt: Math.round(windowStart + (maxScheduledAt - t0)),
    windowStart,
    windowEnd: Date.now(),
    loaderGc,
  };
}
