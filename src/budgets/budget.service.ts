import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { DisruptionBudgetSpec, DisruptionBudgetStatus } from '../domain/disruption/budget-types';
import { validateDisruptionBudget } from '../domain/disruption/validate-budget';
import { formatInvalidObject } from '../domain/validation/field-errors';
import { validateLabels } from '../domain/validation/validate-objects';
import { AppError } from '../kernel/errors/app-error';
import { parseBody } from '../kernel/http/input/parse-body';
import { decodeContinue, encodeContinue, parseLimit, type Page } from '../kernel/http/paging';
import type { StoredBudget } from '../kernel/model/stored-budget';
import type { Actor } from '../kernel/persistence/change-set';
import { BudgetRepository, type BudgetWrite } from '../kernel/persistence/repositories/budget.repository';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import { SnapshotService } from '../kernel/snapshot/snapshot.service';
import { budgetBodySchema, type BudgetBody } from './budget-body';
import { presentBudget, type PresentedBudget } from './present-budget';

export type { PresentedBudget };

const CONFLICT = (name: string) =>
  new AppError(
    'Conflict',
    `Operation cannot be fulfilled on poddisruptionbudgets.policy "${name}": the object has been modified; please apply your changes to the latest version and try again`,
  );

/**
 * policy/v1 PodDisruptionBudgets: create/replace with Kubernetes' validation (SEMANTICS B.9.1), delete,
 * get and list with their status as the disruption controller would compute it (from the snapshot).
 */
@Injectable()
export class BudgetService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly budgets: BudgetRepository,
    private readonly snapshots: SnapshotService,
  ) {}

  get(namespace: string, name: string): StoredBudget {
    const budget = this.snapshots.snapshot.budgets.get(namespace, name);
    if (!budget) throw AppError.notFound('poddisruptionbudgets.policy', name);
    return budget;
  }

  status(budget: StoredBudget): DisruptionBudgetStatus | undefined {
    return this.snapshots.snapshot.budgets.status(budget.namespace, budget.name);
  }

  /** The budget as policy/v1 shows it, with its current status (REST and the Kubernetes API alike). */
  present(budget: StoredBudget): PresentedBudget {
    return presentBudget(budget, this.status(budget));
  }

  /** By namespace then name, in pages (`limit`, `continue`). */
  list(namespace: string | undefined, query: { limit?: unknown; continue?: unknown }): Page<StoredBudget> {
    const limit = parseLimit(query.limit);
    const after = decodeContinue(query.continue, 2);
    const all = this.snapshots.snapshot.budgets
      .all()
      .filter((b) => namespace === undefined || b.namespace === namespace)
      .filter((b) => !after || b.namespace > after[0] || (b.namespace === after[0] && b.name > after[1]));
    const items = all.slice(0, limit);
    const last = items[items.length - 1];
    return { items, ...(all.length > limit && last ? { continue: encodeContinue([last.namespace, last.name]) } : {}) };
  }

  /** PUT (create or replace; `createOnly` for the Kubernetes API's POST). `dryRun`: validated, nothing written. */
  async upsert(
    namespace: string,
    name: string,
    body: unknown,
    actor: Actor,
    options: { createOnly?: boolean; dryRun?: boolean } = {},
  ): Promise<{ budget: StoredBudget; created: boolean }> {
    const parsed = parseBody(budgetBodySchema, body, `PodDisruptionBudget "${name}"`);
    const write = this.toWrite(namespace, name, parsed);
    if (options.dryRun) {
      const existing = this.snapshots.snapshot.budgets.get(namespace, name);
      if (options.createOnly && existing) throw AppError.alreadyExists('poddisruptionbudgets.policy', name);
      const now = this.uow.now();
      return {
        budget: existing
          ? { ...existing, ...write, uid: existing.uid }
          : { ...write, generation: 1, resourceVersion: '0', createdAt: now, updatedAt: now },
        created: !existing,
      };
    }
    const expectedVersion = parsed.metadata?.resourceVersion || undefined;
    const { result } = await this.uow.run(actor, async (tx, changes) => {
      const existing = await this.budgets.findByKey(tx, namespace, name);
      if (existing && options.createOnly) throw AppError.alreadyExists('poddisruptionbudgets.policy', name);
      if (expectedVersion !== undefined && existing?.resourceVersion !== expectedVersion) throw CONFLICT(name);
      const budget = existing
        ? await this.budgets.replace(
            tx,
            { ...write, uid: existing.uid },
            !sameSpec(existing.spec, write.spec),
            expectedVersion,
          )
        : await this.budgets.create(tx, write);
      if (!budget) throw CONFLICT(name);
      changes.budget(budget);
      changes.event({
        type: existing ? 'DisruptionBudgetReplaced' : 'DisruptionBudgetCreated',
        subjectKind: 'PodDisruptionBudget',
        subjectName: `${namespace}/${name}`,
        data: { spec: budget.spec },
      });
      return { budget, created: !existing };
    });
    return result;
  }

  async delete(
    namespace: string,
    name: string,
    actor: Actor,
    options: { dryRun?: boolean } = {},
  ): Promise<StoredBudget> {
    if (options.dryRun) return this.get(namespace, name);
    const { result } = await this.uow.run(actor, async (tx, changes) => {
      const budget = await this.budgets.findByKey(tx, namespace, name);
      if (!budget) throw AppError.notFound('poddisruptionbudgets.policy', name);
      // a deleted row can no longer tell its origin at COMMIT: a mirrored budget is refused (409) before
      await this.uow.refuseClusterOwned(tx, changes, { budgets: [{ namespace, name }] });
      await this.budgets.delete(tx, namespace, name);
      changes.budgetDeleted(namespace, name);
      changes.event({
        type: 'DisruptionBudgetDeleted',
        subjectKind: 'PodDisruptionBudget',
        subjectName: `${namespace}/${name}`,
        data: {},
      });
      return budget;
    });
    return result;
  }

  private toWrite(namespace: string, name: string, body: BudgetBody): BudgetWrite {
    for (const [field, given, expected] of [
      ['metadata.namespace', body.metadata?.namespace, namespace],
      ['metadata.name', body.metadata?.name, name],
    ] as const) {
      if (given !== undefined && given !== expected) {
        throw new AppError(
          'BadRequest',
          `the ${field} in the body ("${given}") does not match the path ("${expected}")`,
          [{ field, type: 'Invalid value', message: `Invalid value: "${given}": must match the path` }],
        );
      }
    }
    const write = budgetWrite(namespace, name, body);
    const errors = [...validateLabels(write.labels, 'metadata.labels'), ...validateDisruptionBudget(write)];
    if (errors.length) {
      throw new AppError('Invalid', formatInvalidObject('PodDisruptionBudget', name, errors), errors, {
        object: { kind: 'PodDisruptionBudget', name },
        // the Kubernetes API's Status details: kubectl prints `The PodDisruptionBudget "x" is invalid: ...`
        kube: { name, group: 'policy', kind: 'PodDisruptionBudget' },
      });
    }
    return write;
  }
}

/** A parsed body as the budget to store (uid: the body's, else a new one; the repository keeps a stored one). */
export function budgetWrite(namespace: string, name: string, body: BudgetBody): BudgetWrite {
  const spec: DisruptionBudgetSpec = { selector: null };
  const s = body.spec;
  if (s.minAvailable != null) spec.minAvailable = s.minAvailable;
  if (s.maxUnavailable != null) spec.maxUnavailable = s.maxUnavailable;
  if (s.selector != null) {
    spec.selector = {};
    if (s.selector.matchLabels) spec.selector.matchLabels = s.selector.matchLabels;
    if (s.selector.matchExpressions) {
      spec.selector.matchExpressions = s.selector.matchExpressions.map((e) => ({
        key: e.key,
        operator: e.operator,
        ...(e.values ? { values: e.values } : {}),
      }));
    }
  }
  if (s.unhealthyPodEvictionPolicy != null) spec.unhealthyPodEvictionPolicy = s.unhealthyPodEvictionPolicy;
  return { namespace, name, uid: body.metadata?.uid || randomUUID(), labels: body.metadata?.labels ?? {}, spec };
}

function sameSpec(a: DisruptionBudgetSpec, b: DisruptionBudgetSpec): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
