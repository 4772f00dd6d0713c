import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DELAYED_JOBS } from '../core/tokens';
import type { ChangeSet } from '../inventory/change-set';
import { isActivePhase, type StoredPod } from '../inventory/model';
import { NodeRepository } from '../inventory/node.repository';
import { PodRepository } from '../inventory/pod.repository';
import type { Db } from '../inventory/prisma-types';
import { UnitOfWork } from '../inventory/unit-of-work';
import type { DelayedJob, DelayedJobs } from '../timers/delayed-jobs';
import { EvictionPlanner, timerFor } from './eviction-planner';
import { evictionTimerId, type EvictionTimerData } from './eviction-timer-id';

/** Who evictions done by a timer are recorded as (the upstream controller's name). */
export const EVICTION_WORKER_ACTOR = 'taint-eviction-controller';

/** Firings handled in one transaction at most: a burst of 10,000 deadlines is ~20 transactions, not 10,000. */
const MAX_BATCH = 500;

interface Waiting {
  data: EvictionTimerData;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Handles the eviction timers (SEMANTICS A.4, DESIGN.md point 5). A timer only proposes: the
 * handler locks the pod's node, then the eviction row (`SELECT … FOR UPDATE`); a row that is no
 * longer Scheduled, or whose evictAt is not the timer's, means the timer is stale and nothing
 * happens. Otherwise the pod and node are re-read and `EvictionPlanner.replan` decides with the rule
 * of A.3 at this instant: evict (at/after the deadline), re-time, or cancel.
 *
 * At most once, even with several replicas and retries: the node lock serialises against every
 * mutation of that node, the row lock and the status check against another firing of the same row,
 * and the planner's conditional `updateMany … where status = 'Scheduled'` backs both up.
 *
 * Firings that arrive together (a burst of deadlines in the same second) are coalesced: whatever
 * queued while a transaction ran goes into the next one, up to {@link MAX_BATCH}. A failing batch
 * is retried firing by firing, so one bad row cannot hold back the others.
 */
@Injectable()
export class EvictionWorker implements OnApplicationBootstrap {
  private readonly logger = new Logger('eviction-worker');
  private readonly queue: Waiting[] = [];
  private running = 0;
  /**
   * One batch at a time: batches fired together mostly share nodes, so parallel ones would only wait
   * for each other's node locks (measured: 4 in parallel were 10× slower than 1 on PostgreSQL), and
   * PGlite is one connection anyway. Throughput comes from the batch size instead.
   */
  private readonly maxParallel = 1;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly nodes: NodeRepository,
    private readonly pods: PodRepository,
    private readonly planner: EvictionPlanner,
    @Inject(DELAYED_JOBS) private readonly jobs: DelayedJobs,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.start((job) => this.handle(job));
  }

  /** The timer handler: resolves once the firing's transaction committed (or it was stale). */
  handle(job: DelayedJob): Promise<void> {
    const data = job.data as Partial<EvictionTimerData>;
    if (typeof data.evictionId !== 'string' || typeof data.evictAt !== 'string' || Number.isNaN(Date.parse(data.evictAt))) {
      this.logger.warn({ msg: 'ignoring a timer that is not an eviction timer', id: job.id });
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ data: { evictionId: data.evictionId!, evictAt: data.evictAt! }, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.maxParallel && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.running++;
      void this.runBatch(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async runBatch(batch: Waiting[]): Promise<void> {
    try {
      await this.fire(batch.map((w) => w.data));
      for (const w of batch) w.resolve();
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      this.logger.warn({ msg: 'eviction batch failed; retrying its firings one by one', size: batch.length, err: String(error) });
      for (const w of batch) {
        try {
          await this.fire([w.data]);
          w.resolve();
        } catch (single) {
          w.reject(single);
        }
      }
    }
  }

  /** One transaction for a set of firings. */
  private async fire(firings: readonly EvictionTimerData[]): Promise<void> {
    const wanted = new Map(firings.map((f) => [f.evictionId, Date.parse(f.evictAt)]));
    const ids = [...wanted.keys()];
    await this.uow.run({ name: EVICTION_WORKER_ACTOR }, async (tx, changes) => {
      const current = <R extends { id: string; evictAt: Date }>(rows: R[]): R[] => rows.filter((r) => wanted.get(r.id) === r.evictAt.getTime());
      // A first unlocked look tells which nodes to lock; stale timers stop here without any lock.
      const candidates = current(await tx.eviction.findMany({ where: { id: { in: ids }, status: 'Scheduled' }, select: { id: true, evictAt: true, nodeName: true, podUid: true } }));
      if (candidates.length === 0) return;
      const before = await this.pods.findByUids(tx, candidates.map((r) => r.podUid));
      const nodeNames = [...new Set([...candidates.map((r) => r.nodeName), ...before.flatMap((p) => (p.nodeName ? [p.nodeName] : []))])].sort();
      await this.nodes.lock(tx, nodeNames);
      await tx.$queryRawUnsafe('SELECT id FROM evictions WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', candidates.map((r) => r.id));

      // Under the locks: the truth.
      const rows = current(await tx.eviction.findMany({
        where: { id: { in: candidates.map((r) => r.id) }, status: 'Scheduled' },
        select: { id: true, evictAt: true, nodeName: true, podUid: true, namespace: true, podName: true },
      }));
      if (rows.length === 0) return;
      const now = this.uow.now();
      const pods = new Map((await this.pods.findByUids(tx, rows.map((r) => r.podUid))).map((p) => [p.uid, p]));
      const nodes = new Map((await this.nodes.findByNames(tx, nodeNames)).map((n) => [n.name, n]));
      const onNode: StoredPod[] = [];
      const left: Array<{ uid: string; namespace: string; name: string }> = [];
      for (const row of rows) {
        const pod = pods.get(row.podUid);
        if (pod && pod.nodeName === row.nodeName && isActivePhase(pod.phase)) onNode.push(pod);
        else left.push({ uid: row.podUid, namespace: row.namespace, name: row.podName });
      }
      await this.planner.cancelForPods(tx, left, 'the pod is no longer bound to the node', now, changes);
      await this.planner.replan(tx, onNode, nodes, now, changes);
      // The timers firing now are not pending: cancelling them would only cost Redis round trips.
      for (const row of rows) changes.timersToCancel.delete(evictionTimerId(row.id, row.evictAt));
      const replanned = new Set(onNode.map((p) => p.uid));
      await this.rearmUnchanged(tx, rows.filter((r) => replanned.has(r.podUid)), changes);
    });
  }

  /**
   * A row the rule left exactly as it was (Scheduled, same evictAt) fired a hair early by this
   * replica's clock (another replica's BullMQ promoted it): arm its timer again, or it would wait for
   * the reconciler.
   */
  private async rearmUnchanged(tx: Db, rows: Array<{ id: string; evictAt: Date }>, changes: ChangeSet): Promise<void> {
    if (rows.length === 0) return;
    const still = await tx.eviction.findMany({ where: { id: { in: rows.map((r) => r.id) }, status: 'Scheduled' }, select: { id: true, evictAt: true } });
    const fired = new Map(rows.map((r) => [r.id, r.evictAt.getTime()]));
    for (const row of still) {
      if (fired.get(row.id) === row.evictAt.getTime()) changes.schedule(timerFor(row.id, row.evictAt));
    }
  }
}
