import { Counter, Gauge, Histogram, Summary } from 'prom-client';
import type { Metrics } from '../kernel/observability/metrics';

export const SYNC_STATES = ['syncing', 'watching', 'reconnecting', 'stopped'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

/** The `taintwise_sync_*` series (the forecast error is the kernel's: the unit of work observes it at COMMIT). */
export class SyncMetrics {
  readonly state: Gauge<'state'>;
  readonly lastEventAge: Gauge;
  readonly eventsApplied: Counter<'resource' | 'type'>;
  readonly batches: Counter;
  readonly relists: Counter<'resource' | 'reason'>;
  readonly reconnects: Counter<'resource'>;
  readonly applyLag: Histogram;
  /** The same lag over the last minute as quantiles (what the bench reads for its p99). */
  readonly applyLagWindow: Summary;
  readonly initialSyncSeconds: Gauge;
  private lastEventAt: number | undefined;

  constructor(metrics: Metrics, now: () => number) {
    const registers = [metrics.registry];
    this.state = new Gauge({
      name: 'taintwise_sync_state',
      help: 'Mirror: 1 for the current sync state (syncing, watching, reconnecting, stopped)',
      labelNames: ['state'],
      registers,
    });
    this.lastEventAge = new Gauge({
      name: 'taintwise_sync_last_event_age_seconds',
      help: 'Mirror: seconds since the last watch event (bookmarks included) arrived',
      registers,
      collect: () => {
        if (this.lastEventAt !== undefined) this.lastEventAge.set((now() - this.lastEventAt) / 1000);
      },
    });
    this.eventsApplied = new Counter({
      name: 'taintwise_sync_events_applied_total',
      help: 'Mirror: watch events applied, by resource and type (several events on one object may be one write)',
      labelNames: ['resource', 'type'],
      registers,
    });
    this.batches = new Counter({
      name: 'taintwise_sync_batches_total',
      help: 'Mirror: transactions that applied watch events',
      registers,
    });
    this.relists = new Counter({
      name: 'taintwise_sync_relists_total',
      help: 'Mirror: full lists after the initial one (410 Gone, a resource that cannot be watched)',
      labelNames: ['resource', 'reason'],
      registers,
    });
    this.reconnects = new Counter({
      name: 'taintwise_sync_reconnects_total',
      help: 'Mirror: watches opened again after a dropped or refused connection',
      labelNames: ['resource'],
      registers,
    });
    this.applyLag = new Histogram({
      name: 'taintwise_sync_event_apply_lag_seconds',
      help: 'Mirror: from a watch event arriving to its change being in the snapshot',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers,
    });
    this.applyLagWindow = new Summary({
      name: 'taintwise_sync_event_apply_lag_window_seconds',
      help: 'Mirror: watch event arrival → in the snapshot, quantiles over the last 60 s',
      percentiles: [0.5, 0.9, 0.99, 1],
      maxAgeSeconds: 60,
      ageBuckets: 6,
      registers,
    });
    this.initialSyncSeconds = new Gauge({
      name: 'taintwise_sync_initial_sync_seconds',
      help: 'Mirror: how long the initial list of nodes, pods and budgets took to be stored',
      registers,
    });
    for (const resource of ['nodes', 'pods', 'budgets']) this.reconnects.inc({ resource }, 0);
  }

  setState(state: SyncState): void {
    for (const s of SYNC_STATES) this.state.set({ state: s }, s === state ? 1 : 0);
  }

  eventArrived(at: number): void {
    this.lastEventAt = at;
  }
}
