import { Injectable } from '@nestjs/common';
import type { DisruptionBudgetSpec, IntOrPercent, LabelSelectorSpec } from '../../../domain/disruption/budget-types';
import type { StoredBudget } from '../../model/stored-budget';
import { Prisma } from '../../../generated/prisma/client';
import { json, type Db } from '../prisma-types';

/** What a write stores for a budget: the stored budget without the fields the database sets. */
export type BudgetWrite = Pick<StoredBudget, 'namespace' | 'name' | 'uid' | 'labels' | 'spec'>;

/** A pod as a budget counts it, read inside a transaction (the eviction paths). */
export interface CountedPodRow {
  namespace: string;
  name: string;
  uid: string;
  labels: Record<string, string>;
  phase: string;
  owned: boolean;
}

/** The only place disruption budgets touch Prisma. */
@Injectable()
export class BudgetRepository {
  async findByKey(db: Db, namespace: string, name: string): Promise<StoredBudget | undefined> {
    const row = await db.podDisruptionBudget.findUnique({ where: { namespace_name: { namespace, name } } });
    return row ? toStoredBudget(row) : undefined;
  }

  async findAll(db: Db): Promise<StoredBudget[]> {
    const rows = await db.podDisruptionBudget.findMany({ orderBy: [{ namespace: 'asc' }, { name: 'asc' }] });
    return rows.map(toStoredBudget);
  }

  /**
   * The budgets of the namespaces, locked (FOR UPDATE) in a stable order: evictions that consult them
   * are serialised per budget across replicas, as the API server serialises them on the budget's
   * resourceVersion.
   */
  async lockInNamespaces(db: Db, namespaces: readonly string[]): Promise<StoredBudget[]> {
    if (namespaces.length === 0) return [];
    const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(
      'SELECT id::text FROM pod_disruption_budgets WHERE namespace = ANY($1::text[]) ORDER BY namespace, name FOR UPDATE',
      [...namespaces],
    );
    if (rows.length === 0) return [];
    const found = await db.podDisruptionBudget.findMany({
      where: { id: { in: rows.map((r) => r.id) } },
      orderBy: [{ namespace: 'asc' }, { name: 'asc' }],
    });
    return found.map(toStoredBudget);
  }

  /** The pods of the namespaces that a budget may count (docs/SEMANTICS.md B.9.2): active, and evicted. */
  async countedPods(db: Db, namespaces: readonly string[]): Promise<CountedPodRow[]> {
    if (namespaces.length === 0) return [];
    const rows = await db.$queryRawUnsafe<
      Array<{ namespace: string; name: string; uid: string; labels: string; phase: string; owned: boolean }>
    >(
      `SELECT namespace, name, uid, labels::text AS labels, phase, (owner_kind IS NOT NULL) AS owned
       FROM pods WHERE namespace = ANY($1::text[]) AND phase IN ('Pending', 'Running', 'Evicted')`,
      [...namespaces],
    );
    const parsed = new Map<string, Record<string, string>>();
    return rows.map((r) => {
      let labels = parsed.get(r.labels);
      if (!labels) parsed.set(r.labels, (labels = JSON.parse(r.labels) as Record<string, string>));
      return { ...r, labels, owned: r.owned === true || (r.owned as unknown) === 't' };
    });
  }

  async create(db: Db, budget: BudgetWrite): Promise<StoredBudget> {
    return toStoredBudget(await db.podDisruptionBudget.create({ data: budgetData(budget) }));
  }

  /**
   * Conditional replace (optimistic concurrency); undefined when gone or the version moved on. A spec
   * change bumps `generation`, as the API server does for spec changes.
   */
  async replace(
    db: Db,
    budget: BudgetWrite,
    specChanged: boolean,
    expectedVersion?: string,
  ): Promise<StoredBudget | undefined> {
    const where = {
      namespace: budget.namespace,
      name: budget.name,
      ...(expectedVersion === undefined ? {} : { resourceVersion: Number(expectedVersion) }),
    };
    const data = {
      ...budgetData(budget),
      resourceVersion: { increment: 1 },
      ...(specChanged ? { generation: { increment: 1 } } : {}),
    };
    const updated = await db.podDisruptionBudget.updateMany({ where, data });
    if (updated.count === 0) return undefined;
    return this.findByKey(db, budget.namespace, budget.name);
  }

  /** Marks budgets as the mirrored cluster's (`cluster`) or this service's (`local`). */
  async setOrigin(
    db: Db,
    keys: ReadonlyArray<{ namespace: string; name: string }>,
    origin: 'cluster' | 'local',
  ): Promise<void> {
    if (keys.length === 0) return;
    await db.$executeRawUnsafe(
      `UPDATE pod_disruption_budgets b SET origin = $3 FROM unnest($1::text[], $2::text[]) AS k(namespace, name)
       WHERE b.namespace = k.namespace AND b.name = k.name AND b.origin <> $3`,
      keys.map((k) => k.namespace),
      keys.map((k) => k.name),
      origin,
    );
  }

  /** Which of these budgets are cluster-owned (mirrored), as `namespace/name`. */
  async clusterOwned(db: Db, keys: ReadonlyArray<{ namespace: string; name: string }>): Promise<string[]> {
    if (keys.length === 0) return [];
    const rows = await db.$queryRawUnsafe<Array<{ namespace: string; name: string }>>(
      `SELECT b.namespace, b.name FROM pod_disruption_budgets b JOIN unnest($1::text[], $2::text[]) AS k(namespace, name)
         ON b.namespace = k.namespace AND b.name = k.name WHERE b.origin = 'cluster' ORDER BY 1, 2`,
      keys.map((k) => k.namespace),
      keys.map((k) => k.name),
    );
    return rows.map((r) => `${r.namespace}/${r.name}`);
  }

  /** Every cluster-owned budget's namespace/name (what a relist compares the cluster's list with). */
  async clusterBudgetKeys(db: Db): Promise<Array<{ namespace: string; name: string }>> {
    return db.$queryRawUnsafe<Array<{ namespace: string; name: string }>>(
      "SELECT namespace, name FROM pod_disruption_budgets WHERE origin = 'cluster' ORDER BY namespace, name",
    );
  }

  async delete(db: Db, namespace: string, name: string): Promise<boolean> {
    return (await db.podDisruptionBudget.deleteMany({ where: { namespace, name } })).count > 0;
  }

  /**
   * Creates or replaces budgets (the import) with one statement per 1,000: a replaced budget keeps its uid and
   * creation time, and its generation moves only when its spec changed.
   */
  async upsertMany(db: Db, budgets: readonly BudgetWrite[]): Promise<StoredBudget[]> {
    const out: StoredBudget[] = [];
    for (let i = 0; i < budgets.length; i += 1000) {
      const chunk = budgets.slice(i, i + 1000);
      const text = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
      const rows = await db.$queryRawUnsafe<Array<Record<string, unknown>>>(
        `INSERT INTO pod_disruption_budgets AS b (id, namespace, name, uid, labels, min_available, max_unavailable, selector,
                                                 unhealthy_pod_eviction_policy, generation, resource_version, created_at, updated_at)
         SELECT gen_random_uuid(), t.namespace, t.name, t.uid, t.labels::jsonb, t.min_available::jsonb, t.max_unavailable::jsonb,
                t.selector::jsonb, t.policy, 1, 1, now(), now()
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
           AS t(namespace, name, uid, labels, min_available, max_unavailable, selector, policy)
         ON CONFLICT (namespace, name) DO UPDATE SET labels = EXCLUDED.labels, min_available = EXCLUDED.min_available,
           max_unavailable = EXCLUDED.max_unavailable, selector = EXCLUDED.selector,
           unhealthy_pod_eviction_policy = EXCLUDED.unhealthy_pod_eviction_policy,
           generation = b.generation + CASE WHEN (b.min_available, b.max_unavailable, b.selector, b.unhealthy_pod_eviction_policy)
             IS NOT DISTINCT FROM (EXCLUDED.min_available, EXCLUDED.max_unavailable, EXCLUDED.selector, EXCLUDED.unhealthy_pod_eviction_policy)
             THEN 0 ELSE 1 END,
           resource_version = b.resource_version + 1, updated_at = now()
         RETURNING namespace, name, uid, labels::text AS labels, min_available::text AS min_available,
                   max_unavailable::text AS max_unavailable, selector::text AS selector,
                   unhealthy_pod_eviction_policy, generation, resource_version, created_at, updated_at`,
        chunk.map((b) => b.namespace),
        chunk.map((b) => b.name),
        chunk.map((b) => b.uid),
        chunk.map((b) => JSON.stringify(b.labels)),
        chunk.map((b) => text(b.spec.minAvailable)),
        chunk.map((b) => text(b.spec.maxUnavailable)),
        chunk.map((b) => text(b.spec.selector)),
        chunk.map((b) => b.spec.unhealthyPodEvictionPolicy ?? null),
      );
      const parse = (v: unknown) => (v === null || v === undefined ? null : (JSON.parse(String(v)) as unknown));
      for (const r of rows) {
        out.push(
          toStoredBudget({
            namespace: String(r.namespace),
            name: String(r.name),
            uid: String(r.uid),
            labels: parse(r.labels),
            minAvailable: parse(r.min_available),
            maxUnavailable: parse(r.max_unavailable),
            selector: parse(r.selector),
            unhealthyPodEvictionPolicy:
              r.unhealthy_pod_eviction_policy === null ? null : String(r.unhealthy_pod_eviction_policy),
            generation: Number(r.generation),
            resourceVersion: Number(r.resource_version),
            createdAt: new Date(r.created_at as string),
            updatedAt: new Date(r.updated_at as string),
          }),
        );
      }
    }
    return out;
  }
}

function budgetData(budget: BudgetWrite) {
  const nullable = (value: unknown) => (value === null || value === undefined ? Prisma.DbNull : json(value));
  return {
    namespace: budget.namespace,
    name: budget.name,
    uid: budget.uid,
    labels: json(budget.labels),
    minAvailable: nullable(budget.spec.minAvailable),
    maxUnavailable: nullable(budget.spec.maxUnavailable),
    selector: nullable(budget.spec.selector),
    unhealthyPodEvictionPolicy: budget.spec.unhealthyPodEvictionPolicy ?? null,
  };
}

interface BudgetRow {
  namespace: string;
  name: string;
  uid: string;
  labels: unknown;
  minAvailable: unknown;
  maxUnavailable: unknown;
  selector: unknown;
  unhealthyPodEvictionPolicy: string | null;
  generation: number;
  resourceVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

export function toStoredBudget(row: BudgetRow): StoredBudget {
  const spec: DisruptionBudgetSpec = { selector: (row.selector ?? null) as LabelSelectorSpec | null };
  if (row.minAvailable !== null && row.minAvailable !== undefined) spec.minAvailable = row.minAvailable as IntOrPercent;
  if (row.maxUnavailable !== null && row.maxUnavailable !== undefined)
    spec.maxUnavailable = row.maxUnavailable as IntOrPercent;
  if (row.unhealthyPodEvictionPolicy !== null) spec.unhealthyPodEvictionPolicy = row.unhealthyPodEvictionPolicy;
  return {
    namespace: row.namespace,
    name: row.name,
    uid: row.uid,
    labels: (row.labels ?? {}) as Record<string, string>,
    spec,
    generation: row.generation,
    resourceVersion: String(row.resourceVersion),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
