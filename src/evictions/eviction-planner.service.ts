import { randomUUID } from 'node:crypto';
import { taintToJson } from '../kernel/model/taint-json';
import { taintToString } from '../domain/tolerations/taint-to-string';
import { Inject, Injectable } from '@nestjs/common';
import { decideEviction, type EvictionDecision } from '../domain/eviction/decide-eviction';
import { forecastErrorMs } from '../domain/eviction/forecast';
import type { Taint } from '../domain/types';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import type { ChangeSet } from '../kernel/persistence/change-set';
import type { PodToPlan, StoredNode, StoredPod } from '../kernel/model/stored-objects';
import { PodRepository } from '../kernel/persistence/repositories/pod.repository';
import { EvictionRepository, type ScheduledRow } from '../kernel/persistence/repositories/eviction.repository';
import type { Db } from '../kernel/persistence/prisma-types';
import { evictionTimer, evictionTimerId } from './eviction-timer-id';
import { BudgetRepository } from '../kernel/persistence/repositories/budget.repository';
import { BudgetLedger } from './budget-ledger';

/** How many evictions a change caused (or, for a dry run, would cause). */
export interface EvictionCounts {
  immediate: number;
  scheduled: number;
  cancelled: number;
  retimed: number;
  /** Due, but held by a disruption budget (taints added with respectDisruptionBudgets). */
  held: number;
}

type ToEvict = { pod: StoredPod; decision: EvictionDecision & { action: 'EvictNow' }; row?: ScheduledRow };
type Due = Omit<ToEvict, 'pod'> & { pod: PodToPlan };

interface Plan {
  toEvict: ToEvict[];
  /** Due evictions a disruption budget holds (SEMANTICS B.9.6), with the budgets that hold them. */
  toHold: Array<ToEvict & { budgets: string[] }>;
  toCreate: Array<{ id: string; pod: PodToPlan; evictAt: Date; taints: Taint[]; reason: string; forecast?: boolean }>;
  toRetime: Array<{
    row: ScheduledRow;
    evictAt: Date;
    pod: PodToPlan;
    taints: Taint[];
    reason: string;
    forecast?: boolean;
  }>;
  toCancel: Array<{ row: ScheduledRow; pod: PodToPlan; reason: string }>;
}

/** Past this many new rows, the planner inserts them with one statement and one JSON parameter. */
/**
 * Makes the eviction rows agree with SEMANTICS A.3 for a set of bound pods, inside the transaction
 * of the change that may have moved their deadlines (a taint change, a toleration change, a binding,
 * a timer firing). It is the only writer of eviction rows: every path asks it, so the rule lives in
 * one place (domain `decideEviction`) and the rows are a pure function of stored state.
 *
 *   EvictNow   → the pod is unbound (phase Evicted) and its row is Executed, now;
 *   EvictAfter → one Scheduled row with that evictAt (created, or re-timed) and a timer for it;
 *   None       → any Scheduled row is Cancelled and its timer dropped.
 *
 * Callers must hold the locks on the pods' nodes (NodeRepository.lock) so two changes to the same
 * node cannot decide concurrently; the partial unique index on Scheduled rows backs this up.
 */
@Injectable()
export class EvictionPlanner {
  constructor(
    private readonly pods: PodRepository,
    private readonly evictions: EvictionRepository,
    private readonly budgets: BudgetRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `known`: the pods' Scheduled rows, when the caller has just read and locked them (the sweep);
   * otherwise they are read here. At most one row per pod is Scheduled (a partial unique index).
   */
  async replan(
    db: Db,
    pods: readonly PodToPlan[],
    nodes: ReadonlyMap<string, StoredNode>,
    now: Date,
    changes: ChangeSet,
    known?: ReadonlyMap<string, ScheduledRow>,
  ): Promise<void> {
    const plan = await this.plan(db, pods, nodes, now, known);
    if (this.config.SYNC_KUBECONFIG) await this.forecastMirrored(db, plan, nodes);
    await this.evictNow(db, plan.toEvict, nodes, now, changes);
    await this.hold(db, plan.toHold, nodes, now, changes);
    await this.create(db, plan.toCreate, changes);
    await this.retime(db, plan.toRetime, changes);
    await this.cancel(db, plan.toCancel, now, changes);
  }

  /**
   * What `replan` would do, counted, without writing anything: the eviction answer of a dry run
   * (`POST /v1/taints` with `dryRun`) comes from the very classification a real run applies.
   */
  async preview(
    db: Db,
    pods: readonly PodToPlan[],
    nodes: ReadonlyMap<string, StoredNode>,
    now: Date,
  ): Promise<EvictionCounts> {
    const plan = await this.plan(db, pods, nodes, now, undefined, false);
    return {
      immediate: plan.toEvict.length,
      scheduled: plan.toCreate.length,
      cancelled: plan.toCancel.length,
      retimed: plan.toRetime.length,
      held: plan.toHold.filter((h) => h.row?.status !== 'Held').length,
    };
  }

  private async plan(
    db: Db,
    pods: readonly PodToPlan[],
    nodes: ReadonlyMap<string, StoredNode>,
    now: Date,
    known?: ReadonlyMap<string, ScheduledRow>,
    lockBudgets = true,
  ): Promise<Plan> {
    const bound = pods.filter((p) => p.nodeName !== null && (p.phase === 'Pending' || p.phase === 'Running'));
    const existing =
      known ??
      (await this.evictions.findScheduledByPodUids(
        db,
        bound.map((p) => p.uid),
      ));
    const options = { comparisonOperators: this.config.COMPARISON_OPERATORS };
    const plan: Plan = { toEvict: [], toHold: [], toCreate: [], toRetime: [], toCancel: [] };
    const due: Due[] = [];

    for (const pod of bound) {
      const node = nodes.get(pod.nodeName!);
      const taints = node?.taints ?? [];
      const decision = decideEviction(
        { tolerations: pod.tolerations, boundAt: pod.boundAt ?? pod.createdAt },
        taints,
        now,
        options,
      );
      const row = existing.get(pod.uid);
      const noExecute = taints.filter((t) => t.effect === 'NoExecute');
      switch (decision.action) {
        case 'EvictNow':
          due.push({ pod, decision, row });
          break;
        case 'EvictAfter':
          if (!row)
            plan.toCreate.push({
              id: randomUUID(),
              pod,
              evictAt: decision.evictAt,
              taints: noExecute,
              reason: reasonFor(decision),
            });
          // A held row whose deadline moved into the future is an ordinary Scheduled one again.
          else if (row.status === 'Held' || row.evictAt.getTime() !== decision.evictAt.getTime())
            plan.toRetime.push({ row, evictAt: decision.evictAt, pod, taints: noExecute, reason: reasonFor(decision) });
          break;
        case 'None':
          if (row)
            plan.toCancel.push({
              row,
              pod,
              reason: node ? 'no NoExecute taint evicts the pod any more' : 'the node is gone',
            });
          break;
      }
    }
    plan.toEvict = await this.wholePods(db, due);
    await this.gate(db, plan, nodes, lockBudgets);
    return plan;
  }

  /**
   * The whole stored pods of those due now: evicting a pod writes it back (the snapshot, the watch) and a budget
   * selects it by its labels. A caller may pass only what the decision needs (a taint over many full nodes,
   * `PodRepository.findToPlanOnNodes`); those pods are read here with one statement, in order. A pod gone from its
   * node since (another transaction, on PostgreSQL) is not evicted.
   */
  private async wholePods(db: Db, due: readonly Due[]): Promise<ToEvict[]> {
    const partial = due.filter((i) => !isStoredPod(i.pod)).map((i) => i.pod.uid);
    const read =
      partial.length === 0
        ? new Map<string, StoredPod>()
        : new Map((await this.pods.findByUids(db, partial)).map((p) => [p.uid, p]));
    return due.flatMap((i) => {
      const pod = isStoredPod(i.pod) ? i.pod : read.get(i.pod.uid);
      return pod && pod.nodeName === i.pod.nodeName ? [{ ...i, pod }] : [];
    });
  }

  /**
   * A mirror (SYNC_KUBECONFIG, src/mirror): the cluster's own taint manager evicts its pods, so for a mirrored pod
   * taintwise only forecasts. Its rows are computed exactly as for a local pod (`evictAt` from the taint's
   * `timeAdded` and the pod's binding), marked `forecast`, get no timer and are never executed here: a pod due now
   * keeps (or gets) a Scheduled forecast instead of being unbound, and the row turns Executed when the cluster
   * deletes or stops the pod (`cancelForPods`). Budgets do not hold them: the cluster's taint manager ignores budgets.
   */
  private async forecastMirrored(db: Db, plan: Plan, nodes: ReadonlyMap<string, StoredNode>): Promise<void> {
    const candidates = [...plan.toEvict, ...plan.toHold, ...plan.toCreate, ...plan.toRetime].map((i) => i.pod.uid);
    if (candidates.length === 0) return;
    const mirrored = await this.pods.clusterOwnedUids(db, candidates);
    if (mirrored.size === 0) return;
    const due = [...plan.toEvict, ...plan.toHold].filter((i) => mirrored.has(i.pod.uid));
    plan.toEvict = plan.toEvict.filter((i) => !mirrored.has(i.pod.uid));
    plan.toHold = plan.toHold.filter((i) => !mirrored.has(i.pod.uid));
    for (const i of plan.toCreate) if (mirrored.has(i.pod.uid)) i.forecast = true;
    for (const i of plan.toRetime) if (mirrored.has(i.pod.uid)) i.forecast = true;
    for (const i of due) {
      const noExecute = (nodes.get(i.pod.nodeName!)?.taints ?? []).filter((t) => t.effect === 'NoExecute');
      // Untolerated: the taint manager deletes the pod as soon as it sees the taint on the node it is bound to.
      const evictAt =
        i.decision.reason === 'expired'
          ? i.decision.evictAt
          : new Date(
              Math.max(i.decision.taint.timeAdded?.getTime() ?? 0, (i.pod.boundAt ?? i.pod.createdAt).getTime()),
            );
      if (!i.row)
        plan.toCreate.push({
          id: randomUUID(),
          pod: i.pod,
          evictAt,
          taints: noExecute,
          reason: reasonFor(i.decision),
          forecast: true,
        });
      else if (i.row.status === 'Held' || !i.row.forecast)
        plan.toRetime.push({
          row: i.row,
          evictAt,
          pod: i.pod,
          taints: noExecute,
          reason: reasonFor(i.decision),
          forecast: true,
        });
    }
  }

  /**
   * Budget-respecting NoExecute (SEMANTICS B.9.6): of the pods due now, those evicted by a taint added with
   * `respectDisruptionBudgets` go only while every budget selecting them still allows a disruption; the others
   * are held. Oldest deadline first, then by name, so the earliest evictions take the allowance first; every
   * eviction of the transaction (gated or not) counts against the budgets as it is decided.
   */
  private async gate(db: Db, plan: Plan, nodes: ReadonlyMap<string, StoredNode>, lockBudgets: boolean): Promise<void> {
    const respects = (i: ToEvict) =>
      (nodes.get(i.pod.nodeName!)?.taints ?? []).some(
        (t) => t.respectBudgets === true && t.key === i.decision.taint.key && t.effect === i.decision.taint.effect,
      );
    if (!plan.toEvict.some(respects)) return;
    const ledger = await BudgetLedger.open(
      db,
      this.budgets,
      plan.toEvict.map((i) => i.pod.namespace),
      lockBudgets,
    );
    const dueAt = (i: ToEvict) =>
      i.row?.evictAt.getTime() ?? (i.decision.reason === 'expired' ? i.decision.evictAt.getTime() : 0);
    const ordered = [...plan.toEvict].sort(
      (a, b) => dueAt(a) - dueAt(b) || compare(a.pod.namespace, b.pod.namespace) || compare(a.pod.name, b.pod.name),
    );
    plan.toEvict = [];
    for (const item of ordered) {
      const blocking = respects(item) ? ledger.blocking(item.pod) : [];
      if (blocking.length > 0) {
        plan.toHold.push({ ...item, budgets: blocking });
        continue;
      }
      ledger.evicted(item.pod);
      plan.toEvict.push(item);
    }
  }

  /**
   * Holds due evictions (SEMANTICS B.9.6): the row (created for a pod due at once) becomes Held, without a
   * timer; the held-eviction release pass decides it again when a budget may allow it. An event for each
   * row that was not held already.
   */
  private async hold(
    db: Db,
    items: Plan['toHold'],
    nodes: ReadonlyMap<string, StoredNode>,
    now: Date,
    changes: ChangeSet,
  ): Promise<void> {
    if (items.length === 0) return;
    const fresh = items
      .filter((i) => !i.row)
      .map((i) => ({
        id: randomUUID(),
        podUid: i.pod.uid,
        namespace: i.pod.namespace,
        podName: i.pod.name,
        nodeName: i.pod.nodeName!,
        taints: (nodes.get(i.pod.nodeName!)?.taints ?? []).filter((t) => t.effect === 'NoExecute'),
        evictAt: i.decision.reason === 'expired' ? i.decision.evictAt : now,
        reason: reasonFor(i.decision),
        timerId: null,
      }));
    await this.evictions.insert(db, fresh, { status: 'Scheduled' });
    const ids = new Map(fresh.map((r) => [r.podUid, r.id]));
    const rows = items.map((i) => ({ id: i.row?.id ?? ids.get(i.pod.uid)!, heldBy: i.budgets, item: i }));
    await this.evictions.hold(db, rows, now);
    for (const { id, heldBy, item } of rows) {
      if (item.row?.status === 'Held') continue;
      changes.event({
        type: 'EvictionHeld',
        subjectKind: 'Pod',
        subjectName: `${item.pod.namespace}/${item.pod.name}`,
        data: { evictionId: id, node: item.pod.nodeName, budgets: heldBy, reason: reasonFor(item.decision) },
      });
      changes.evictions.held += 1;
    }
  }

  /** Cancels the Scheduled rows of pods that left their node (unbound, deleted, evicted elsewhere). */
  async cancelForPods(
    db: Db,
    pods: ReadonlyArray<{ uid: string; namespace: string; name: string }>,
    reason: string,
    now: Date,
    changes: ChangeSet,
    known?: ReadonlyMap<string, ScheduledRow>,
  ): Promise<void> {
    const existing =
      known ??
      (await this.evictions.findScheduledByPodUids(
        db,
        pods.map((p) => p.uid),
      ));
    const rows = pods.flatMap((pod) => {
      const row = existing.get(pod.uid);
      return row ? [{ row, pod, reason }] : [];
    });
    await this.observeForecasts(
      db,
      rows.filter((r) => r.row.forecast === true),
      now,
      changes,
    );
    await this.cancel(
      db,
      rows.filter((r) => r.row.forecast !== true),
      now,
      changes,
    );
  }

  /**
   * A mirrored pod with a forecast left its node in the cluster (deleted, stopped, unbound): the cluster evicted it.
   * The row becomes Executed with the difference between the forecast and what the cluster did (kubernetes#108268:
   * a taint manager restart resets its clocks, so a real cluster can evict later than forecast).
   */
  private async observeForecasts(
    db: Db,
    items: Array<{ row: ScheduledRow; pod: { namespace: string; name: string }; reason: string }>,
    now: Date,
    changes: ChangeSet,
  ): Promise<void> {
    if (items.length === 0) return;
    const errors = new Map(items.map((i) => [i.row.id, forecastErrorMs(i.row.evictAt, now)]));
    const observed = new Set(
      await this.evictions.observeForecasts(
        db,
        [...errors].map(([id, error]) => ({ id, forecastErrorMs: error })),
        now,
      ),
    );
    for (const i of items) {
      if (!observed.has(i.row.id)) continue;
      changes.event({
        type: 'EvictionExecuted',
        subjectKind: 'Pod',
        subjectName: `${i.pod.namespace}/${i.pod.name}`,
        data: {
          evictionId: i.row.id,
          forecast: true,
          reason: `the cluster removed the pod (${i.reason})`,
          evictAt: i.row.evictAt.toISOString(),
          forecastErrorMs: errors.get(i.row.id),
        },
      });
    }
  }

  /**
   * The Eviction API's eviction of one pod (SEMANTICS B.9.3): recorded exactly as a NoExecute eviction
   * (an Executed row, the pod unbound with phase Evicted, an EvictionExecuted event); a Scheduled row the
   * pod had is Cancelled, since this eviction supersedes it. The caller holds the pod's node lock and has
   * checked the budgets.
   */
  async evictThroughApi(db: Db, pod: StoredPod, now: Date, changes: ChangeSet, budget?: string): Promise<StoredPod> {
    await this.cancelForPods(db, [pod], 'the pod was evicted through the Eviction API', now, changes);
    const reason = 'evicted through the Eviction API';
    await this.evictions.insert(
      db,
      [
        {
          id: randomUUID(),
          podUid: pod.uid,
          namespace: pod.namespace,
          podName: pod.name,
          nodeName: pod.nodeName ?? '',
          taints: [],
          evictAt: now,
          reason,
          timerId: null,
        },
      ],
      { status: 'Executed', at: now },
    );
    await this.pods.unbindMany(db, [pod.uid], 'Evicted', now);
    const evicted: StoredPod = {
      ...pod,
      nodeName: null,
      phase: 'Evicted',
      boundAt: null,
      resourceVersion: String(Number(pod.resourceVersion) + 1),
      updatedAt: now,
    };
    changes.pod(evicted);
    changes.event({
      type: 'EvictionExecuted',
      subjectKind: 'Pod',
      subjectName: `${pod.namespace}/${pod.name}`,
      data: { node: pod.nodeName, reason, via: 'EvictionAPI', ...(budget ? { budget } : {}) },
    });
    changes.evictions.immediate += 1;
    return evicted;
  }

  private async evictNow(
    db: Db,
    items: Array<{ pod: StoredPod; decision: EvictionDecision & { action: 'EvictNow' }; row?: ScheduledRow }>,
    nodes: ReadonlyMap<string, StoredNode>,
    now: Date,
    changes: ChangeSet,
  ): Promise<void> {
    if (items.length === 0) return;
    const withRow = items.filter((i) => i.row);
    for (const i of withRow) {
      if (i.row!.status !== 'Held') continue;
      changes.event({
        type: 'EvictionReleased',
        subjectKind: 'Pod',
        subjectName: `${i.pod.namespace}/${i.pod.name}`,
        data: { evictionId: i.row!.id, node: i.pod.nodeName },
      });
    }
    await this.evictions.finish(
      db,
      withRow.map((i) => i.row!.id),
      'Executed',
      now,
    );
    const noExecuteTaints = (nodeName: string) =>
      (nodes.get(nodeName)?.taints ?? []).filter((t) => t.effect === 'NoExecute');
    const fresh = items
      .filter((i) => !i.row)
      .map((i) => ({
        id: randomUUID(),
        podUid: i.pod.uid,
        namespace: i.pod.namespace,
        podName: i.pod.name,
        nodeName: i.pod.nodeName!,
        taints: noExecuteTaints(i.pod.nodeName!),
        evictAt: now,
        reason: reasonFor(i.decision),
        timerId: null,
      }));
    await this.evictions.insert(db, fresh, { status: 'Executed', at: now });
    await this.pods.unbindMany(
      db,
      items.map((i) => i.pod.uid),
      'Evicted',
      now,
    );
    for (const i of items) {
      const evicted: StoredPod = {
        ...i.pod,
        nodeName: null,
        phase: 'Evicted',
        boundAt: null,
        resourceVersion: String(Number(i.pod.resourceVersion) + 1),
        updatedAt: now,
      };
      changes.pod(evicted);
      changes.event({
        type: 'EvictionExecuted',
        subjectKind: 'Pod',
        subjectName: `${i.pod.namespace}/${i.pod.name}`,
        data: {
          node: i.pod.nodeName,
          reason: reasonFor(i.decision),
          taint: taintToJson(i.decision.taint),
          ...(i.decision.reason === 'expired'
            ? { evictAt: i.decision.evictAt.toISOString(), lagMs: now.getTime() - i.decision.evictAt.getTime() }
            : {}),
        },
      });
    }
    changes.evictions.immediate += items.length;
  }

  private async create(db: Db, items: Plan['toCreate'], changes: ChangeSet): Promise<void> {
    if (items.length === 0) return;
    const rows = items.map((i) => ({
      id: i.id,
      podUid: i.pod.uid,
      namespace: i.pod.namespace,
      podName: i.pod.name,
      nodeName: i.pod.nodeName!,
      taints: i.taints,
      evictAt: i.evictAt,
      reason: i.reason,
      timerId: i.forecast ? null : evictionTimerId(i.evictAt),
      forecast: i.forecast === true,
    }));
    await this.evictions.insert(db, rows, { status: 'Scheduled' });
    for (const i of items) {
      if (!i.forecast) changes.schedule(evictionTimer(i.evictAt));
      changes.event({
        type: 'EvictionScheduled',
        subjectKind: 'Pod',
        subjectName: `${i.pod.namespace}/${i.pod.name}`,
        data: {
          evictionId: i.id,
          node: i.pod.nodeName,
          evictAt: i.evictAt.toISOString(),
          reason: i.reason,
          ...(i.forecast ? { forecast: true } : {}),
        },
      });
    }
    changes.evictions.scheduled += items.length;
  }

  private async retime(db: Db, items: Plan['toRetime'], changes: ChangeSet): Promise<void> {
    if (items.length === 0) return;
    const rows = items.map((i) => ({
      id: i.row.id,
      evictAt: i.evictAt,
      timerId: i.forecast ? null : evictionTimerId(i.evictAt),
      reason: i.reason,
      taints: i.taints,
      forecast: i.forecast === true,
    }));
    await this.evictions.retime(db, rows);
    for (const i of items) {
      if (!i.forecast) changes.schedule(evictionTimer(i.evictAt));
      changes.event({
        type: 'EvictionRescheduled',
        subjectKind: 'Pod',
        subjectName: `${i.pod.namespace}/${i.pod.name}`,
        data: {
          evictionId: i.row.id,
          node: i.pod.nodeName,
          evictAt: i.evictAt.toISOString(),
          previousEvictAt: i.row.evictAt.toISOString(),
          reason: i.reason,
        },
      });
    }
    changes.evictions.retimed += items.length;
  }

  private async cancel(
    db: Db,
    items: Array<{ row: ScheduledRow; pod: { namespace: string; name: string }; reason: string }>,
    now: Date,
    changes: ChangeSet,
  ): Promise<void> {
    if (items.length === 0) return;
    await this.evictions.finish(
      db,
      items.map((i) => i.row.id),
      'Cancelled',
      now,
    );
    for (const i of items) {
      changes.event({
        type: 'EvictionCancelled',
        subjectKind: 'Pod',
        subjectName: `${i.pod.namespace}/${i.pod.name}`,
        data: { evictionId: i.row.id, reason: i.reason },
      });
    }
    changes.evictions.cancelled += items.length;
  }
}

function reasonFor(decision: EvictionDecision): string {
  if (decision.action === 'EvictNow' && decision.reason === 'untolerated')
    return `untolerated NoExecute taint ${taintToString(decision.taint)}`;
  if (decision.action === 'EvictNow' || decision.action === 'EvictAfter')
    return `tolerationSeconds of toleration ${decision.tolerationIndex} for NoExecute taint ${taintToString(decision.taint)} ran out`;
  return '';
}

export type { ScheduledRow };

/** A whole stored pod, not only the fields a decision needs (`PodToPlan` has no resourceVersion). */
function isStoredPod(pod: PodToPlan): pod is StoredPod {
  return 'resourceVersion' in pod;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
