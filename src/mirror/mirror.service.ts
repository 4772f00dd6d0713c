import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { AppError, type ErrorKind } from '../kernel/errors/app-error';
import { Metrics } from '../kernel/observability/metrics';
import { READINESS_CHECKS, type ReadinessCheck } from '../kernel/observability/readiness';
import { BudgetRepository } from '../kernel/persistence/repositories/budget.repository';
import { EvictionRepository } from '../kernel/persistence/repositories/eviction.repository';
import { Gauge } from 'prom-client';
import { NodeRepository } from '../kernel/persistence/repositories/node.repository';
import { PodRepository } from '../kernel/persistence/repositories/pod.repository';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import { ImportService, type ClusterBatch } from '../inventory/import.service';
import { backoffDelay, type BackoffPolicy } from './backoff';
import { ClusterClient, httpStatusOf, type ListPage, type WatchEventType, type WatchHandle } from './cluster-client';
import { EventBatcher, type MirroredResource, type PendingChange } from './event-batcher';
import { splitKey, vanishedKeys } from './relist-diff';
import { SyncMetrics, type SyncState } from './sync-metrics';

/** Who the mirror's changes are recorded as (the audit history's actor). */
export const MIRROR_ACTOR = 'cluster-mirror';

const RESOURCES: readonly MirroredResource[] = ['nodes', 'pods', 'budgets'];
const KIND: Record<MirroredResource, { kind: string; apiVersion: string }> = {
  nodes: { kind: 'Node', apiVersion: 'v1' },
  pods: { kind: 'Pod', apiVersion: 'v1' },
  budgets: { kind: 'PodDisruptionBudget', apiVersion: 'policy/v1' },
};
/** Watches ask the server to end them after about this long (the API server's own default is 30–60 min). */
const WATCH_TIMEOUT_SECONDS = 300;

type Obj = Record<string, unknown>;

/** Someone waiting for an object's version to come back through the watch (write-through). */
interface VersionWaiter {
  resource: MirroredResource;
  key: string;
  resourceVersion: string;
  resolve: () => void;
}

/**
 * Follows a live cluster (SYNC_KUBECONFIG): lists nodes, pods and policy/v1 PodDisruptionBudgets in chunks, each
 * chunk one transaction through the import path of `POST /v1/import` (`ImportService.applyFromCluster`), deletes
 * what the cluster no longer has, then watches each resource from its list's resourceVersion. Watch events are
 * coalesced per object and applied in batches (`EventBatcher`: at most SYNC_BATCH_MAX objects per transaction);
 * the unit of work keeps the snapshot and the eviction planner in step as for local writes. Bookmarks advance the
 * resume point; a dropped connection is reopened with backoff and full jitter from the last version seen; a 410
 * Gone (at open or as an ERROR event) relists that resource and writes only the difference.
 *
 * `/readyz` says `syncing` (503) until the first list is stored; afterwards it stays ready while reconnecting
 * (the mirror answers from its inventory) and names the state. Events SyncStarted, SyncLost, SyncResumed.
 */
@Injectable()
export class MirrorService implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('mirror');
  private state: SyncState = 'syncing';
  private client!: ClusterClient;
  private readonly batcher = new EventBatcher();
  private readonly versions: Record<MirroredResource, string> = { nodes: '', pods: '', budgets: '' };
  private readonly watches = new Map<MirroredResource, WatchHandle>();
  private readonly attempts: Record<MirroredResource, number> = { nodes: 0, pods: 0, budgets: 0 };
  private readonly needsRelist = new Set<MirroredResource>();
  private readonly lostResources = new Set<MirroredResource>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiters = new Set<VersionWaiter>();
  private readonly sleepers = new Set<() => void>();
  private flushTimer?: NodeJS.Timeout;
  private flushRunning = false;
  /** Every write to the database goes through this chain: batches and relist pages commit in arrival order. */
  private serial: Promise<unknown> = Promise.resolve();
  private stopping = false;
  private started?: Promise<void>;
  private readonly metrics: SyncMetrics;
  private readonly policy: BackoffPolicy;

  constructor(
    private readonly imports: ImportService,
    private readonly uow: UnitOfWork,
    private readonly nodes: NodeRepository,
    private readonly pods: PodRepository,
    private readonly budgets: BudgetRepository,
    evictions: EvictionRepository,
    metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
  ) {
    this.metrics = new SyncMetrics(metrics, () => Date.now());
    this.policy = { initialMs: config.SYNC_BACKOFF_INITIAL_MS, maxMs: config.SYNC_BACKOFF_MAX_MS };
    const overdue: Gauge = new Gauge({
      name: 'taintwise_sync_forecasts_overdue',
      help: 'Mirror: Scheduled forecasts more than SYNC_FORECAST_GRACE_SECONDS past evictAt (the cluster has not evicted)',
      registers: [metrics.registry],
      collect: async () => {
        const graceMs = config.SYNC_FORECAST_GRACE_SECONDS * 1000;
        overdue.set(await evictions.countOverdueForecasts(uow.db, uow.now(), graceMs).catch(() => 0));
      },
    });
  }

  onModuleInit(): void {
    this.client = ClusterClient.fromKubeconfig(this.config.SYNC_KUBECONFIG!, this.config.SYNC_CONTEXT);
    this.metrics.setState('syncing');
    this.checks.push({
      name: 'sync',
      check: async () => {
        const detail = { state: this.state, server: this.client.server };
        if (this.state === 'syncing' || this.state === 'stopped')
          throw Object.assign(new Error(this.state), { detail });
        return detail;
      },
    });
  }

  onApplicationBootstrap(): void {
    // Not awaited: the service answers (from what it stored before) while the first list runs; /readyz says syncing.
    this.started = this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.setState('stopped');
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const wake of this.sleepers) wake();
    this.sleepers.clear();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    for (const w of this.watches.values()) w.abort();
    this.watches.clear();
    await this.started?.catch(() => undefined);
    await this.serial.catch(() => undefined);
  }

  /** The sync state (`/readyz`, the serviceInfo). */
  get syncState(): SyncState {
    return this.state;
  }

  get cluster(): ClusterClient {
    return this.client;
  }

  /**
   * Resolves once the watch has brought back (and the snapshot holds) this version of the object, e.g. a node a
   * write-through just patched; rejects after `timeoutMs`.
   */
  waitForVersion(resource: MirroredResource, key: string, resourceVersion: string, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: VersionWaiter = {
        resource,
        key,
        resourceVersion,
        resolve: () => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(
          new Error(`the change to ${resource} "${key}" did not come back through the watch within ${timeoutMs} ms`),
        );
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  // ---- write-through (SYNC_WRITE) ----

  /** Whether taint, cordon and uncordon writes to mirrored nodes go to the cluster (else they are 409). */
  get writesThrough(): boolean {
    return this.config.SYNC_WRITE;
  }

  /**
   * Sends each node's change to the cluster as `kubectl taint` / `cordon` / `uncordon` do (a strategic-merge PATCH
   * of the node, with the kubeconfig's credentials), then waits until the watch has brought every patched version
   * back into the inventory and the snapshot (bounded by SYNC_WRITE_TIMEOUT_MS: then a 504 problem). The cluster's
   * refusals keep their status (403 RBAC, 404, 409, 422).
   */
  async writeThrough(patches: ReadonlyArray<{ name: string; patch: Record<string, unknown> }>): Promise<void> {
    if (!this.config.SYNC_WRITE)
      throw new AppError('Conflict', 'write-through is off (SYNC_WRITE): mirrored nodes are changed in the cluster');
    const deadline = Date.now() + this.config.SYNC_WRITE_TIMEOUT_MS;
    const waits: Array<Promise<void>> = [];
    for (const { name, patch } of patches) {
      let version: string;
      try {
        ({ resourceVersion: version } = await this.client.patchNode(name, patch));
      } catch (error) {
        await Promise.allSettled(waits);
        throw clusterRefusal(name, error);
      }
      waits.push(this.waitForVersion('nodes', name, version, Math.max(1, deadline - Date.now())));
    }
    const outcomes = await Promise.allSettled(waits);
    const late = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (late)
      throw new AppError(
        'GatewayTimeout',
        `the cluster accepted the change, but the watch did not bring it back within ${this.config.SYNC_WRITE_TIMEOUT_MS} ms (SYNC_WRITE_TIMEOUT_MS); it will show once the mirror catches up`,
        [],
        { syncState: this.state },
      );
  }

  // ---- initial sync ----

  private async start(): Promise<void> {
    let attempt = 0;
    const begun = performance.now();
    while (!this.stopping) {
      try {
        const counts: Record<string, { listed: number; deleted: number }> = {};
        for (const r of RESOURCES) counts[r] = await this.relist(r, 'initial');
        const seconds = (performance.now() - begun) / 1000;
        this.metrics.initialSyncSeconds.set(seconds);
        await this.record('SyncStarted', {
          server: this.client.server,
          ...(this.config.SYNC_CONTEXT ? { context: this.config.SYNC_CONTEXT } : {}),
          listed: counts,
          seconds: Math.round(seconds * 1000) / 1000,
        });
        this.logger.log({ msg: 'initial sync stored', server: this.client.server, counts, seconds });
        break;
      } catch (error) {
        if (this.stopping) return;
        const wait = backoffDelay(this.policy, attempt++, Math.random());
        this.logger.warn({ msg: 'initial sync failed; retrying', err: String(error), waitMs: wait });
        await this.sleep(wait);
      }
    }
    if (this.stopping) return;
    this.setState('watching');
    for (const r of RESOURCES) void this.openWatch(r);
  }

  /**
   * Lists a resource in chunks (each one transaction), then deletes what the cluster no longer has: only the
   * difference is written. Events of that resource still waiting are dropped (the list supersedes them).
   *
   * Pipelined: the request for page N+1 is sent before page N is written, so the cluster serves (and the client
   * reads) the next page while this service's transaction runs; at most one page is read ahead, so memory and
   * each transaction stay bounded by SYNC_LIST_CHUNK. Writing and then asking, one after the other, left both
   * sides idle half the time (bench/ANALYSIS.md, issue 14).
   */
  private async relist(
    resource: MirroredResource,
    reason: 'initial' | 'gone' | 'unwatchable',
  ): Promise<{ listed: number; deleted: number }> {
    await this.serial.catch(() => undefined);
    this.batcher.dropResource(resource);
    const seen = new Set<string>();
    let cont: string | undefined;
    let version: string;
    let next = this.readAhead(resource, undefined);
    for (;;) {
      if (this.stopping) throw new Error('shutting down');
      let page;
      try {
        page = await next;
      } catch (error) {
        // an expired continue token: the list starts over (a consistent list, as client-go's pager does)
        if (httpStatusOf(error) === 410 && cont) {
          cont = undefined;
          seen.clear();
          next = this.readAhead(resource, undefined);
          continue;
        }
        throw error;
      }
      if (page.continue) {
        cont = page.continue;
        next = this.readAhead(resource, cont);
      }
      for (const item of page.items) seen.add(keyOf(resource, item));
      if (page.items.length) await this.write({ objects: page.items, deleted: noDeletes() });
      if (!page.continue) {
        version = page.resourceVersion;
        break;
      }
    }
    const gone = vanishedKeys(await this.storedKeys(resource), seen);
    for (let i = 0; i < gone.length; i += this.config.SYNC_LIST_CHUNK) {
      const chunk = gone.slice(i, i + this.config.SYNC_LIST_CHUNK);
      const deleted = noDeletes();
      if (resource === 'nodes') deleted.nodes = chunk;
      else if (resource === 'pods') deleted.pods = chunk.map(splitKey);
      else deleted.budgets = chunk.map(splitKey);
      await this.write({ objects: [], deleted });
    }
    this.versions[resource] = version;
    if (reason !== 'initial') this.metrics.relists.inc({ resource, reason });
    return { listed: seen.size, deleted: gone.length };
  }

  /** One page requested now and awaited later (a failed write must not leave its rejection unhandled). */
  private readAhead(resource: MirroredResource, cont: string | undefined): Promise<ListPage> {
    const page = this.client.listPage(resource, this.config.SYNC_LIST_CHUNK, cont);
    page.catch(() => undefined);
    return page;
  }

  private async storedKeys(resource: MirroredResource): Promise<string[]> {
    const db = this.uow.db;
    if (resource === 'nodes') return this.nodes.clusterNodeNames(db);
    const keys = resource === 'pods' ? await this.pods.clusterPodKeys(db) : await this.budgets.clusterBudgetKeys(db);
    return keys.map((k) => `${k.namespace}/${k.name}`);
  }

  // ---- watches ----

  private async openWatch(resource: MirroredResource): Promise<void> {
    if (this.stopping) return;
    try {
      // after a 410, or for a resource that cannot be watched once the connection was lost: list again now
      const unwatchable = this.versions[resource] === '';
      if (this.needsRelist.has(resource) || (unwatchable && this.lostResources.has(resource))) {
        await this.relist(resource, unwatchable ? 'unwatchable' : 'gone');
        this.needsRelist.delete(resource);
      }
    } catch (error) {
      this.failed(resource, error);
      return;
    }
    if (this.versions[resource] === '') {
      // The server gave no resourceVersion: that resource cannot be watched from it; list it again periodically.
      this.later(() => {
        this.relist(resource, 'unwatchable').then(
          () => void this.openWatch(resource),
          (error: unknown) => this.failed(resource, error),
        );
      }, this.config.SYNC_RELIST_SECONDS * 1000);
      this.resumed(resource);
      return;
    }
    let received = false;
    let handle: WatchHandle | undefined;
    try {
      handle = await this.client.watch(
        resource,
        this.versions[resource],
        {
          event: (type, object) => {
            if (this.onEvent(resource, type, object)) received = true;
            else if (type === 'ERROR') handle?.abort();
          },
          done: (error) => this.watchEnded(resource, error, received),
        },
        WATCH_TIMEOUT_SECONDS,
      );
    } catch (error) {
      this.failed(resource, error);
      return;
    }
    if (!handle.opened) return; // done() already ran
    if (this.stopping) {
      handle.abort();
      return;
    }
    this.watches.set(resource, handle);
    this.resumed(resource);
  }

  /** One watch line; answers whether it was a change or a bookmark (the stream is alive). */
  private onEvent(resource: MirroredResource, type: WatchEventType, object: Obj): boolean {
    const now = Date.now();
    this.metrics.eventArrived(now);
    const meta = (object?.metadata ?? {}) as { resourceVersion?: string };
    switch (type) {
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED': {
        if (meta.resourceVersion) this.versions[resource] = meta.resourceVersion;
        const full = { ...KIND[resource], ...object };
        this.batcher.add({
          resource,
          key: keyOf(resource, full),
          action: type === 'DELETED' ? 'delete' : 'upsert',
          object: full,
          receivedAt: now,
        });
        this.scheduleFlush();
        return true;
      }
      case 'BOOKMARK':
        if (meta.resourceVersion) this.versions[resource] = meta.resourceVersion;
        return true;
      case 'ERROR': {
        const code = (object as { code?: number }).code;
        if (code === 410) this.needsRelist.add(resource);
        else this.logger.warn({ msg: 'watch error event', resource, status: object });
        return false;
      }
      default:
        return false;
    }
  }

  private watchEnded(
    resource: MirroredResource,
    error: (Error & { statusCode?: number }) | null,
    received: boolean,
  ): void {
    this.watches.delete(resource);
    if (this.stopping) return;
    if (httpStatusOf(error) === 410) this.needsRelist.add(resource);
    // 410 Gone (an answer, or an ERROR event that made us close the stream): relist at once, nothing was lost
    if (this.needsRelist.has(resource)) {
      this.later(() => void this.openWatch(resource), 0);
      return;
    }
    if (received) this.attempts[resource] = 0;
    if (error && !received) {
      this.failed(resource, error);
      return;
    }
    if (error) this.lost(resource, error);
    // A clean end (the server's timeout) or a cut after events: open again at once;
    // a stream that gave nothing: back off.
    const wait = received ? 0 : backoffDelay(this.policy, this.attempts[resource]++, Math.random());
    this.later(() => void this.openWatch(resource), wait);
  }

  /** A list or watch request failed: the connection is lost; try again after a backoff with jitter. */
  private failed(resource: MirroredResource, error: unknown): void {
    if (this.stopping) return;
    this.lost(resource, error);
    const wait = backoffDelay(this.policy, this.attempts[resource]++, Math.random());
    this.logger.warn({ msg: 'cluster connection failed; reconnecting', resource, err: String(error), waitMs: wait });
    this.later(() => void this.openWatch(resource), wait);
  }

  private lost(resource: MirroredResource, error: unknown): void {
    this.metrics.reconnects.inc({ resource });
    if (this.lostResources.has(resource)) return;
    const first = this.lostResources.size === 0;
    this.lostResources.add(resource);
    if (!first) return;
    this.setState('reconnecting');
    void this.record('SyncLost', { resource, error: String(error), server: this.client.server }).catch((e: unknown) =>
      this.logger.warn({ msg: 'recording SyncLost failed', err: String(e) }),
    );
  }

  private resumed(resource: MirroredResource): void {
    if (!this.lostResources.delete(resource) || this.lostResources.size > 0) return;
    this.setState('watching');
    void this.record('SyncResumed', { server: this.client.server }).catch((e: unknown) =>
      this.logger.warn({ msg: 'recording SyncResumed failed', err: String(e) }),
    );
  }

  // ---- batches ----

  private scheduleFlush(): void {
    if (this.flushTimer || this.flushRunning || this.stopping) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, this.config.SYNC_BATCH_WAIT_MS);
  }

  private async flush(): Promise<void> {
    this.flushRunning = true;
    let failures = 0;
    try {
      while (this.batcher.size > 0 && !this.stopping) {
        const batch = this.batcher.take(this.config.SYNC_BATCH_MAX);
        try {
          await this.applyChanges(batch);
          failures = 0;
        } catch (error) {
          this.batcher.putBack(batch);
          const wait = backoffDelay(this.policy, failures++, Math.random());
          this.logger.warn({ msg: 'applying watch events failed; retrying', err: String(error), waitMs: wait });
          await this.sleep(wait);
        }
      }
    } finally {
      this.flushRunning = false;
      if (this.batcher.size > 0) this.scheduleFlush();
    }
  }

  private async applyChanges(batch: readonly PendingChange[]): Promise<void> {
    const objects: unknown[] = [];
    const deleted = noDeletes();
    for (const c of batch) {
      if (c.action === 'upsert') objects.push(c.object);
      else if (c.resource === 'nodes') deleted.nodes.push(c.key);
      else if (c.resource === 'pods') deleted.pods.push(splitKey(c.key));
      else deleted.budgets.push(splitKey(c.key));
    }
    await this.write({ objects, deleted });
    // COMMIT is done and the unit of work has applied the change to the snapshot
    const now = Date.now();
    this.metrics.batches.inc();
    for (const c of batch) {
      this.metrics.applyLag.observe((now - c.receivedAt) / 1000);
      this.metrics.applyLagWindow.observe((now - c.receivedAt) / 1000);
      this.metrics.eventsApplied.inc({ resource: c.resource, type: c.action }, c.events);
    }
    if (this.waiters.size > 0) this.wakeWaiters(batch);
  }

  private wakeWaiters(batch: readonly PendingChange[]): void {
    for (const c of batch) {
      if (c.action !== 'upsert') continue;
      const version = ((c.object as Obj).metadata as { resourceVersion?: string } | undefined)?.resourceVersion;
      for (const w of [...this.waiters])
        if (w.resource === c.resource && w.key === c.key && w.resourceVersion === version) w.resolve();
    }
  }

  /** One transaction through the import path, after every write queued before it. */
  private write(batch: ClusterBatch): Promise<unknown> {
    const run = this.serial
      .catch(() => undefined)
      .then(() => this.imports.applyFromCluster(batch, { name: MIRROR_ACTOR }));
    this.serial = run;
    return run;
  }

  private record(type: string, data: Record<string, unknown>): Promise<unknown> {
    return this.write({ objects: [], deleted: noDeletes(), event: { type, data } });
  }

  private setState(state: SyncState): void {
    this.state = state;
    this.metrics.setState(state);
  }

  private later(fn: () => void, ms: number): void {
    if (this.stopping) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopping) fn();
    }, ms);
    this.timers.add(t);
  }

  /** Waits `ms`, or less when the service stops (then the caller sees `stopping`). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stopping) return resolve();
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.sleepers.delete(resolve);
        resolve();
      }, ms);
      this.timers.add(t);
      this.sleepers.add(resolve);
    });
  }
}

const CLUSTER_STATUS: Record<number, ErrorKind> = {
  400: 'BadRequest',
  401: 'Forbidden',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  422: 'Invalid',
  429: 'RateLimited',
};

/** The cluster refused a write-through PATCH: its status kept where it means the same here, else 503. */
function clusterRefusal(node: string, error: unknown): AppError {
  const status = httpStatusOf(error);
  const body = (error as { body?: unknown }).body;
  let message = error instanceof Error ? error.message : String(error);
  if (typeof body === 'string') {
    try {
      message = (JSON.parse(body) as { message?: string }).message ?? message;
    } catch {
      // not a Status: keep the client's message
    }
  }
  const kind: ErrorKind = status !== undefined ? (CLUSTER_STATUS[status] ?? 'Unavailable') : 'Unavailable';
  return new AppError(kind, `the cluster refused the write-through to nodes "${node}": ${message}`, [], {
    clusterStatus: status ?? null,
  });
}

function noDeletes(): {
  nodes: string[];
  pods: Array<{ namespace: string; name: string }>;
  budgets: Array<{ namespace: string; name: string }>;
} {
  return { nodes: [], pods: [], budgets: [] };
}

/** nodes: the name; pods and budgets: namespace/name. */
export function keyOf(resource: MirroredResource, object: Obj): string {
  const meta = (object.metadata ?? {}) as { name?: string; namespace?: string };
  return resource === 'nodes' ? String(meta.name ?? '') : `${meta.namespace ?? 'default'}/${meta.name ?? ''}`;
}
