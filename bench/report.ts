/** Targets, PASS/MISS, and bench/REPORT.md from the results object. */
import type { CeilingResult } from './ceiling';
import type { LoadResult } from './lib/load';
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
  taintImpact?: Figure & Partial<LoadResult>;
  taintImpactC16?: Figure & Partial<LoadResult>;
  taintCommit?: Figure;
  evictionLag?: Figure & { lagMs?: Summary };
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
}

interface TargetDef {
  id: string;
  label: string;
  target: string;
  value(m: ModeResult): number | undefined;
  unit: string;
  ok(v: number): boolean;
}

const TARGETS: TargetDef[] = [
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
];

function okv(f: Figure | undefined, get: (f: any) => number | undefined): number | undefined {
  if (!f || f.status !== 'ok') return undefined;
  const v = get(f);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function evaluateTargets(modes: ModeResult[]): TargetResult[] {
  const out: TargetResult[] = [];
  for (const m of modes) {
    for (const t of TARGETS) {
      const v = t.value(m);
      out.push({
        mode: m.mode,
        id: t.id,
        label: t.label,
        target: t.target,
        measured: v === undefined ? 'not measured' : `${fmt(v)} ${t.unit}`,
        verdict: v === undefined ? 'N/A' : t.ok(v) ? 'PASS' : 'MISS',
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
    `- Node ${r.versions.node}, npm ${r.versions.npm}, PostgreSQL ${r.versions.postgresql}, Redis ${r.versions.redis}, PGlite ${r.versions.pglite}, autocannon ${r.versions.autocannon}; taintwise ${r.versions.taintwise} at ${r.versions.commit}`,
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
  lines.push('| mode | figure | target | measured | verdict |', '|---|---|---|---|---|');
  for (const t of r.targets) lines.push(`| ${t.mode} | ${t.label} | ${t.target} | ${t.measured} | **${t.verdict}** |`);
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
    lines.push(`- feasible-nodes, GraphQL, same mix: ${loadLine(m.feasibleGraphql)}`);
    lines.push(
      `- taint-impact, NoExecute over the ${m.taintImpact?.poolNodes ?? '?'}-node pool (${m.taintImpact?.evictions ?? '?'} evictions, ${m.taintImpact?.tolerating ?? '?'} tolerating in the answer), concurrency 1: ${loadLine(m.taintImpact)}`,
    );
    lines.push(`- taint-impact, same, concurrency 16: ${loadLine(m.taintImpactC16)}`);
    lines.push(
      `- POST /v1/taints NoExecute on ${m.taintCommit?.nodes ?? '?'} nodes × 110 pods: ${figureLine(m.taintCommit, (f) => `**committed in ${fmt(f.ms)} ms**; answer: ${f.evictions?.immediate} immediate, ${f.evictions?.scheduled} scheduled, ${f.evictions?.cancelled} cancelled; Scheduled rows on those nodes ${f.scheduledRows ?? '—'}; timers armed ${f.timersArmed ?? '—'}${f.timersArmedMs !== undefined ? ` (all armed ${fmt(f.timersArmedMs)} ms after the answer)` : ''}; removing the taint again: ${fmt(f.untaintMs)} ms, ${f.untaintCancelled ?? '—'} cancelled`)}`,
    );
    lines.push(
      `- eviction lag, ${m.evictionLag?.expected ?? '?'} evictions due in the same second: ${figureLine(m.evictionLag, (f) => `**p50 ${fmt(f.lagMs.p50)} ms, p99 ${fmt(f.lagMs.p99)} ms**, max ${fmt(f.lagMs.max)} ms over ${f.executed} executed (taint committed in ${fmt(f.commitMs)} ms; tolerationSeconds ${f.drainSeconds}); counted from max(evictAt, the answer to POST /v1/taints): p50 ${fmt(f.lagAfterCommitMs?.p50)} ms, p99 ${fmt(f.lagAfterCommitMs?.p99)} ms; as the live stream showed them (event arrival − evictAt, ${f.observed ?? 0} events): ${f.observedLagMs ? `**p50 ${fmt(f.observedLagMs.p50)} ms, p99 ${fmt(f.observedLagMs.p99)} ms**, max ${fmt(f.observedLagMs.max)} ms` : f.observedNote}`)}`,
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
