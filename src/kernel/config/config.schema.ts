import { z } from 'zod';

/**
 * Every setting taintwise reads, in one schema (API.md "Settings every deployment relies on").
 * A bad value stops the service at start with a message naming the variable.
 */
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const int = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number({ message: 'must be a number' }).int('must be an integer').min(min).max(max).default(fallback);

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), {
      message: `must start with ${protocols.join(' or ')}`,
    });

const API_KEY_ENTRY = /^[A-Za-z0-9_.@-]{1,64}:(viewer|operator|admin):[0-9a-f]{64}$/;

/**
 * `WEBHOOK_RETRY_SCHEDULE`: seconds before each retry, comma-separated (`5,300,1800`); an empty string
 * means no retry. Answers the delays in milliseconds, or a message saying what is wrong.
 */
export function parseRetrySchedule(value: string): number[] | string {
  const trimmed = value.trim();
  if (trimmed === '') return [];
  const parts = trimmed.split(',').map((p) => p.trim());
  if (parts.length > 50) return 'at most 50 retries';
  const delays: number[] = [];
  for (const part of parts) {
    if (!/^\d+(\.\d+)?$/.test(part)) return `"${part}" is not a number of seconds (use e.g. 5,300,1800)`;
    const seconds = Number(part);
    if (seconds > 7 * 86_400) return `"${part}": a retry at most 7 days later`;
    delays.push(Math.round(seconds * 1000));
  }
  return delays;
}

export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(3000, 0, 65535),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: optionalUrl(['postgres://', 'postgresql://']),
  DATA_DIR: z.string().min(1).default('./.data'),
  /**
   * Embedded mode: the nice value of the database's thread (Linux), so that when the cores are all busy the
   * service's own thread answers first (src/kernel/runtime/thread-priority.ts). 0 leaves it as the process's.
   */
  EMBEDDED_DB_NICE: int(10, 0, 19),
  REDIS_URL: optionalUrl(['redis://', 'rediss://']),
  /** Prefix of every Redis key and queue, so several deployments (or test runs) can share a server. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'letters, digits, - and _ only')
    .default('taintwise'),
  /** `name:role:sha256hex`, comma-separated; absent = open (refused in production). */
  API_KEYS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((entries) => entries.every((e) => API_KEY_ENTRY.test(e)), {
      message: 'each entry must be name:role:sha256hex with role viewer, operator or admin',
    }),
  /** SEMANTICS A.1: the TaintTolerationComparisonOperators gate. */
  COMPARISON_OPERATORS: bool(true),
  /** SEMANTICS A.2: upstream's redacted wording `node(s) had untolerated taint(s)` for every caller. */
  REDACT_TAINTS: bool(false),
  /** Roles below this one get redacted explanations (A.2: "or a caller's role"). */
  REDACT_TAINTS_BELOW_ROLE: z.enum(['viewer', 'operator', 'admin']).default('viewer'),
  // SEMANTICS A.6 admission defaults, each switchable.
  ADMISSION_DEFAULT_TOLERATION_SECONDS: bool(true),
  DEFAULT_NOT_READY_TOLERATION_SECONDS: int(300, 0),
  DEFAULT_UNREACHABLE_TOLERATION_SECONDS: int(300, 0),
  ADMISSION_DAEMONSET_TOLERATIONS: bool(true),
  ADMISSION_MEMORY_PRESSURE_TOLERATION: bool(true),
  ADMISSION_EXTENDED_RESOURCE_TOLERATION: bool(true),
  // Limits.
  BODY_LIMIT_BYTES: int(32 * 1024 * 1024, 1024),
  RATE_LIMIT_PER_MINUTE: int(6000, 0),
  /** Kubernetes API watches: a BOOKMARK this often when the client allows them (the API server: about 1 min). */
  KUBE_WATCH_BOOKMARK_SECONDS: int(60, 1, 3600),
  GRAPHQL_MAX_DEPTH: int(10, 2, 50),
  GRAPHQL_MAX_COMPLEXITY: int(5000, 10),
  /** Queries executed by graphql-jit (compiled per document); false: graphql-js executes everything. */
  GRAPHQL_JIT: bool(true),
  DB_STATEMENT_TIMEOUT_MS: int(15000, 100),
  CORS_ORIGINS: z.string().default(''),
  // Evictions.
  RECONCILE_INTERVAL_SECONDS: int(30, 1),
  /** BullMQ jobs a replica holds at once: the eviction worker runs them in batches of up to 500 per transaction. */
  EVICTION_WORKER_CONCURRENCY: int(500, 1, 5000),
  SHUTDOWN_TIMEOUT_MS: int(10000, 0),
  // Webhooks (issue 15).
  /**
   * Deliver to private and loopback addresses (10/8, 172.16/12, 192.168/16, 127/8, ::1, fc00::/7).
   * Link-local and metadata addresses are always refused.
   */
  WEBHOOK_ALLOW_PRIVATE: bool(false),
  /** One attempt may take this long (connect, send, answer) before it counts as failed. */
  WEBHOOK_TIMEOUT_SECONDS: int(10, 1, 300),
  /** Seconds to wait before each retry, comma-separated; after the last one the delivery is Failed. */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('5,300,1800,7200,18000,36000')
    .transform((v, ctx) => {
      const parsed = parseRetrySchedule(v);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  /** A subscription whose attempts have all failed for this long is disabled (with a WebhookDisabled event). */
  WEBHOOK_DISABLE_AFTER_SECONDS: int(86_400, 1),
  /** Delivered and failed deliveries are kept this long in the delivery log. */
  WEBHOOK_DELIVERY_RETENTION_DAYS: int(30, 1, 3650),
  /** After a secret rotation the previous secret also signs for this long (unless the request says otherwise). */
  WEBHOOK_SECRET_GRACE_SECONDS: int(86_400, 0, 30 * 86_400),
  /** How often each replica looks for due deliveries it was not woken for (other replicas' rows, restarts). */
  WEBHOOK_POLL_SECONDS: int(5, 1, 3600),
  /** Subscriptions one replica delivers to at once (each in order, one request at a time). */
  WEBHOOK_CONCURRENCY: int(16, 1, 500),
  // Mirror (src/mirror, README "Mirror a cluster").
  /** A kubeconfig: the service follows that cluster (list + watch) and its nodes and pods belong to it. */
  SYNC_KUBECONFIG: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /** The kubeconfig context to use; absent = its current-context. */
  SYNC_CONTEXT: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  /** Write-through: `POST /v1/taints`, cordon and uncordon on mirrored nodes are sent to the cluster as PATCH. */
  SYNC_WRITE: bool(false),
  /** How long a write-through waits for the watch to bring its change back before a 504. */
  SYNC_WRITE_TIMEOUT_MS: int(10_000, 100, 600_000),
  /**
   * Objects per list request (`limit`; the rest follows with `continue`), and per transaction of the initial sync.
   * 5,000 rather than 1,000: fewer, larger transactions took ~10 % less of the mirror's time at 150,000 pods in both
   * storage modes, and a page stays a few MB (bench/ANALYSIS.md, issue 14).
   */
  SYNC_LIST_CHUNK: int(5000, 1, 10_000),
  /** Watch events applied per transaction at most (a burst of 1,000 events is one transaction). */
  SYNC_BATCH_MAX: int(1000, 1, 20_000),
  /** How long the first event of a batch waits for others before the batch is applied. */
  SYNC_BATCH_WAIT_MS: int(25, 0, 5000),
  /** Reconnect backoff: the first wait and the ceiling (doubling, with full jitter). */
  SYNC_BACKOFF_INITIAL_MS: int(200, 1, 60_000),
  SYNC_BACKOFF_MAX_MS: int(30_000, 1, 600_000),
  /** A forecast past its evictAt by more than this (the cluster has not evicted yet) is flagged overdue. */
  SYNC_FORECAST_GRACE_SECONDS: int(60, 0),
  /** Resources the cluster cannot watch (an empty list resourceVersion) are listed again this often. */
  SYNC_RELIST_SECONDS: int(60, 1, 86_400),
  // Observability.
  /** Every GC pause into taintwise_gc_pause_seconds and taintwise_gc_pause_max_seconds on /metrics. */
  METRICS_GC_PAUSES: bool(true),
  /**
   * Bench only: GET /ops/gc-pauses (the recent pauses) and POST /ops/heap (a forced full collection, then
   * V8's heap statistics). Refused with NODE_ENV=production.
   */
  BENCH_OPS_ROUTES: bool(false),
});

export type AppConfig = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parse the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production' && config.API_KEYS.length === 0) {
    throw new ConfigError(
      'Invalid configuration:\n  API_KEYS: required when NODE_ENV=production (the service refuses to run open)',
    );
  }
  if (config.NODE_ENV === 'production' && config.BENCH_OPS_ROUTES) {
    throw new ConfigError(
      'Invalid configuration:\n  BENCH_OPS_ROUTES: a bench-only setting, refused when NODE_ENV=production',
    );
  }
  if (config.SYNC_WRITE && !config.SYNC_KUBECONFIG) {
    throw new ConfigError(
      'Invalid configuration:\n  SYNC_WRITE: needs SYNC_KUBECONFIG (write-through writes to the mirrored cluster)',
    );
  }
  return config;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
