/** Targets, PASS/MISS, and bench/REPORT.md from the results object. */
import type { KubeListFigures } from './lib/kube-lists';
import type { CeilingResult } from './ceiling';
import type { LoadResult } from './lib/load';
import type { OpenLoopResult } from './lib/open-loop';
import type { PausesAround, SweepsInWindow } from './lib/around-slowest';
import type { CpuAround, ForeignCpuSummary, ForeignProcessCpu } from './lib/foreign-cpu';
import type { Summary } from './lib/stats';

export type Status = 'ok' | 'not available' | 'error' | 'skipped';

export interface Figure {
  status: Status;
  note?: string;
  [k: string]: any;
}

export interface ModeResult {
  mode: string;
  storage: string;
  status: Status;
  note?: string;
  coldStart?: Figure;
  import?: Figure;
  startup?: Figure;
  memory?: Figure;
  feasibleRest?: Figure & Partial<LoadResult>;
  /** The inline pods of the mix, every request distinct: no answer comes from the service's cache. */
  feasibleRestDistinct?: Figure & Partial<LoadResult>;
  feasibleGraphql?: Figure & Partial<LoadResult>;
  /** The mix's inline pods made distinct per request, over GraphQL (no answer from a cache). */
  feasibleGraphqlDistinct?: Figure & Partial<LoadResult>;
  /** Fixed arrival rate, distinct pods, latency from the scheduled send (lib/open-loop.ts); the service's GC pauses. */
  openLoop?: Figure &
    Partial<OpenLoopResult> & {
      warmSec?: number;
      foreignCpu?: ForeignCpuSummary & { aroundMax: CpuAround };
      /** The service's GC pauses from 300 ms before the slowest request to its answer (lib/around-slowest.ts). */
      gcAroundMax?: PausesAround;
      /** The eviction sweeps of the window, and the one nearest to the slowest request. */
      sweeps?: SweepsInWindow & { note?: string };
    };
  /** Live heap after a forced full collection: right after start-up, and after the read load. */
  heapIdle?: Figure;
  heap?: Figure;
  /** taint-impact's summary form (counts only), concurrency 1. */
  taintImpactSummary?: Figure & Partial<LoadResult>;
  taintImpact?: Figure & Partial<LoadResult>;
  taintImpactC16?: Figure & Partial<LoadResult>;
  /** Issue 13: taint-impact with `replacement: true` (every evicted pod placed in turn), concurrency 1. */
  taintImpactReplacement?: Figure & Partial<LoadResult>;
  taintCommit?: Figure;
  /** Issue 13: the first list of every budget after the taint commit (all statuses derived again). */
  budgetStatus?: Figure;
  /** Issue 12: the Kubernetes API's lists at full size (bench/lib/kube-lists.ts). */
  kubeLists?: Figure & Partial<KubeListFigures>;
  evictionLag?: Figure & { lagMs?: Summary };
  /** Issue 15: the NoExecute taint's events delivered to one webhook receiver. */
  webhookLag?: Figure & { lagMs?: Summary };
  /** Issue 14: a mirror's initial sync of this inventory through the Kubernetes API (bench/mirror.ts). */
  mirrorSync?: Figure;
  /** Issue 14: watch events → the mirror's snapshot at a fixed rate (bench/mirror.ts). */
  mirrorWatch?: Figure;
  loadAverage: Record<string, number[]>;
}

export interface Results {
  version: 1;
  quick: boolean;
  startedAt: string;
  finishedAt?: string;
  durationSec?: number;
  command: string;
  machine: { nproc: number; memTotalGiB: number; cpuModel: string; loadAverage: number[]; loadAverageEnd?: number[] };
  versions: Record<string, string>;
  settings: Record<string, any>;
  inventory: Record<string, any>;
  ceiling?: (CeilingResult & Figure) | Figure;
  modes: ModeResult[];
  targets: TargetResult[];
  brokenBecause: string[];
}

export interface TargetResult {
  mode: string;
  id: string;
  label: string;
  target: string;
  measured: string;
  verdict: 'PASS' | 'MISS' | 'N/A';
  /** For a MISS: what the run's own figures say about the cause (ANALYSIS.md has the rest). */
  cause?: string;
}

interface TargetDef {
  id: string;
  label: string;
  target: string;
  value(m: ModeResult, c?: CeilingFigure): number | undefined;
  unit: string;
  ok(v: number, m: ModeResult): boolean;
  /** The figures of this run that explain a MISS. */
  why?(m: ModeResult, c?: CeilingFigure): string | undefined;
}

type CeilingFigure = { opsPerSec?: number; cpuMsPerOp?: number } & Record<string, any>;

const gcWhy = (m: ModeResult): string | undefined => {
  const g = m.openLoop?.gc;
  const parts: string[] = [];
  if (g)
    parts.push(
      `GC in the window: longest ${fmt(g.longestMs)} ms (${g.longestKind}), ${g.over20ms} pauses over 20 ms, ${fmt(g.totalMs)} ms in ${g.count} pauses`,
    );
  const near = m.openLoop?.gcAroundMax;
  if (near)
    parts.push(
      `GC from 300 ms before the slowest request to its answer: ${near.count ? `${fmt(near.totalMs)} ms in ${near.count} pauses (${near.kinds.join(', ')}), longest ${fmt(near.longestMs)} ms` : 'none'}`,
    );
  const sweeps = m.openLoop?.sweeps;
  if (sweeps?.count !== undefined)
    parts.push(
      `${sweeps.count} eviction sweeps in the window (${sweeps.evictions} evictions)${sweeps.nearestMs !== undefined ? `, the nearest to the slowest request began ${fmt(sweeps.nearestMs)} ms from its send time (${sweeps.nearestEvictions} evictions)` : ''}`,
    );
  if (m.openLoop?.sendLagMs) parts.push(`loader send lag p99 ${fmt(m.openLoop.sendLagMs.p99)} ms`);
  if (m.openLoop?.loaderGc)
    parts.push(
      `loader's own GC longest ${fmt(m.openLoop.loaderGc.longestMs)} ms (${m.openLoop.loaderGc.majorCount} major)`,
    );
  if (m.openLoop?.serverCpuMsPerRequest !== undefined)
    parts.push(`service CPU ${fmt(m.openLoop.serverCpuMsPerRequest, 2)} ms/request`);
  if (m.loadAverage.openLoop) parts.push(`load average ${m.loadAverage.openLoop[0]}`);
  const others = m.openLoop?.foreignCpu;
  if (others)
    parts.push(
      `other processes: ${fmt(others.totalMs)} ms of CPU in the window, ${fmt(others.aroundMax.ms)} ms from 300 ms before the slowest request to its answer (${namesOf(others.aroundMax.top)})${measuredAround(others.aroundMax)}`,
    );
  return parts.join('; ') || undefined;
};

/** The processes' names as the report gives them (foreign-cpu.ts calls the bench's own process `this process`). */
const namesOf = (top: ForeignProcessCpu[]): string =>
  top.map((p) => `${p.name === 'this process' ? "the bench's own process" : p.name} ${fmt(p.ms)} ms`).join(', ') ||
  'none';

/**
 * The service's and the loader's own CPU around the slowest request (results before they were recorded have none):
 * busy for the whole span, the service was queueing; past one core, its collector's helpers took the other core.
 */
const measuredAround = (around: CpuAround): string =>
  around.measured?.length ? `; ${namesOf(around.measured)} of CPU over those ${fmt(around.spanMs)} ms` : '';

const TARGETS: TargetDef[] = [
  {
    id: 'mirror-initial-sync',
    label:
      "issue 14: a mirror's initial sync of the whole inventory from the service's Kubernetes API (spawn → /readyz 200)",
    target: '≤ 60 s',
    unit: 'ms',
    value: (m) => okv(m.mirrorSync, (f) => f.readyMs),
    ok: (v) => v <= 60_000,
    why: (m) =>
      m.mirrorSync?.syncSeconds !== undefined
        ? `the list and its writes took ${fmt(m.mirrorSync.syncSeconds)} s`
        : undefined,
  },
  {
    id: 'mirror-watch-lag-p99',
    label:
      "issue 14: watch event → the mirror's snapshot, MODIFIED pod events at the --mirror-rate for --mirror-seconds: p99",
    target: '≤ 1 s',
    unit: 'ms',
    value: (m) => okv(m.mirrorWatch, (f) => f.lagMs?.p99),
    ok: (v) => v <= 1000,
    why: (m) =>
      m.mirrorWatch
        ? `${m.mirrorWatch.applied}/${m.mirrorWatch.sent} events at ${m.mirrorWatch.rate}/s in ${m.mirrorWatch.transactions} transactions`
        : undefined,
  },
  {
    id: 'feasible-p99',
    label:
      'feasible-nodes over all nodes, REST, concurrency 16, the mix of 10 pods repeated (repeats answered from the cache): p99',
    target: '≤ 20 ms',
    unit: 'ms',
    value: (m) => okv(m.feasibleRest, (f) => f.latencyMs?.p99),
    ok: (v) => v <= 20,
  },
  {
    id: 'feasible-rps',
    label:
      'feasible-nodes over all nodes, REST, concurrency 16, the mix of 10 pods repeated (repeats answered from the cache): throughput',
    target: '≥ 1,000 req/s',
    unit: 'req/s',
    value: (m) => okv(m.feasibleRest, (f) => f.rps),
    ok: (v) => v >= 1000,
  },
  {
    id: 'feasible-distinct-p99',
    label: 'feasible-nodes, REST, concurrency 16, every request a distinct pod (no answer from the cache): p99',
    target: '≤ 20 ms',
    unit: 'ms',
    value: (m) => okv(m.feasibleRestDistinct, (f) => f.latencyMs?.p99),
    ok: (v) => v <= 20,
  },
  {
    id: 'feasible-distinct-rps',
    label: 'feasible-nodes, REST, concurrency 16, every request a distinct pod (no answer from the cache): throughput',
    target: '≥ 1,000 req/s',
    unit: 'req/s',
    value: (m) => okv(m.feasibleRestDistinct, (f) => f.rps),
    ok: (v) => v >= 1000,
  },
  {
    id: 'taint-impact-p99',
    label: 'taint-impact of a NoExecute taint over the 500-node pool: p99 (concurrency 1)',
    target: '≤ 100 ms',
    unit: 'ms',
    value: (m) => okv(m.taintImpact, (f) => f.latencyMs?.p99),
    ok: (v) => v <= 100,
  },
  {
    id: 'taint-commit',
    label: 'POST /v1/taints NoExecute on 100 nodes × 110 pods (11,000 evictions): committed',
    target: '≤ 2 s',
    unit: 'ms',
    value: (m) => okv(m.taintCommit, (f) => f.ms),
    ok: (v) => v <= 2000,
  },
  {
    id: 'eviction-lag-p99',
    label:
      "eviction lag (executedAt − evictAt; executedAt is the sweep transaction's start), 10,000 due in the same second: p99",
    target: '≤ 1 s',
    unit: 'ms',
    value: (m) => okv(m.evictionLag, (f) => f.lagMs?.p99),
    ok: (v) => v <= 1000,
  },
  {
    id: 'eviction-lag-observed-p99',
    label:
      'eviction lag as the live event stream shows it (EvictionExecuted arrival − evictAt, after COMMIT), 10,000 due in the same second: p99',
    target: '≤ 1 s',
    unit: 'ms',
    value: (m) => okv(m.evictionLag, (f) => f.observedLagMs?.p99),
    ok: (v) => v <= 1000,
  },
  {
    id: 'webhook-all-delivered',
    label:
      'issue 15: every event of a NoExecute taint over 100 × 110 pods (~10,000) delivered to one healthy webhook receiver: the last one, after the commit',
    target: '≤ 10 s',
    unit: 'ms',
    value: (m) => okv(m.webhookLag, (f) => (f.delivered >= f.events ? f.lagMs?.max : undefined)),
    ok: (v) => v <= 10_000,
    why: (m) =>
      m.webhookLag?.lagMs
        ? `${m.webhookLag.delivered}/${m.webhookLag.events} delivered; the first after ${fmt(m.webhookLag.firstMs)} ms; p50 ${fmt(m.webhookLag.lagMs.p50)} ms, p99 ${fmt(m.webhookLag.lagMs.p99)} ms${m.webhookLag.note ? `; ${m.webhookLag.note}` : ''}`
        : m.webhookLag?.note,
  },
  {
    id: 'webhook-lag-p99',
    label: 'issue 15: same run, delivery lag (arrival at the receiver − the answer to POST /v1/taints): p99',
    target: '≤ 10 s',
    unit: 'ms',
    value: (m) => okv(m.webhookLag, (f) => f.lagMs?.p99),
    ok: (v) => v <= 10_000,
  },
  {
    id: 'webhook-commit',
    label:
      "issue 15: same run, the taint's own answer time with a webhook subscribed ÷ without (taint-commit, the same taint on the same nodes)",
    target: '≤ 1.2',
    unit: '',
    value: (m) => okv(m.webhookLag, (f) => (f.baselineCommitMs ? f.commitMs / f.baselineCommitMs : undefined)),
    ok: (v) => v <= 1.2,
    why: (m) =>
      m.webhookLag?.commitMs !== undefined
        ? `${fmt(m.webhookLag.commitMs)} ms with the subscription (${m.webhookLag.evictions?.scheduled ?? '?'} scheduled), ${fmt(m.webhookLag.baselineCommitMs)} ms without (${m.taintCommit?.evictions?.scheduled ?? '?'} scheduled, ${m.taintCommit?.evictions?.immediate ?? '?'} immediate)`
        : undefined,
  },
  {
    id: 'memory',
    label: 'resident memory with the full inventory (VmRSS after start-up and the read load)',
    target: '≤ 1.5 GB (1,536 MiB)',
    unit: 'MiB',
    value: (m) => okv(m.memory, (f) => f.rssMiB),
    ok: (v) => v <= 1536,
  },
  {
    id: 'memory-peak',
    label: 'resident memory peak (VmHWM) of the serving process over the whole session, evictions included',
    target: '≤ 1.5 GB (1,536 MiB)',
    unit: 'MiB',
    value: (m) => okv(m.memory, (f) => f.peakMiB),
    ok: (v) => v <= 1536,
  },
  {
    id: 'startup',
    label: 'start-up with the full inventory stored (spawn → /readyz 200, snapshot loaded)',
    target: '≤ 10 s',
    unit: 'ms',
    value: (m) => okv(m.startup, (f) => f.readyMs),
    ok: (v) => v <= 10_000,
  },
  // Issue 16: no stalls at the largest scale.
  {
    id: 'i16-open-p99',
    label:
      'issue 16 (1): open loop, 1,000 distinct feasible-nodes questions/s for 60 s, latency from the scheduled send time: p99',
    target: '≤ 10 ms',
    unit: 'ms',
    value: (m) => okv(m.openLoop, (f) => f.latencyMs?.p99),
    ok: (v) => v <= 10,
    why: gcWhy,
  },
  {
    id: 'i16-open-max',
    label: 'issue 16 (1): open loop, same run: max',
    target: '≤ 50 ms',
    unit: 'ms',
    value: (m) => okv(m.openLoop, (f) => f.latencyMs?.max),
    ok: (v) => v <= 50,
    why: gcWhy,
  },
  {
    id: 'i16-open-rate',
    label: 'issue 16 (1): open loop, same run: answers per second achieved, 0 errors',
    target: '≥ 99 % of the rate asked',
    unit: '%',
    value: (m) => okv(m.openLoop, (f) => (f.errors || f.non2xx ? 0 : (100 * f.achievedRate) / f.ratePerSec)),
    ok: (v) => v >= 99,
    why: (m) => m.openLoop?.note ?? gcWhy(m),
  },
  {
    id: 'i16-full-gc',
    label:
      'issue 16 (2): a forced full collection with the whole inventory loaded, after the read load (POST /ops/heap, --expose-gc)',
    target: '< 50 ms',
    unit: 'ms',
    value: (m) => okv(m.heap, (f) => f.gcMs),
    ok: (v) => v < 50,
    why: (m) =>
      m.heap?.usedMiB !== undefined
        ? `live heap ${fmt(m.heap.usedMiB)} MiB after it (${fmt(m.heapIdle?.usedMiB)} MiB after start-up): what V8 marks and compacts; an empty compiled service holds ~58 MiB (ANALYSIS.md)`
        : undefined,
  },
  {
    id: 'i16-throughput',
    label: 'issue 16 (3): distinct-pod throughput (c=16) ÷ in-process ceiling, both from this run',
    target: '≥ 0.5',
    unit: '',
    value: (m, c) => (c?.opsPerSec ? okv(m.feasibleRestDistinct, (f) => f.rps / c.opsPerSec!) : undefined),
    ok: (v) => v >= 0.5,
    why: (m, c) =>
      m.feasibleRestDistinct?.serverCpuMsPerRequest !== undefined && c?.cpuMsPerOp !== undefined
        ? `service CPU ${fmt(m.feasibleRestDistinct.serverCpuMsPerRequest, 2)} ms/request vs ${fmt(c.cpuMsPerOp, 2)} ms per decision in-process (load average ${m.loadAverage.feasibleRestDistinct?.[0]})`
        : undefined,
  },
  {
    id: 'i16-graphql',
    label: 'issue 16 (4): GraphQL ÷ REST throughput for the same question (mix of 10, c=16)',
    target: '≥ 0.6',
    unit: '',
    value: (m) => {
      const r = okv(m.feasibleRest, (f) => f.rps);
      const g = okv(m.feasibleGraphql, (f) => f.rps);
      return r && g !== undefined ? g / r : undefined;
    },
    ok: (v) => v >= 0.6,
    why: (m) =>
      m.feasibleGraphql?.serverCpuMsPerRequest !== undefined
        ? `service CPU ${fmt(m.feasibleGraphql.serverCpuMsPerRequest, 2)} ms/request (GraphQL) vs ${fmt(m.feasibleRest?.serverCpuMsPerRequest, 2)} (REST)`
        : undefined,
  },
  {
    id: 'i16-taint-impact',
    label: 'issue 16 (5): taint-impact over the 500-node pool, full list, c=1: p99',
    target: '≤ 50 ms',
    unit: 'ms',
    value: (m) => okv(m.taintImpact, (f) => f.latencyMs?.p99),
    ok: (v) => v <= 50,
    why: (m) =>
      m.taintImpact?.serverCpuMsPerRequest !== undefined
        ? `${fmt(m.taintImpact.serverCpuMsPerRequest)} ms of service CPU per ${fmt((m.taintImpact.bytesPerResponse ?? 0) / 1024)} KiB answer; load average ${m.loadAverage.taintImpact?.[0]}`
        : undefined,
  },
  {
    id: 'i16-taint-impact-summary',
    label: 'issue 16 (5): taint-impact summary form, same question, c=1: p99',
    target: '≤ 10 ms',
    unit: 'ms',
    value: (m) => okv(m.taintImpactSummary, (f) => f.latencyMs?.p99),
    ok: (v) => v <= 10,
    why: (m) =>
      m.taintImpactSummary?.serverCpuMsPerRequest !== undefined
        ? `${fmt(m.taintImpactSummary.serverCpuMsPerRequest, 2)} ms of service CPU per answer`
        : undefined,
  },
  {
    id: 'i16-eviction-lag',
    label: 'issue 16 (6): eviction lag as the live stream shows it, 10,000 due together: p99',
    target: '≤ 1 s',
    unit: 'ms',
    value: (m) => okv(m.evictionLag, (f) => f.observedLagMs?.p99),
    ok: (v) => v <= 1000,
    why: (m) =>
      `executedAt − evictAt p99 ${fmt(m.evictionLag?.lagMs?.p99)} ms; load average ${m.loadAverage.evictionLag?.[0]}` +
      (m.mode === 'embedded'
        ? "; PGlite is one connection: the two 5,000-row sweep batches run back to back, each ~0.6-0.7 s of statements in its thread, most of it the rows each eviction rewrites (UPDATE pods 240-320 ms per 5,000 in PGlite's own time, a ~1 KB row and its four indexes each; UPDATE evictions ~113 ms), and the last batch's events leave at its COMMIT (ANALYSIS.md)"
        : ''),
  },
  {
    id: 'i16-rss',
    label: 'issue 16 (7): resident memory after the read load',
    target: '≤ 1 GB (1,024 MiB)',
    unit: 'MiB',
    value: (m) => okv(m.memory, (f) => f.rssMiB),
    ok: (v) => v <= 1024,
    why: (m) =>
      m.heap?.usedMiB !== undefined
        ? `live heap after a full collection ${fmt(m.heap.usedMiB)} MiB of ${fmt(m.heap.totalMiB)} MiB V8 heap`
        : undefined,
  },
  {
    id: 'i12-node-list',
    label: 'issue 12: the full node list of the Kubernetes API (`GET /api/v1/nodes`, no limit)',
    target: '< 1 s',
    unit: 'ms',
    value: (m) => okv(m.kubeLists, (f) => f.nodeList?.ms),
    ok: (v) => v < 1000,
    why: (m) =>
      m.kubeLists?.nodeList
        ? `${m.kubeLists.nodeList.items} nodes, ${fmt(m.kubeLists.nodeList.bytes / 1048576, 1)} MiB`
        : undefined,
  },
  {
    id: 'i12-pods-all',
    label: 'issue 12: `kubectl get pods -A` over every pod completes (default chunking, server-side Table)',
    target: 'completes, every pod listed',
    unit: 'ms',
    value: (m) => okv(m.kubeLists, (f) => f.podsAll?.ms),
    ok: (_v, m) => {
      const rows = m.kubeLists?.podsAll?.rows;
      const expected = m.kubeLists?.podsExpected;
      return rows !== undefined && expected !== undefined && rows >= expected.atLeast && rows <= expected.atMost;
    },
    why: (m) =>
      m.kubeLists?.podsAll && m.kubeLists.podsExpected
        ? `${m.kubeLists.podsAll.rows} pods listed by ${m.kubeLists.podsAll.client}; the API showed ${m.kubeLists.podsExpected.atLeast}–${m.kubeLists.podsExpected.atMost} while it ran`
        : undefined,
  },
  {
    id: 'i13-replacement',
    label:
      'issue 13: taint-impact with re-placement over the 500-node pool (every evicted pod placed in turn), c=1: p99',
    target: '≤ 150 ms',
    unit: 'ms',
    value: (m) => okv(m.taintImpactReplacement, (f) => f.latencyMs?.p99),
    ok: (v) => v <= 150,
    why: (m) =>
      m.taintImpactReplacement?.serverCpuMsPerRequest !== undefined
        ? `${fmt(m.taintImpactReplacement.serverCpuMsPerRequest)} ms of service CPU per answer (${m.taintImpactReplacement.evictions ?? '?'} evictions placed)`
        : undefined,
  },
  {
    id: 'i13-taint-commit-with-budgets',
    label: 'issue 13: the 11,000-eviction taint committed with the disruption budgets in the inventory',
    target: '≤ 2 s',
    unit: 'ms',
    value: (m) => (m.budgetStatus?.status === 'ok' ? okv(m.taintCommit, (f) => f.ms) : undefined),
    ok: (v) => v <= 2000,
    why: (m) =>
      m.budgetStatus?.budgets !== undefined
        ? `${m.budgetStatus.budgets} budgets; their status is derived from the snapshot, not written in the transaction (SEMANTICS B.9.2)`
        : undefined,
  },
  {
    id: 'i13-budget-status',
    label: 'issue 13: status of every budget right after that taint (first GET /v1/poddisruptionbudgets?limit=5000)',
    target: '≤ 500 ms',
    unit: 'ms',
    value: (m) => okv(m.budgetStatus, (f) => f.ms),
    ok: (v) => v <= 500,
    why: (m) =>
      m.budgetStatus?.budgets !== undefined ? `${m.budgetStatus.budgets} budgets listed with status` : undefined,
  },
  {
    id: 'i16-rss-peak',
    label: 'issue 16 (7): resident memory peak (VmHWM) of the serving process',
    target: '≤ 1.5 GB (1,536 MiB)',
    unit: 'MiB',
    value: (m) => okv(m.memory, (f) => f.peakMiB),
    ok: (v) => v <= 1536,
  },
];

function okv(f: Figure | undefined, get: (f: any) => number | undefined): number | undefined {
  if (!f || f.status !== 'ok') return undefined;
  const v = get(f);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function evaluateTargets(modes: ModeResult[], ceiling?: Figure): TargetResult[] {
  const out: TargetResult[] = [];
  const c = ceiling?.status === 'ok' ? (ceiling as CeilingFigure) : undefined;
  for (const m of modes) {
    for (const t of TARGETS) {
      const v = t.value(m, c);
      const verdict = v === undefined ? 'N/A' : t.ok(v, m) ? 'PASS' : 'MISS';
      const digits = t.unit === '' ? 2 : 1;
      out.push({
        mode: m.mode,
        id: t.id,
        label: t.label,
        target: t.target,
        measured: v === undefined ? 'not measured' : `${fmt(v, digits)}${t.unit ? ` ${t.unit}` : ''}`,
        verdict,
        ...(verdict === 'MISS' && t.why ? { cause: t.why(m, c) } : {}),
      });
    }
  }
  return out;
}

export function fmt(v: number | undefined, digits = 1): string {
  if (v === undefined || !Number.isFinite(v)) return '—';
  if (Math.abs(v) >= 100) return Math.round(v).toLocaleString('en-US');
  return String(Math.round(v * 10 ** digits) / 10 ** digits);
}

function loadLine(f: (Figure & Partial<LoadResult>) | undefined): string {
  if (!f) return 'not run';
  if (f.status !== 'ok') return `${f.status}${f.note ? `: ${f.note}` : ''}`;
  const l = f.latencyMs!;
  return `p50 ${fmt(l.p50)} ms · p99 ${fmt(l.p99)} ms · max ${fmt(l.max)} ms · ${fmt(f.rps)} req/s · ${f.ok} ok, ${f.non2xx} non-2xx, ${f.errors} errors · c=${f.connections}, ${f.durationSec} s · ${fmt((f.bytesPerResponse ?? 0) / 1024)} KiB/answer${f.serverCpuMsPerRequest !== undefined ? ` · service CPU ${fmt(f.serverCpuMsPerRequest, 2)} ms/request (≈ ${fmt(f.perCoreCapacityRps)} req/s per free core)` : ''}${f.note ? ` · ${f.note}` : ''}`;
}

function figureLine(f: Figure | undefined, ok: (f: any) => string): string {
  if (!f) return 'not run';
  if (f.status !== 'ok') return `${f.status}${f.note ? `: ${f.note}` : ''}`;
  return ok(f) + (f.note ? ` · ${f.note}` : '');
}

export function renderReport(r: Results, rerun: string): string {
  const lines: string[] = [];
  const inv = r.inventory;
  lines.push(`# taintwise bench report${r.quick ? ' (quick: small sizes, indicative only)' : ''}`, '');
  lines.push(
    `Written by \`${r.command}\` on ${r.startedAt} (took ${fmt(r.durationSec)} s). Raw figures: \`bench/results/${r.quick ? 'quick' : 'latest'}.json\`.`,
    '',
  );
  lines.push('## Machine', '');
  lines.push(`- ${r.machine.nproc} CPUs (\`nproc\`), ${r.machine.cpuModel}, ${r.machine.memTotalGiB} GiB memory`);
  lines.push(
    `- load average at start ${r.machine.loadAverage.join(' / ')}, at end ${r.machine.loadAverageEnd?.join(' / ') ?? '—'} (1/5/15 min). The machine is shared: other engineers' test runs compete for the same 2 cores, and the load generator (autocannon) runs on them too.`,
  );
  lines.push(
    `- Node ${r.versions.node}, npm ${r.versions.npm}, PostgreSQL ${r.versions.postgresql}, Redis ${r.versions.redis}, PGlite ${r.versions.pglite}, autocannon ${r.versions.autocannon}; taintwise ${r.versions.taintwise} at ${r.versions.commit}; service entry: ${r.versions.entry ?? 'src/main.ts through @swc-node/register'}`,
    '',
  );
  lines.push('## Inventory', '');
  lines.push(
    `Generated by \`bench/generate-inventory.ts\` (seed ${inv.seed}): **${inv.nodes.toLocaleString('en-US')} nodes, ${inv.pods.toLocaleString('en-US')} pods** (${inv.pending} pending), ${fmt(inv.megabytes)} MB of JSON, imported in chunks of ${inv.chunkSize.toLocaleString('en-US')} objects.`,
  );
  lines.push(
    `Pools: ${Object.entries(inv.pools as Record<string, number>)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}. Distinct taint sets: ${inv.distinctTaintSets}.`,
  );
  lines.push(
    `Pods: ${Object.entries(inv.podsBy as Record<string, number>)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
  );

  if (r.settings?.serviceEnv && Object.keys(r.settings.serviceEnv).length)
    lines.push(
      `**Non-default service settings for this run:** ${Object.entries(r.settings.serviceEnv)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ')}.`,
      '',
    );
  lines.push('## Targets', '');
  lines.push(
    "| mode | figure | target | measured | verdict | cause of a MISS (this run's figures) |",
    '|---|---|---|---|---|---|',
  );
  for (const t of r.targets)
    lines.push(`| ${t.mode} | ${t.label} | ${t.target} | ${t.measured} | **${t.verdict}** | ${t.cause ?? ''} |`);
  lines.push('');
  if (r.quick) lines.push('Quick mode runs at a few hundred nodes: verdicts here say nothing about the full size.', '');
  else
    lines.push(
      'Why the misses happen and what in the service would fix them: [ANALYSIS.md](ANALYSIS.md) (profiles, experiments, file and function).',
      '',
    );

  for (const m of r.modes) {
    lines.push(`## ${m.mode} — ${m.storage}`, '');
    if (m.status !== 'ok') lines.push(`**${m.status}**${m.note ? `: ${m.note}` : ''}`, '');
    lines.push(`- cold start, empty storage: ${figureLine(m.coldStart, (f) => `${fmt(f.readyMs)} ms to /readyz 200`)}`);
    lines.push(
      `- import of the whole inventory: ${figureLine(m.import, (f) => `${f.objects.toLocaleString('en-US')} objects in ${fmt(f.seconds)} s = **${fmt(f.objectsPerSec)} objects/s** (${f.chunks} chunks; chunk p50 ${fmt(f.chunkMs?.p50)} ms, max ${fmt(f.chunkMs?.max)} ms; ${f.itemErrors} item errors; service peak RSS ${fmt(f.peakMiB)} MiB)`)}`,
    );
    lines.push(
      `- start-up with the inventory stored: ${figureLine(m.startup, (f) => `**${fmt(f.readyMs)} ms** spawn → /readyz 200; \`snapshot loaded\` ${f.snapshotLoadedMs ?? '—'} ms (${f.snapshotNodes} nodes, ${f.snapshotPods} pods); second restart at LOG_LEVEL=warn ${f.readyMsWarn === undefined ? 'not run (--quick)' : `${fmt(f.readyMsWarn)} ms`}`)}`,
    );
    lines.push(
      `- resident memory: ${figureLine(m.memory, (f) => `**${fmt(f.rssMiB)} MiB** VmRSS after start-up and the read load (${fmt(f.rssIdleMiB)} MiB right after start-up; peak VmHWM ${fmt(f.peakMiB)} MiB; ${fmt(f.rssEndMiB)} MiB at the end)`)}`,
    );
    lines.push(
      `- feasible-nodes, REST, mix of ${m.feasibleRest?.cases ?? '?'} pods over ${m.feasibleRest?.totalNodes ?? '?'} nodes, limit 20: ${loadLine(m.feasibleRest)}`,
    );
    lines.push(
      `- feasible-nodes, REST, the ${m.feasibleRestDistinct?.cases ?? '?'} inline pods of the mix, every request made distinct (one more toleration for a taint no node has: same answer, never from the answer cache): ${loadLine(m.feasibleRestDistinct)}`,
    );
    lines.push(
      `- feasible-nodes, GraphQL, same mix (repeated queries answered from the answer cache, as REST's from the decision cache): ${loadLine(m.feasibleGraphql)}`,
    );
    const distinctRatio =
      m.feasibleGraphqlDistinct?.rps !== undefined && m.feasibleRestDistinct?.rps
        ? ` · **÷ REST, every request distinct: ${fmt(m.feasibleGraphqlDistinct.rps / m.feasibleRestDistinct.rps, 2)}**`
        : '';
    lines.push(
      `- feasible-nodes, GraphQL, the inline pods every request distinct (neither side from a cache): ${loadLine(m.feasibleGraphqlDistinct)}${distinctRatio}`,
    );
    lines.push(
      `- open loop, feasible-nodes, the ${m.openLoop?.cases ?? '?'} inline pods round-robin, every request distinct, latency from each request's scheduled send time: ${figureLine(
        m.openLoop,
        (f) =>
          `${fmt(f.ratePerSec)} req/s asked for ${f.durationSec} s${f.warmSec ? ` (after ${f.warmSec} s of the same loop, not counted)` : ''}, **${fmt(f.achievedRate)} req/s** achieved (${f.ok} ok, ${f.non2xx} non-2xx, ${f.errors} errors; up to ${f.peakInFlight} in flight on keep-alive connections) · p50 ${fmt(f.latencyMs.p50)} ms · p90 ${fmt(f.latencyMs.p90)} ms · **p99 ${fmt(f.latencyMs.p99)} ms** · p99.9 ${fmt(f.latencyMs.p999)} ms · **max ${fmt(f.latencyMs.max)} ms** · loader send lag p99 ${fmt(f.sendLagMs?.p99)} ms, max ${fmt(f.sendLagMs?.max)} ms${f.loaderGc ? ` · the loader's own GC pauses (a process of its own, holding only its requests): longest ${fmt(f.loaderGc.longestMs)} ms, ${f.loaderGc.majorCount} major` : ''}${f.serverCpuMsPerRequest !== undefined ? ` · service CPU ${fmt(f.serverCpuMsPerRequest, 2)} ms/request` : ''} · ${
            f.gc
              ? `service GC in the window: ${f.gc.count} pauses, ${fmt(f.gc.totalMs)} ms in all, **longest ${fmt(f.gc.longestMs)} ms** (${f.gc.longestKind}), **${f.gc.over20ms} over 20 ms** (${Object.entries(
                  f.gc.byKind as Record<string, any>,
                )
                  .map(([k, v]) => `${k} ${v.count}, max ${fmt(v.maxMs)} ms`)
                  .join('; ')})${
                  f.gc.majorReasons && Object.keys(f.gc.majorReasons).length
                    ? `; major collections by V8's reason: ${Object.entries(f.gc.majorReasons as Record<string, number>)
                        .map(([k, v]) => `${k} ${v}`)
                        .join(', ')}`
                    : ''
                }`
              : f.gcNote
          }${
            f.foreignCpu
              ? ` · the machine's other processes (read from /proc every ${f.foreignCpu.intervalMs} ms): ${fmt(f.foreignCpu.totalMs)} ms of CPU over the window (${namesOf(f.foreignCpu.top)}); busiest second ${fmt(f.foreignCpu.busiestSecond?.ms)} ms (${namesOf(f.foreignCpu.busiestSecond?.top ?? [])}); **from 300 ms before the slowest request to its answer ${fmt(f.foreignCpu.aroundMax.ms)} ms** (${namesOf(f.foreignCpu.aroundMax.top)})${measuredAround(f.foreignCpu.aroundMax)}`
              : ''
          }`,
      )}`,
    );
    lines.push(
      `- live heap after a forced full collection (POST /ops/heap): ${figureLine(m.heapIdle, (f) => `after start-up ${fmt(f.usedMiB)} MiB used (collection ${fmt(f.gcMs)} ms)`)}; ${figureLine(m.heap, (f) => `after the read load **${fmt(f.usedMiB)} MiB used** of ${fmt(f.totalMiB)} MiB, external ${fmt(f.externalMiB)} MiB, **collection ${fmt(f.gcMs)} ms**, RSS then ${fmt(f.rssMiB)} MiB`)}`,
    );
    lines.push(
      `- taint-impact, NoExecute over the ${m.taintImpact?.poolNodes ?? '?'}-node pool (${m.taintImpact?.evictions ?? '?'} evictions, ${m.taintImpact?.tolerating ?? '?'} tolerating in the answer), concurrency 1: ${loadLine(m.taintImpact)}`,
    );
    lines.push(`- taint-impact, same, concurrency 16: ${loadLine(m.taintImpactC16)}`);
    lines.push(
      `- taint-impact summary form (counts per node, action and workload; no pod lists), concurrency 1: ${loadLine(m.taintImpactSummary)}`,
    );
    lines.push(
      `- taint-impact with re-placement (\`replacement: true\`: every evicted pod placed in turn), concurrency 1: ${loadLine(m.taintImpactReplacement)}`,
    );
    lines.push(
      `- Kubernetes API lists: ${figureLine(m.kubeLists, (f) => `full node list ${fmt(f.nodeList.ms)} ms (${f.nodeList.items} nodes); \`kubectl get nodes\` paged ${fmt(f.nodeTable.ms)} ms; \`kubectl get pods -A\` **${fmt(f.podsAll.ms / 1000, 1)} s** for ${f.podsAll.rows} pods (${f.podsAll.client})`)}`,
      `- disruption budgets: ${figureLine(m.budgetStatus, (f) => `${f.budgets} budgets (${f.selectingPods} selecting pods); the first list after the taint below derived every status in **${fmt(f.ms)} ms**`)}`,
    );
    lines.push(
      `- POST /v1/taints NoExecute on ${m.taintCommit?.nodes ?? '?'} nodes × 110 pods: ${figureLine(m.taintCommit, (f) => `**committed in ${fmt(f.ms)} ms**; answer: ${f.evictions?.immediate} immediate, ${f.evictions?.scheduled} scheduled, ${f.evictions?.cancelled} cancelled; Scheduled rows on those nodes ${f.scheduledRows ?? '—'}; timers armed ${f.timersArmed ?? '—'}${f.timersArmedMs !== undefined ? ` (all armed ${fmt(f.timersArmedMs)} ms after the answer)` : ''}; removing the taint again: ${fmt(f.untaintMs)} ms, ${f.untaintCancelled ?? '—'} cancelled`)}`,
    );
    lines.push(
      `- eviction lag, ${m.evictionLag?.expected ?? '?'} evictions due in the same second: ${figureLine(m.evictionLag, (f) => `**p50 ${fmt(f.lagMs.p50)} ms, p99 ${fmt(f.lagMs.p99)} ms**, max ${fmt(f.lagMs.max)} ms over ${f.executed} executed (taint committed in ${fmt(f.commitMs)} ms; tolerationSeconds ${f.drainSeconds}); counted from max(evictAt, the answer to POST /v1/taints): p50 ${fmt(f.lagAfterCommitMs?.p50)} ms, p99 ${fmt(f.lagAfterCommitMs?.p99)} ms; as the live stream showed them (event arrival − evictAt, ${f.observed ?? 0} events): ${f.observedLagMs ? `**p50 ${fmt(f.observedLagMs.p50)} ms, p99 ${fmt(f.observedLagMs.p99)} ms**, max ${fmt(f.observedLagMs.max)} ms` : f.observedNote}`)}`,
      `- webhooks (issue 15), the NoExecute taint on ${m.webhookLag?.evictions?.scheduled ?? '?'} pods again with one receiver subscribed to every type: ${figureLine(m.webhookLag, (f) => `**${f.delivered}/${f.events} events delivered, the first ${fmt(f.firstMs)} ms and the last ${fmt(f.lagMs.max)} ms after the answer; lag p50 ${fmt(f.lagMs.p50)} ms, p99 ${fmt(f.lagMs.p99)} ms**; ${f.duplicates} duplicates; the taint answered in ${fmt(f.commitMs)} ms (${fmt(f.baselineCommitMs)} ms without a subscription)`)}`,
    );
    lines.push(
      `- load average during the phases: ${Object.entries(m.loadAverage)
        .map(([k, v]) => `${k} ${v[0]}`)
        .join(', ')}`,
      '',
    );
  }

  lines.push('## Ceiling: feasible-nodes in-process, no HTTP', '');
  const c = r.ceiling as any;
  if (!c || c.status !== 'ok') lines.push(`${c?.status ?? 'not run'}${c?.note ? `: ${c.note}` : ''}`, '');
  else {
    lines.push(
      `mapManifests of the whole inventory ${fmt(c.mapMs)} ms, InventorySnapshot.load ${fmt(c.loadMs)} ms; \`decideFeasibleNodes\` over ${c.nodes} nodes, limit 20, the same mix round-robin: **${fmt(c.opsPerSec)} ops/s** on one thread, wall clock, on the shared machine (${fmt(c.opsPerSecWithJson)} ops/s with JSON.stringify of the answer); **${fmt(c.cpuMsPerOp, 2)} CPU ms per decision = ${fmt(c.opsPerCpuSec)} ops per CPU-second**.`,
      '',
    );
    if (c.note) lines.push(`Note: ${c.note}.`, '');
    lines.push('| pod | µs per decision | feasible / total |', '|---|---|---|');
    for (const p of c.perCaseMicros) lines.push(`| ${p.name} | ${p.micros} | ${p.feasible} / ${p.total} |`);
    lines.push('');
    for (const m of r.modes) {
      if (m.feasibleRest?.status === 'ok') {
        const f = m.feasibleRest;
        lines.push(
          `- ${m.mode}: service ${fmt(f.rps)} req/s ÷ ceiling ${fmt(c.opsPerSec)} ops/s = **${fmt((f.rps ?? 0) / c.opsPerSec, 2)}** (wall clock, both on the loaded machine; the service may use both cores, GC and I/O threads)` +
            (f.serverCpuMsPerRequest !== undefined
              ? `; per CPU time: ceiling ${fmt(c.cpuMsPerOp, 2)} ms ÷ service ${fmt(f.serverCpuMsPerRequest, 2)} ms per request = **${fmt(c.cpuMsPerOp / f.serverCpuMsPerRequest, 2)}**`
              : ''),
        );
      }
    }
    lines.push('');
  }
  if (r.brokenBecause.length) lines.push('## The bench itself failed', '', ...r.brokenBecause.map((b) => `- ${b}`), '');
  lines.push('## How to rerun', '', '```sh', rerun, '```', '');
  lines.push(
    '`npm run bench` measures both modes at 5,000 nodes / 150,000 pods (about 7 minutes on an idle 2-core machine, 30–40 when other work shares it) and writes this file and `bench/results/latest.json`. ' +
      '`npm run bench -- --quick` runs 200 nodes / 2,000 pods with short durations (under two minutes), writes `bench/results/quick.json` and `bench/results/REPORT-quick.md`, and never touches this file. ' +
      'It exits 0 when every measurement ran (a missed target is not a failure; a route that does not exist yet is reported `not available`) and 1 when the bench itself broke. ' +
      'Options: `--modes embedded,postgres`, `--nodes`, `--pods`, `--seed`, `--duration <s>`, `--postgres <url>`, `--redis <url>`, `--profile` (CPU profiles of the service into bench/results/profiles/).',
    '',
  );
  return lines.join('\n');
}
