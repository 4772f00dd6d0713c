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

  async delete(db: Db, namespace: string, name: string): Promise<boolean> {
    return (await db.podDisruptionBudget.deleteMany({ where: { namespace, name } })).count > 0;
  }

  /** Creates or replaces budgets (the import). */
  async upsertMany(db: Db, budgets: readonly BudgetWrite[]): Promise<StoredBudget[]> {
    const out: StoredBudget[] = [];
    for (const budget of budgets) {
      const existing = await this.findByKey(db, budget.namespace, budget.name);
      if (!existing) out.push(await this.create(db, budget));
      else {
        const specChanged = JSON.stringify(existing.spec) !== JSON.stringify(budget.spec);
        out.push((await this.replace(db, { ...budget, uid: existing.uid }, specChanged))!);
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
