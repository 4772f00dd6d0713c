import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { GcPauses } from './gc-pauses';

/**
 * The process's Prometheus registry and the metrics the issues ask for. A fresh registry per app
 * instance (not prom-client's global), so several apps in one test process do not collide.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'taintwise_http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  readonly evictions = new Counter({
    name: 'taintwise_evictions_total',
    help: 'Evictions by outcome (Executed, Cancelled, Failed, Scheduled)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly pendingEvictions = new Gauge({
    name: 'taintwise_pending_evictions',
    help: 'Scheduled evictions not yet executed or cancelled',
    registers: [this.registry],
  });

  readonly evictionLag = new Histogram({
    name: 'taintwise_eviction_lag_seconds',
    help: 'Actual eviction time minus evictAt',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [this.registry],
  });

  readonly graphqlExecutions = new Counter({
    name: 'taintwise_graphql_executions_total',
    help: 'GraphQL operations by executor: graphql-jit (queries compiled per document), graphql-js, or answer-cache (a repeated query answered from its last execution)',
    labelNames: ['executor'] as const,
    registers: [this.registry],
  });

  readonly decisionCache = new Counter({
    name: 'taintwise_decision_cache_total',
    help: 'feasible-nodes answers served from the decision cache (hit) or computed (miss)',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'taintwise_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, retry: failed and retried later, failed: no retry left)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookAttemptDuration = new Histogram({
    name: 'taintwise_webhook_attempt_duration_seconds',
    help: 'Webhook delivery attempt latency (request sent to answer or error), by result (success, failure)',
    labelNames: ['result'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly webhookQueueDepth = new Gauge({
    name: 'taintwise_webhook_queue_depth',
    help: 'Pending webhook deliveries (due or waiting for a retry), as of the last poll',
    registers: [this.registry],
  });

  readonly webhookOldestPendingAge = new Gauge({
    name: 'taintwise_webhook_oldest_pending_age_seconds',
    help: 'Age of the oldest pending webhook delivery, as of the last poll (0 when none)',
    registers: [this.registry],
  });

  /**
   * A mirror's forecasts the cluster carried out: |when the cluster removed the pod − the forecast evictAt|
   * (src/mirror; kubernetes#108268-style clock resets show here). The signed last value is the gauge below.
   */
  readonly syncForecastError = new Histogram({
    name: 'taintwise_sync_forecast_error_seconds',
    help: 'Mirror: absolute difference between a forecast evictAt and when the cluster removed the pod',
    buckets: [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600],
    registers: [this.registry],
  });

  readonly syncForecastLastError = new Gauge({
    name: 'taintwise_sync_forecast_last_error_seconds',
    help: 'Mirror: the last observed forecast error, signed (positive = the cluster evicted later than forecast)',
    registers: [this.registry],
  });

  /** Every GC pause (METRICS_GC_PAUSES, on by default): `taintwise_gc_pause_seconds`. */
  readonly gcPauses?: GcPauses;

  constructor(options: { gcPauses?: boolean } = {}) {
    collectDefaultMetrics({ register: this.registry, prefix: 'taintwise_' });
    if (options.gcPauses) this.gcPauses = new GcPauses(this.registry);
    for (const result of ['hit', 'miss'] as const) this.decisionCache.inc({ result }, 0);
    for (const outcome of ['delivered', 'retry', 'failed'] as const) this.webhookDeliveries.inc({ outcome }, 0);
  }

  onApplicationShutdown(): void {
    this.gcPauses?.close();
  }
}
