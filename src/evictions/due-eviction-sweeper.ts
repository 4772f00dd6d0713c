import { setImmediate } from 'node:timers/promises';
import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { isActivePhase, type StoredPod } from '../kernel/model/stored-objects';
import { NodeRepository } from '../kernel/persistence/repositories/node.repository';
import { PodRepository } from '../kernel/persistence/repositories/pod.repository';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import { EvictionPlanner } from './eviction-planner.service';
import {
  EvictionRepository,
  type DueQuery,
  type ScheduledRow,
} from '../kernel/persistence/repositories/eviction.repository';
import { planSweepGroups } from './due-sweep-plan';

/** Who evictions done by a timer are recorded as (the upstream controller's name). */
export const EVICTION_WORKER_ACTOR = 'taint-eviction-controller';

/** Due rows handled in one transaction at most: a burst of 10,000 deadlines is two transactions. */
export const SWEEP_BATCH = 5000;
/**
 * On PostgreSQL a sweep runs this many transactions side by side, each on its own group of nodes
 * (due-sweep-plan.ts): their node locks never overlap, and while one waits on PostgreSQL (on the other
 * core) the other decides in JavaScript (docs/EVICTIONS.md has the figures). Embedded PGlite has one
 * connection: one at a time there.
 */
const SWEEP_PARALLEL_POSTGRES = 2;
/** When due rows were left because another transaction held them, look again this much later. */
const FOLLOW_UP_MS = 250;
/** A row whose own transaction failed alone is left out of sweeps for this long (then tried again). */
const QUARANTINE_MS = 60_000;

/** What a batch may take: the due rows of these nodes, or (none given) of the nodes of the earliest due rows. */
interface Scope {
  nodes?: readonly string[];
}

const ANY_NODE: Scope = {};
/** Nodes a sweep plans at most (a backlog on more nodes is taken by the batches that follow the plan). */
const PLANNED_NODES = 50_000;

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Executes the evictions that are due (SEMANTICS A.3–A.5): Scheduled rows with `evictAt ≤ now`, in batches of
 * {@link SWEEP_BATCH}, one transaction each, re-decided by the planner at this instant. One sweep at a time
 * (requests coalesce); node locks then row locks, both `SKIP LOCKED`, like every writer; failing batches are
 * bisected and a row failing alone is quarantined. Why each of these: docs/EVICTIONS.md, "The due-eviction sweep".
 */
@Injectable()
export class DueEvictionSweeper implements OnApplicationShutdown {
  private readonly logger = new Logger('eviction-sweeper');
  private running?: Promise<void>;
  private next?: Deferred;
  private followUp?: NodeJS.Timeout;
  private stopped = false;
  private readonly quarantine = new Map<string, number>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly nodes: NodeRepository,
    private readonly pods: PodRepository,
    private readonly planner: EvictionPlanner,
    private readonly evictions: EvictionRepository,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.followUp) clearTimeout(this.followUp);
  }

  /** Resolves once a sweep that started after this call has finished (rejects if it failed). */
  request(): Promise<void> {
    if (!this.running) return this.start();
    this.next ??= deferred();
    return this.next.promise;
  }

  private start(): Promise<void> {
    const run = this.sweep();
    this.running = run;
    void run.then(this.settled, this.settled);
    return run;
  }

  private readonly settled = (): void => {
    this.running = undefined;
    const waiting = this.next;
    this.next = undefined;
    if (waiting) this.start().then(waiting.resolve, waiting.reject);
  };

  /**
   * The due rows counted per node and split into even node groups, one transaction each, run side by side
   * on PostgreSQL; then, if a group had more than a batch, batches until one comes back short; then a check
   * for due rows someone else held.
   */
  private async sweep(): Promise<void> {
    const parallel = this.uow.concurrentTransactions ? SWEEP_PARALLEL_POSTGRES : 1;
    const due = await this.evictions.dueRowsPerNode(this.uow.db, {
      now: this.uow.now(),
      excluded: this.quarantined(),
      limit: PLANNED_NODES,
    });
    const groups = planSweepGroups(due, SWEEP_BATCH, parallel);
    let full = due.length === PLANNED_NODES;
    const workers = Array.from({ length: Math.min(parallel, groups.length) }, async () => {
      for (let next = groups.shift(); next; next = groups.shift())
        if ((await this.batchChecked({ nodes: next })) >= SWEEP_BATCH) full = true;
    });
    const outcomes = await Promise.allSettled(workers);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    if (full) while ((await this.batchChecked(ANY_NODE)) >= SWEEP_BATCH);
    if (!this.stopped && (await this.dueRowsLeft())) this.scheduleFollowUp();
  }

  private async batchChecked(scope: Scope): Promise<number> {
    // One turn of the event loop first, so the events the batch before published at its COMMIT are written to
    // watchers before this batch takes its clock and its rows (when PGlite ran in the service's thread, a sweep's
    // first 5,000 events left only when the last batch committed; it has a thread of its own now, and the turn is
    // still what orders the first batch's writes before the second batch's work).
    await setImmediate();
    // Shutting down: fail, so the firing stays with the timers (retried, or re-armed at start-up).
    if (this.stopped) throw new Error('the eviction sweeper is shutting down');
    return this.batchIsolating(scope);
  }

  private scheduleFollowUp(): void {
    if (this.followUp || this.stopped) return;
    this.followUp = setTimeout(() => {
      this.followUp = undefined;
      this.request().catch((error: unknown) =>
        this.logger.warn({ msg: 'follow-up eviction sweep failed', err: String(error) }),
      );
    }, FOLLOW_UP_MS);
    this.followUp.unref();
  }

  /** One batch; if it fails, its rows bisected into their own transactions. Returns the rows taken. */
  private async batchIsolating(scope: Scope): Promise<number> {
    const taken: string[] = [];
    try {
      return await this.batch(scope, taken);
    } catch (error) {
      if (taken.length <= 1) throw error;
      const outcome = { succeeded: 0, failed: [] as string[] };
      await this.bisect(taken, outcome);
      if (outcome.succeeded === 0) throw error;
      const until = this.uow.now().getTime() + QUARANTINE_MS;
      for (const id of outcome.failed) this.quarantine.set(id, until);
      this.logger.warn({
        msg: 'eviction rows failed on their own; left out of sweeps for a while',
        rows: outcome.failed,
        err: String(error),
      });
      return taken.length;
    }
  }

  private async bisect(ids: string[], outcome: { succeeded: number; failed: string[] }): Promise<void> {
    try {
      await this.batch(ANY_NODE, [], ids);
      outcome.succeeded += ids.length;
    } catch {
      if (ids.length === 1) {
        outcome.failed.push(ids[0]);
        return;
      }
      const half = Math.ceil(ids.length / 2);
      await this.bisect(ids.slice(0, half), outcome);
      await this.bisect(ids.slice(half), outcome);
    }
  }

  /**
   * One transaction: lock the scope's nodes (or the earliest due rows' nodes), then the due rows of those
   * nodes (both SKIP LOCKED), read their pods and nodes in two set queries, and let the planner decide and
   * write. `taken` receives the ids of the rows locked; `only` restricts the batch to those ids (bisection).
   */
  private async batch(scope: Scope, taken: string[], only?: readonly string[]): Promise<number> {
    const excluded = this.quarantined();
    const { result } = await this.uow.run({ name: EVICTION_WORKER_ACTOR }, async (tx, changes) => {
      // The clock's now, as a parameter (not SQL now()): rows are due by the same clock as the rule.
      const now = this.uow.now();
      const due: DueQuery = { now, excluded, limit: SWEEP_BATCH, only };
      const hinted = scope.nodes ?? (await this.evictions.dueNodeNames(tx, due));
      if (hinted.length === 0) return 0;
      const locked = await this.nodes.lockAvailable(tx, hinted);
      if (locked.length === 0) return 0;
      const rows = await this.evictions.lockDue(tx, due, locked);
      taken.push(...rows.map((r) => r.id));
      if (rows.length === 0) return 0;

      const pods = new Map(
        (
          await this.pods.findByUids(
            tx,
            rows.map((r) => r.podUid),
          )
        ).map((p) => [p.uid, p]),
      );
      const nodes = new Map(
        (await this.nodes.findByNames(tx, [...new Set(rows.map((r) => r.nodeName))])).map((n) => [n.name, n]),
      );
      const onNode: StoredPod[] = [];
      const left: Array<{ uid: string; namespace: string; name: string }> = [];
      for (const row of rows) {
        const pod = pods.get(row.podUid);
        if (pod && pod.nodeName === row.nodeName && isActivePhase(pod.phase)) onNode.push(pod);
        else left.push({ uid: row.podUid, namespace: row.namespace, name: row.podName });
      }
      // The rows were just read and locked: the planner need not read them again.
      const known = new Map<string, ScheduledRow>(rows.map((r) => [r.podUid, r]));
      await this.planner.cancelForPods(tx, left, 'the pod is no longer bound to the node', now, changes, known);
      await this.planner.replan(tx, onNode, nodes, now, changes, known);
      // The timers of the rows resolved here are stale now (many have not fired yet: one firing
      // sweeps the whole burst). Cancelling them is only a saving — a stale timer wakes a sweep that
      // finds nothing — and, as every timer change, it is written after COMMIT in the background
      // (TimerWrites), so it does not delay the next batch.
      return rows.length;
    });
    return result;
  }

  /**
   * Decides these rows now, in one transaction (the held-eviction release pass names Held rows, which an
   * ordinary sweep never takes). Rows another transaction holds are skipped, as in every sweep.
   */
  async decideRows(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.batch(ANY_NODE, [], ids);
  }

  /** Whether a due Scheduled row is left (committed state, no lock), quarantined ones aside. */
  private async dueRowsLeft(): Promise<boolean> {
    return this.evictions.anyDue(this.uow.db, { now: this.uow.now(), excluded: this.quarantined() });
  }

  private quarantined(): string[] {
    const now = this.uow.now().getTime();
    for (const [id, until] of this.quarantine) if (until <= now) this.quarantine.delete(id);
    return [...this.quarantine.keys()];
  }
}

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be waiting when it settles (all requesters gave up): never an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
