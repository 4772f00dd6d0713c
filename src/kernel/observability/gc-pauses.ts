import { type PerformanceEntry, PerformanceObserver, constants } from 'node:perf_hooks';
import { Gauge, Histogram, type Registry } from 'prom-client';

/** One garbage-collection pause as V8 reports it (`perf_hooks` 'gc' entries). */
export interface GcPause {
  /** Wall-clock start, ms since the epoch (performance.timeOrigin + startTime). */
  at: number;
  ms: number;
  kind: GcKind;
  /**
   * Why V8 collected, when it says (perf_hooks' flags): `forced` (gc(), a heap snapshot), `external-memory`
   * (Buffers and other memory outside the heap grew past V8's limit), `old-generation-limit`,
   * `all-available-garbage`, `synchronous-phantom`, `construct-retained`. Absent when V8 names none (every minor
   * collection).
   */
  reasons?: GcReason[];
}

export type GcReason =
  | 'construct-retained'
  | 'forced'
  | 'synchronous-phantom'
  | 'all-available-garbage'
  | 'external-memory'
  | 'old-generation-limit';

export type GcKind = 'minor' | 'major' | 'incremental' | 'weakcb' | 'other';

const KINDS: Record<number, GcKind> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

const REASONS: Array<[number, GcReason]> = [
  [constants.NODE_PERFORMANCE_GC_FLAGS_CONSTRUCT_RETAINED, 'construct-retained'],
  [constants.NODE_PERFORMANCE_GC_FLAGS_FORCED, 'forced'],
  [constants.NODE_PERFORMANCE_GC_FLAGS_SYNCHRONOUS_PHANTOM_PROCESSING, 'synchronous-phantom'],
  [constants.NODE_PERFORMANCE_GC_FLAGS_ALL_AVAILABLE_GARBAGE, 'all-available-garbage'],
  [constants.NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY, 'external-memory'],
  // V8's kGCCallbackScheduleIdleGarbageCollection: despite its name, V8 passes it when it starts incremental
  // marking because the old generation reached its allocation limit (heap.cc,
  // StartIncrementalMarkingIfAllocationLimitIsReached), so it marks the ordinary major collection of a growing
  // heap, not one run in idle time.
  [constants.NODE_PERFORMANCE_GC_FLAGS_SCHEDULE_IDLE, 'old-generation-limit'],
];

/** The reasons a GC entry's flags name, or undefined when it names none. */
export function gcReasons(flags: number | undefined): GcReason[] | undefined {
  if (!flags) return undefined;
  const named = REASONS.filter(([bit]) => (flags & bit) !== 0).map(([, reason]) => reason);
  return named.length ? named : undefined;
}

/** Pauses kept for `recent()`: enough for a minute of a busy service (minor collections run ~10/s). */
const KEPT = 20_000;

/**
 * Every GC pause of the process into `taintwise_gc_pause_seconds` (buckets around the 20 ms a client
 * would notice; prom-client's default GC histogram jumps from 10 to 100 ms) and the longest one into
 * `taintwise_gc_pause_max_seconds`. The last pauses stay in a ring so a load test can ask which fell
 * inside its window (`recent`, served only when the bench routes are on).
 */
export class GcPauses {
  private readonly ring: GcPause[] = [];
  private next = 0;
  private readonly observer: PerformanceObserver;
  private readonly histogram: Histogram<'kind'>;
  private readonly longest: Gauge;
  private longestSeconds = 0;

  constructor(registry: Registry) {
    this.histogram = new Histogram({
      name: 'taintwise_gc_pause_seconds',
      help: 'Garbage-collection pauses of the service process, by kind (minor, major, incremental, weakcb)',
      labelNames: ['kind'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [registry],
    });
    this.longest = new Gauge({
      name: 'taintwise_gc_pause_max_seconds',
      help: 'The longest GC pause since the process started',
      registers: [registry],
    });
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.record(entry);
    });
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** Pauses that started at or after `sinceEpochMs`, oldest first (at most the last 20,000). */
  recent(sinceEpochMs = 0): GcPause[] {
    const ordered =
      this.ring.length < KEPT ? this.ring : [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
    return ordered.filter((p) => p.at >= sinceEpochMs);
  }

  close(): void {
    this.observer.disconnect();
  }

  private record(entry: PerformanceEntry): void {
    const detail = (entry as PerformanceEntry & { detail?: { kind?: number; flags?: number } }).detail;
    const pause: GcPause = {
      at: performance.timeOrigin + entry.startTime,
      ms: entry.duration,
      kind: KINDS[detail?.kind ?? -1] ?? 'other',
    };
    const reasons = gcReasons(detail?.flags);
    if (reasons) pause.reasons = reasons;
    this.histogram.observe({ kind: pause.kind }, pause.ms / 1000);
    if (pause.ms / 1000 > this.longestSeconds) {
      this.longestSeconds = pause.ms / 1000;
      this.longest.set(this.longestSeconds);
    }
    if (this.ring.length < KEPT) this.ring.push(pause);
    else this.ring[this.next] = pause;
    this.next = (this.next + 1) % KEPT;
  }
}
