import { Injectable } from '@nestjs/common';
import type { Taint, TaintEffect } from '../../../domain/types';
import { taintToJson } from '../../model/taint-json';
import { isOverdueForecast } from '../../../domain/eviction/forecast';
import type { Db } from '../prisma-types';

/**
 * A pending eviction row — Scheduled, or Held by a disruption budget (SEMANTICS B.9.6) — as the planner reads
 * it (or as a caller that already locked it passes it).
 */
export interface ScheduledRow {
  id: string;
  podUid: string;
  evictAt: Date;
  /** Default Scheduled. */
  status?: 'Scheduled' | 'Held';
  /** A mirrored pod's row: the cluster evicts, taintwise forecasts (no timer, never executed here). */
  forecast?: boolean;
}

/** A Scheduled row as SQL returns it (`id::text`, the time as a Date or text depending on the adapter). */
export interface ScheduledRowText {
  id: string;
  pod_uid: string;
  evict_at: Date | string;
  status?: string;
  forecast?: boolean;
}

export function scheduledRow(r: ScheduledRowText): ScheduledRow {
  return {
    id: r.id,
    podUid: r.pod_uid,
    evictAt: new Date(r.evict_at),
    status: r.status === 'Held' ? 'Held' : 'Scheduled',
    ...(r.forecast === true || (r.forecast as unknown) === 't' ? { forecast: true } : {}),
  };
}

/**
 * Which Scheduled rows a sweep takes: due by `now` (the injected clock's, not SQL now()), not quarantined
 * (`excluded`), at most `limit`, and, when bisecting a failed batch, only the rows in `only`.
 */
export interface DueQuery {
  now: Date;
  excluded: readonly string[];
  limit: number;
  only?: readonly string[];
}

/** A due row, locked by the sweep that read it. */
export interface DueRow extends ScheduledRow {
  nodeName: string;
  namespace: string;
  podName: string;
}

/**
 * The due-row condition with fixed parameters ($1 now, $2 excluded, $3 limit, $4 only).
 * Held rows are due too, but only when named (`only`): the held-eviction release pass names them, oldest
 * first; an ordinary sweep would otherwise take the same held rows again and again.
 */
const DUE = `NOT forecast AND (status = 'Scheduled' OR ($4::uuid[] IS NOT NULL AND status = 'Held')) AND evict_at <= $1::timestamptz AND NOT (id = ANY($2::uuid[]))
  AND ($4::uuid[] IS NULL OR id = ANY($4::uuid[]))`;

function dueParameters(due: DueQuery): unknown[] {
  return [due.now.toISOString(), [...due.excluded], due.limit, due.only ? [...due.only] : null];
}

/** A row to record: a pod, its node's NoExecute taints that decided it, when and why. */
export interface NewEvictionRow {
  id: string;
  podUid: string;
  namespace: string;
  podName: string;
  nodeName: string;
  taints: readonly Taint[];
  evictAt: Date;
  reason: string;
  timerId: string | null;
  /** A mirrored pod's forecast (src/mirror): no timer, the cluster evicts. */
  forecast?: boolean;
}

export const EVICTION_STATUSES = ['Scheduled', 'Held', 'Executed', 'Cancelled', 'Failed'] as const;
export type EvictionStatus = (typeof EVICTION_STATUSES)[number];

/** An eviction as the API shows it (API.md "Evictions"). */
export interface StoredEviction {
  id: string;
  pod: { namespace: string; name: string; uid: string };
  node: string;
  taints: Taint[];
  status: EvictionStatus;
  createdAt: Date;
  evictAt: Date;
  executedAt: Date | null;
  cancelledAt: Date | null;
  reason: string;
  /** Held rows: since when, and the budgets that hold them (namespace/name). */
  heldAt: Date | null;
  heldBy: string[];
  /** A mirrored pod's eviction: the cluster's taint manager evicts; this row forecasts it. */
  forecast: boolean;
  /** Forecasts turned Executed: when the cluster removed the pod minus evictAt, in ms. */
  forecastErrorMs: number | null;
}

export interface EvictionFilter {
  status?: EvictionStatus;
  node?: string;
  namespace?: string;
}

/** The only reader and writer of eviction rows: the history, and the rows the planner and the sweeper decide. */
@Injectable()
export class EvictionRepository {
  /** Newest first (createdAt, then id, descending); `after` is the last item of the previous page. */
  async list(
    db: Db,
    filter: EvictionFilter,
    limit: number,
    after?: { createdAt: Date; id: string },
  ): Promise<StoredEviction[]> {
    const rows = await db.eviction.findMany({
      where: {
        ...(filter.status ? { status: filter.status } : {}),
        ...(filter.node !== undefined ? { nodeName: filter.node } : {}),
        ...(filter.namespace !== undefined ? { namespace: filter.namespace } : {}),
        ...(after
          ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
          : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
    });
    return rows.map(toStoredEviction);
  }

  async findById(db: Db, id: string): Promise<StoredEviction | undefined> {
    const row = await db.eviction.findUnique({ where: { id } });
    return row ? toStoredEviction(row) : undefined;
  }

  async countScheduled(db: Db): Promise<number> {
    return db.eviction.count({ where: { status: 'Scheduled' } });
  }

  // ---- writes: the planner and the sweeper decide, these statements record what they decided ----

  /** The Scheduled rows of these pods, by pod uid (`= ANY(array)`: one parameter, not one per pod). */
  async findScheduledByPodUids(db: Db, uids: readonly string[]): Promise<Map<string, ScheduledRow>> {
    if (uids.length === 0) return new Map();
    const rows = await db.$queryRawUnsafe<ScheduledRowText[]>(
      `SELECT id::text AS id, pod_uid, evict_at, status::text AS status, forecast FROM evictions
       WHERE status IN ('Scheduled', 'Held') AND pod_uid = ANY($1::text[])`,
      [...uids],
    );
    return new Map(rows.map((r) => [r.pod_uid, scheduledRow(r)]));
  }

  /** New rows, Scheduled with their timer id, or Executed at `at` (pods evicted at once). */
  async insert(
    db: Db,
    rows: readonly NewEvictionRow[],
    outcome: { status: 'Scheduled' } | { status: 'Executed'; at: Date },
  ): Promise<void> {
    if (rows.length === 0) return;
    const executedAt = outcome.status === 'Executed' ? outcome.at : null;
    // One statement, three JSON parameters, for any number of rows: createMany binds every value separately, ~2.5 ms
    // per row on PGlite (25 s for a NoExecute taint over 10,000 pods), and an array per column costs the driver a
    // conversion per element. Each row is an array, not an object (no key names repeated 10,000 times), and its taints
    // and reason (the same for every pod of a node) are indexes into two short lists: the document is 40 % of the
    // objects' size, and every byte of it is copied by Prisma (JSON.stringify, JSON.parse), encoded by PGlite and
    // parsed as jsonb in its WASM — the biggest statement of a NoExecute taint's commit (bench/ANALYSIS.md, issue 13).
    // Up to 100 rows went through createMany until 2026-11-27: Prisma compiles its plan once per distinct row count
    // (the rows are not a parameter), ~60 ms for 10 and ~230 ms for 100 on the service's thread, inside the first
    // taint of a node's pods after start-up (bench/ANALYSIS.md).
    const bulk = compactRows(rows);
    await db.$executeRawUnsafe(
      `INSERT INTO evictions (id, pod_uid, namespace, pod_name, node_name, taints, status, evict_at, executed_at, reason, timer_id, forecast)
       SELECT (r->>0)::uuid, r->>1, r->>2, r->>3, r->>4, d.taints -> ((r->>5)::int), $4::"EvictionStatus",
              (r->>6)::timestamptz, $5::timestamptz, d.reasons ->> ((r->>7)::int), r->>8, (r->>9)::boolean
       FROM (SELECT $2::jsonb AS taints, $3::jsonb AS reasons) d, jsonb_array_elements($1::jsonb) AS r`,
      bulk.rows,
      bulk.taints,
      bulk.reasons,
      outcome.status,
      executedAt?.toISOString() ?? null,
    );
  }

  /** Pending rows that end now: Executed or Cancelled at `at` (a row no longer pending is left alone). */
  async finish(db: Db, ids: readonly string[], status: 'Executed' | 'Cancelled', at: Date): Promise<void> {
    if (ids.length === 0) return;
    const column = status === 'Executed' ? 'executed_at' : 'cancelled_at';
    await db.$executeRawUnsafe(
      `UPDATE evictions SET status = $3::"EvictionStatus", ${column} = $2::timestamptz
       WHERE id = ANY($1::uuid[]) AND status IN ('Scheduled', 'Held')`,
      [...ids],
      at.toISOString(),
      status,
    );
  }

  /**
   * Forecasts the cluster has carried out (src/mirror): the mirrored pod was deleted or stopped there. Executed at
   * `at` (when the mirror saw it), with the difference from the forecast `evictAt` kept in `forecast_error_ms`
   * (domain `forecastErrorMs`). Answers the ids of the rows finished.
   */
  async observeForecasts(
    db: Db,
    rows: ReadonlyArray<{ id: string; forecastErrorMs: number }>,
    at: Date,
  ): Promise<string[]> {
    if (rows.length === 0) return [];
    const done = await db.$queryRawUnsafe<Array<{ id: string }>>(
      `UPDATE evictions AS e SET status = 'Executed', executed_at = $3::timestamptz, forecast_error_ms = u.error
       FROM unnest($1::uuid[], $2::int[]) AS u(id, error)
       WHERE e.id = u.id AND e.forecast AND e.status IN ('Scheduled', 'Held')
       RETURNING e.id::text AS id`,
      rows.map((r) => r.id),
      rows.map((r) => r.forecastErrorMs),
      at.toISOString(),
    );
    return done.map((r) => r.id);
  }

  /** Scheduled forecasts past `evictAt + grace`: the cluster has not evicted yet (overdue). */
  async countOverdueForecasts(db: Db, now: Date, graceMs: number): Promise<number> {
    const rows = await db.$queryRawUnsafe<Array<{ n: number | bigint }>>(
      `SELECT count(*)::int AS n FROM evictions WHERE forecast AND status = 'Scheduled' AND evict_at < $1::timestamptz`,
      new Date(now.getTime() - graceMs).toISOString(),
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** New deadlines for Scheduled rows (a changed tolerationSeconds, a re-stamped taint), in one statement. */
  async retime(
    db: Db,
    rows: ReadonlyArray<{
      id: string;
      evictAt: Date;
      timerId: string | null;
      reason: string;
      taints: readonly Taint[];
      forecast?: boolean;
    }>,
  ): Promise<void> {
    if (rows.length === 0) return;
    await db.$executeRawUnsafe(
      `UPDATE evictions AS e SET evict_at = u.evict_at, timer_id = u.timer_id, reason = u.reason, taints = u.taints::jsonb,
         status = 'Scheduled', held_at = NULL, held_by = NULL, forecast = u.forecast
       FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::boolean[])
         AS u(id, evict_at, timer_id, reason, taints, forecast)
       WHERE e.id = u.id AND e.status IN ('Scheduled', 'Held')`,
      rows.map((r) => r.id),
      rows.map((r) => r.evictAt.toISOString()),
      rows.map((r) => r.timerId),
      rows.map((r) => r.reason),
      rows.map((r) => JSON.stringify(r.taints.map(taintToJson))),
      rows.map((r) => r.forecast === true),
    );
  }

  /**
   * Rows a disruption budget holds (SEMANTICS B.9.6): `Held` since the first time (kept when held again), the
   * budgets that hold them, no timer (a release pass, not a deadline, moves them).
   */
  async hold(db: Db, rows: ReadonlyArray<{ id: string; heldBy: readonly string[] }>, at: Date): Promise<void> {
    if (rows.length === 0) return;
    await db.$executeRawUnsafe(
      `UPDATE evictions AS e SET status = 'Held', held_at = coalesce(e.held_at, $3::timestamptz), held_by = u.held_by::jsonb,
         timer_id = NULL, respect_budgets = true
       FROM unnest($1::uuid[], $2::text[]) AS u(id, held_by)
       WHERE e.id = u.id AND e.status IN ('Scheduled', 'Held')`,
      rows.map((r) => r.id),
      rows.map((r) => JSON.stringify(r.heldBy)),
      at.toISOString(),
    );
  }

  /** Held rows, oldest hold first, a page after `after` (the release pass). */
  async heldPage(
    db: Db,
    after: { heldAt: Date; id: string } | undefined,
    take: number,
  ): Promise<Array<{ id: string; heldAt: Date }>> {
    const rows = await db.$queryRawUnsafe<Array<{ id: string; held_at: Date | string }>>(
      `SELECT id::text AS id, held_at FROM evictions WHERE status = 'Held'
         AND ($1::timestamptz IS NULL OR (held_at, id) > ($1::timestamptz, $2::uuid))
       ORDER BY held_at, id LIMIT $3`,
      after ? after.heldAt.toISOString() : null,
      after ? after.id : null,
      take,
    );
    return rows.map((r) => ({ id: r.id, heldAt: new Date(r.held_at) }));
  }

  /** Scheduled rows by id, a page after `afterId`: the reconciler compares them with the armed timers. */
  /**
   * The deadlines of the Scheduled rows (forecasts aside), earliest first, after `after`, with how many rows each
   * has: what the reconciler arms one timer per (evictions/eviction-timer-id.ts). Read through the
   * (status, evict_at) index.
   */
  async scheduledDeadlines(
    db: Db,
    after: Date | undefined,
    take: number,
  ): Promise<Array<{ evictAt: Date; rows: number }>> {
    const found = await db.$queryRawUnsafe<Array<{ evict_at: Date | string; rows: number }>>(
      `SELECT evict_at, count(*)::int AS rows FROM evictions
       WHERE status = 'Scheduled' AND NOT forecast AND ($1::timestamptz IS NULL OR evict_at > $1::timestamptz)
       GROUP BY evict_at ORDER BY evict_at LIMIT $2`,
      after?.toISOString() ?? null,
      take,
    );
    return found.map((r) => ({ evictAt: new Date(r.evict_at), rows: r.rows }));
  }

  /** Which of these instants are still the deadline of a Scheduled row (forecasts aside). */
  async stillScheduledAt(db: Db, instants: readonly Date[]): Promise<Date[]> {
    if (instants.length === 0) return [];
    const found = await db.$queryRawUnsafe<Array<{ evict_at: Date | string }>>(
      `SELECT DISTINCT evict_at FROM evictions
       WHERE status = 'Scheduled' AND NOT forecast AND evict_at = ANY($1::timestamptz[])`,
      instants.map((i) => i.toISOString()),
    );
    return found.map((r) => new Date(r.evict_at));
  }

  // ---- the due-eviction sweep: which rows are due, locked without waiting on anyone ----

  /**
   * How many rows are due on each node (no lock), in name order, for at most `limit` nodes: what a sweep splits
   * between its transactions (due-sweep-plan.ts).
   */
  async dueRowsPerNode(db: Db, due: Omit<DueQuery, 'only'>): Promise<Array<{ nodeName: string; rows: number }>> {
    const rows = await db.$queryRawUnsafe<Array<{ node_name: string; rows: number }>>(
      `SELECT node_name, count(*)::int AS rows FROM evictions WHERE ${DUE} GROUP BY node_name ORDER BY node_name LIMIT $3`,
      ...dueParameters(due),
    );
    return rows.map((r) => ({ nodeName: r.node_name, rows: r.rows }));
  }

  /** The nodes of the earliest due rows (no lock: a hint of which nodes to lock first). */
  async dueNodeNames(db: Db, due: DueQuery): Promise<string[]> {
    const rows = await db.$queryRawUnsafe<Array<{ node_name: string }>>(
      `SELECT DISTINCT node_name FROM (SELECT node_name FROM evictions WHERE ${DUE} ORDER BY evict_at LIMIT $3) due`,
      ...dueParameters(due),
    );
    return rows.map((r) => r.node_name).sort();
  }

  /**
   * The earliest due rows on these (locked) nodes, locked `FOR UPDATE SKIP LOCKED`. The rows come back as ONE JSON
   * value, not 5,000 rows of seven values: every value of a result is decoded on its own (PGlite's protocol parser,
   * node-postgres's), mapped by Prisma and, embedded, copied between threads; one value took 31-50 ms where the rows
   * took 78-112 ms on PGlite (bench/ANALYSIS.md).
   */
  async lockDue(db: Db, due: DueQuery, nodeNames: readonly string[]): Promise<DueRow[]> {
    const [answer] = await db.$queryRawUnsafe<Array<{ rows: string | null }>>(
      `SELECT json_agg(json_build_array(id::text, pod_uid, node_name, namespace, pod_name, evict_at, status::text)
                       ORDER BY evict_at)::text AS rows
       FROM (SELECT id, pod_uid, node_name, namespace, pod_name, evict_at, status FROM evictions
             WHERE ${DUE} AND node_name = ANY($5::text[])
             ORDER BY evict_at LIMIT $3 FOR UPDATE SKIP LOCKED) due`,
      ...dueParameters(due),
      [...nodeNames],
    );
    const rows = JSON.parse(answer?.rows ?? '[]') as Array<[string, string, string, string, string, string, string]>;
    return rows.map(([id, podUid, nodeName, namespace, podName, evictAt, status]) => ({
      ...scheduledRow({ id, pod_uid: podUid, evict_at: evictAt, status }),
      nodeName,
      namespace,
      podName,
    }));
  }

  /** Whether any due row is left (committed state, no lock). */
  async anyDue(db: Db, due: Pick<DueQuery, 'now' | 'excluded'>): Promise<boolean> {
    const left = await db.$queryRawUnsafe<unknown[]>(
      `SELECT 1 FROM evictions WHERE ${DUE} LIMIT $3`,
      ...dueParameters({ ...due, limit: 1 }),
    );
    return left.length > 0;
  }
}

/**
 * The bulk insert's parameters: one array per row ([id, podUid, namespace, podName, nodeName, taints index,
 * evictAt, reason index, timerId, forecast]) and the distinct taint lists and reasons they index. Taint lists are
 * told apart by the identity of their Taint objects (the planner filters each node's list per pod, so the
 * arrays differ but their elements are the node's): equal lists of distinct objects only cost a second entry.
 */
export function compactRows(rows: readonly NewEvictionRow[]): { rows: string; taints: string; reasons: string } {
  const taintIds = new Map<Taint, number>();
  const taintLists = new Map<string, number>();
  const taintJson: string[] = [];
  const reasons = new Map<string, number>();
  const compact = rows.map((r) => {
    const key = r.taints
      .map((t) => {
        let id = taintIds.get(t);
        if (id === undefined) taintIds.set(t, (id = taintIds.size));
        return id;
      })
      .join(',');
    let taints = taintLists.get(key);
    if (taints === undefined) {
      taintLists.set(key, (taints = taintJson.length));
      taintJson.push(JSON.stringify(r.taints.map(taintToJson)));
    }
    let reason = reasons.get(r.reason);
    if (reason === undefined) reasons.set(r.reason, (reason = reasons.size));
    return [
      r.id,
      r.podUid,
      r.namespace,
      r.podName,
      r.nodeName,
      taints,
      r.evictAt.toISOString(),
      reason,
      r.timerId,
      r.forecast === true,
    ];
  });
  return {
    rows: JSON.stringify(compact),
    taints: `[${taintJson.join(',')}]`,
    reasons: JSON.stringify([...reasons.keys()]),
  };
}

type EvictionRow = {
  id: string;
  podUid: string;
  namespace: string;
  podName: string;
  nodeName: string;
  taints: unknown;
  status: string;
  evictAt: Date;
  createdAt: Date;
  executedAt: Date | null;
  cancelledAt: Date | null;
  reason: string;
  heldAt?: Date | null;
  heldBy?: unknown;
  forecast?: boolean;
  forecastErrorMs?: number | null;
};

function toStoredEviction(row: EvictionRow): StoredEviction {
  const taints = ((row.taints ?? []) as Array<{ key: string; value?: string; effect: string; timeAdded?: string }>).map(
    (t): Taint => ({
      key: t.key,
      value: t.value ?? '',
      effect: t.effect as TaintEffect,
      ...(t.timeAdded ? { timeAdded: new Date(t.timeAdded) } : {}),
    }),
  );
  return {
    id: row.id,
    pod: { namespace: row.namespace, name: row.podName, uid: row.podUid },
    node: row.nodeName,
    taints,
    status: row.status as EvictionStatus,
    createdAt: row.createdAt,
    evictAt: row.evictAt,
    executedAt: row.executedAt,
    cancelledAt: row.cancelledAt,
    reason: row.reason,
    heldAt: row.heldAt ?? null,
    heldBy: (row.heldBy ?? []) as string[],
    forecast: row.forecast === true,
    forecastErrorMs: row.forecastErrorMs ?? null,
  };
}

/**
 * `overdue`: a forecast still Scheduled more than `graceMs` past its evictAt (the cluster has not evicted yet);
 * only computed when the caller passes the clock's now.
 */
export function presentEviction(
  e: StoredEviction,
  forecastClock?: { now: Date; graceMs: number },
): Record<string, unknown> {
  return {
    id: e.id,
    pod: e.pod,
    node: e.node,
    taints: e.taints.map(taintToJson),
    status: e.status,
    createdAt: e.createdAt.toISOString(),
    evictAt: e.evictAt.toISOString(),
    ...(e.executedAt ? { executedAt: e.executedAt.toISOString() } : {}),
    ...(e.cancelledAt ? { cancelledAt: e.cancelledAt.toISOString() } : {}),
    ...(e.heldAt ? { heldAt: e.heldAt.toISOString(), heldBy: e.heldBy } : {}),
    reason: e.reason,
    ...(e.forecast
      ? {
          forecast: true,
          ...(e.forecastErrorMs !== null ? { forecastErrorMs: e.forecastErrorMs } : {}),
          ...(forecastClock && e.status === 'Scheduled'
            ? { overdue: isOverdueForecast(e, forecastClock.now, forecastClock.graceMs) }
            : {}),
        }
      : {}),
  };
}
