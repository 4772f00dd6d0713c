/**
 * What the service did around the open loop's slowest request, for the report's cause of a MISS: its GC pauses
 * there, and the eviction sweeps of the window. The bench's inventory has NotReady and unreachable nodes whose pods
 * tolerate the taint for 300 s, so ~150 evictions fall due 2.5-5 minutes after the import, in a few dozen small
 * sweeps, while the read phases and the open loop run (bench/ANALYSIS.md).
 */
import { listAll } from './http';

export interface Pause {
  at: number;
  ms: number;
  kind: string;
}

export interface PausesAround {
  count: number;
  totalMs: number;
  longestMs: number;
  kinds: string[];
}

/** The pauses that overlap [from, to] (ms since the epoch). */
export function pausesAround(pauses: readonly Pause[], from: number, to: number): PausesAround {
  const near = pauses.filter((p) => p.at + p.ms >= from && p.at <= to);
  return {
    count: near.length,
    totalMs: near.reduce((t, p) => t + p.ms, 0),
    longestMs: near.reduce((m, p) => Math.max(m, p.ms), 0),
    kinds: [...new Set(near.map((p) => p.kind))],
  };
}

export interface SweepsInWindow {
  /** Transactions that executed evictions in the window (events of one transaction share its start time). */
  count: number;
  evictions: number;
  /** The sweep nearest to the slowest request: its start − the request's scheduled send time, ms. */
  nearestMs?: number;
  nearestEvictions?: number;
}

/** The window's sweeps, as the audit log has them (EvictionExecuted events, by their transaction's start). */
export async function sweepsInWindow(
  url: string,
  windowStart: number,
  windowEnd: number,
  slowestAt: number,
): Promise<SweepsInWindow> {
  const since = encodeURIComponent(new Date(windowStart).toISOString());
  const events = await listAll<{ createdAt: string }>(url, `/v1/events/history?since=${since}&types=EvictionExecuted`);
  if (events.status !== 200) throw new Error(`GET /v1/events/history answered ${events.status}`);
  const perSweep = new Map<number, number>();
  for (const e of events.items) {
    const at = Date.parse(e.createdAt);
    if (at <= windowEnd) perSweep.set(at, (perSweep.get(at) ?? 0) + 1);
  }
  const sweeps = [...perSweep];
  const nearest = sweeps.reduce<[number, number] | undefined>(
    (best, s) => (best === undefined || Math.abs(s[0] - slowestAt) < Math.abs(best[0] - slowestAt) ? s : best),
    undefined,
  );
  return {
    count: sweeps.length,
    evictions: sweeps.reduce((t, [, n]) => t + n, 0),
    nearestMs: nearest && nearest[0] - slowestAt,
    nearestEvictions: nearest?.[1],
  };
}
