/**
 * The CPU other processes of the machine take during a measured window: every process's user + system
 * time read from /proc every `intervalMs`, the processes of the measurement itself left out. On a
 * 2-core machine a process that takes a core for a few hundred ms leaves the service and its loader
 * one core between them, and the open loop's requests queue: this names that process, and how much it
 * took around the slowest answer (bench/ANALYSIS.md, session of 2026-11-26 12:37: RabbitMQ's periodic
 * `epmd-starter` Erlang VM, ~260 ms of a core in 0.3 s).
 */
import { readFileSync, readdirSync } from 'node:fs';

export interface ForeignProcessCpu {
  /** processLabel's name, e.g. `beam.smp (-sname epmd-starter)`, or `this process`. */
  name: string;
  ms: number;
}

export interface ForeignCpuSummary {
  intervalMs: number;
  windowMs: number;
  /** CPU of every other process over the window, ms (2 cores give 2,000 ms per second). */
  totalMs: number;
  /** The processes that took the most, over the whole window. */
  top: ForeignProcessCpu[];
  /** The busiest second of others' CPU: when it started (ms since the epoch) and what it held. */
  busiestSecond?: { at: number; ms: number; top: ForeignProcessCpu[] };
}

interface Sample {
  from: number;
  at: number;
  /** CPU ms per process name in the interval [from, at]. */
  byName: Map<string, number>;
  /** The same for the measurement's own processes (this process's children: the service, the loader). */
  measured: Map<string, number>;
}

/** CPU of the measured processes and of the others in a span of samples (`during`). */
export interface CpuAround {
  /** Other processes' CPU, ms, and the ones that took the most. */
  ms: number;
  top: ForeignProcessCpu[];
  /** The service's and the loader's own CPU (every thread: a collector's helpers too), ms. */
  measured: ForeignProcessCpu[];
  /** The samples' span, ms (whole intervals: a little wider than the span asked). */
  spanMs: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux: /proc's times are in 10 ms ticks

/**
 * Reads /proc every `intervalMs` until stopped. The measurement is kept apart from the others: this process's
 * children (the service it spawned, the loader it forked) are only in `during`'s `measured`. This process itself is
 * counted among the others, as `this process`: its collections take a core too.
 */
export class ForeignCpuSampler {
  private readonly last = new Map<number, number>();
  /** The label of each pid, and the comm it was made from: an exec changes the comm, and the label is made again. */
  private readonly names = new Map<number, { comm: string; label: string }>();
  private readonly samples: Sample[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly startedAt = Date.now();
  private lastAt = this.startedAt;

  constructor(private readonly intervalMs = 100) {
    this.read(true);
    this.timer = setInterval(() => this.read(false), intervalMs);
    this.timer.unref(); // a sampler left running must not keep its process alive
  }

  /** Stops sampling; `names` processes are named in `top` (3 in the busiest second). */
  stop(names = 5): ForeignCpuSummary {
    clearInterval(this.timer);
    this.read(false);
    const total = sum(this.samples);
    return {
      intervalMs: this.intervalMs,
      windowMs: Date.now() - this.startedAt,
      totalMs: total.ms,
      top: topOf(total.byName, names),
      busiestSecond: this.busiestSecond(),
    };
  }

  /**
   * Others' CPU in the samples whose interval overlaps [from, to] (ms since the epoch), e.g. a stall, and the
   * measured processes' own: a service busy for the whole span, or past one core, tells a queue or its collector's
   * helper threads from a wait it did not spend on the CPU.
   */
  during(from: number, to: number, names = 3): CpuAround {
    const samples = this.samples.filter((s) => s.at >= from && s.from <= to);
    const { ms, byName } = sum(samples);
    const measured = sum(samples, 'measured').byName;
    const spanMs = samples.length ? samples[samples.length - 1].at - samples[0].from : 0;
    return { ms, top: topOf(byName, names), measured: topOf(measured, measured.size), spanMs };
  }

  /** The one-second span (aligned on samples) in which the others took the most CPU. */
  private busiestSecond(): ForeignCpuSummary['busiestSecond'] {
    const per = Math.max(1, Math.round(1000 / this.intervalMs));
    let best: ForeignCpuSummary['busiestSecond'];
    for (let i = 0; i < this.samples.length; i++) {
      const { ms, byName } = sum(this.samples.slice(i, i + per));
      if (!best || ms > best.ms) best = { at: this.samples[i].from, ms, top: topOf(byName, 3) };
    }
    return best;
  }

  private read(baseline: boolean): void {
    const byName = new Map<string, number>();
    const measured = new Map<string, number>();
    const seen = new Set<number>();
    for (const entry of readdirSync('/proc')) {
      const pid = Number(entry);
      if (!Number.isInteger(pid)) continue;
      const stat = readStat(pid);
      if (stat === undefined) continue;
      const { ticks, comm } = stat;
      const mine = stat.ppid === process.pid;
      seen.add(pid);
      // a process born since the last read: all its CPU is new (its baseline is 0)
      const before = this.last.get(pid) ?? (baseline ? ticks : 0);
      this.last.set(pid, ticks);
      // A process read between its fork and its exec still has its parent's comm (`sh` for `sh -c 'perl …'`):
      // its name is made again once the comm changes, so the program it became is named.
      let named = this.names.get(pid);
      if (named?.comm !== comm) {
        named = { comm, label: pid === process.pid ? 'this process' : mine ? measuredName(pid) : processName(pid) };
        this.names.set(pid, named);
      }
      const ms = (ticks - before) * TICK_MS;
      const into = mine ? measured : byName;
      if (ms > 0) into.set(named.label, (into.get(named.label) ?? 0) + ms);
    }
    for (const pid of this.last.keys())
      if (!seen.has(pid)) {
        this.last.delete(pid);
        this.names.delete(pid);
      }
    const at = Date.now();
    if (!baseline) this.samples.push({ from: this.lastAt, at, byName, measured });
    this.lastAt = at;
  }
}

/**
 * The parent pid, utime + stime, and the comm. Not the reaped children's times: a child read while alive would
 * count twice, once under its name and again under its parent's when reaped. So a short-lived process
 * loses its last interval (at most `intervalMs`).
 */
function readStat(pid: number): { ppid: number; ticks: number; comm: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const end = stat.lastIndexOf(')');
    const f = stat.slice(end + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), comm: stat.slice(stat.indexOf('(') + 1, end) };
  } catch {
    return undefined; // gone between readdir and read
  }
}

function processName(pid: number): string {
  try {
    const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    return processLabel(comm, readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean));
  } catch {
    return `pid ${pid}`;
  }
}

/** A child of the bench by what it runs: the service (its main module) or the open loop's loader. */
function measuredName(pid: number): string {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (argv.some((a) => a.includes('open-loop-child'))) return 'the loader';
    if (argv.some((a) => /main\.[jt]s$/.test(a))) return 'the service';
    return `child ${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}`;
  } catch {
    return `child ${pid}`;
  }
}

/**
 * What tells two processes of one program apart: an Erlang VM's node name (its numeric suffix dropped,
 * so RabbitMQ's `epmd-starter-502272066` and its next run are one name) and a PostgreSQL process's title
 * (the client's address dropped: every backend of one database and state is one name).
 */
export function processLabel(comm: string, argv: readonly string[]): string {
  const sname = argv.indexOf('-sname');
  if (sname >= 0 && argv[sname + 1]) return `${comm} (-sname ${argv[sname + 1].replace(/-\d+$/, '')})`;
  if (argv.length === 1 && argv[0].startsWith(`${comm}:`))
    return argv[0]
      .replace(/\s*\d+\.\d+\.\d+\.\d+\(\d+\)/, '')
      .trim()
      .slice(0, 60);
  return comm;
}

/** CPU ms per name over these samples, and in all (of the other processes, or of the measured ones). */
function sum(
  samples: readonly Sample[],
  which: 'byName' | 'measured' = 'byName',
): { ms: number; byName: Map<string, number> } {
  const byName = new Map<string, number>();
  let ms = 0;
  for (const s of samples)
    for (const [name, cpu] of s[which]) {
      byName.set(name, (byName.get(name) ?? 0) + cpu);
      ms += cpu;
    }
  return { ms, byName };
}

function topOf(byName: Map<string, number>, n: number): ForeignProcessCpu[] {
  return [...byName]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, ms]) => ({ name, ms }));
}
