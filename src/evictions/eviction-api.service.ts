import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { compileBudgetSelector, evictionConsults } from '../domain/disruption/budget-selector';
import { budgetStatus, countBudgetPods } from '../domain/disruption/budget-status';
import { DISRUPTION_BUDGET_CAUSE, evictionVerdict, type BudgetWithStatus } from '../domain/disruption/eviction-verdict';
import { AppError } from '../kernel/errors/app-error';
import { parseBody } from '../kernel/http/input/parse-body';
import { isActivePhase, type StoredPod } from '../kernel/model/stored-objects';
import type { Actor } from '../kernel/persistence/change-set';
import type { Db } from '../kernel/persistence/prisma-types';
import { BudgetRepository } from '../kernel/persistence/repositories/budget.repository';
import { NodeRepository } from '../kernel/persistence/repositories/node.repository';
import { PodRepository } from '../kernel/persistence/repositories/pod.repository';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import { EvictionPlanner } from './eviction-planner.service';

/** policy/v1 Eviction (the body of `pods/{name}/eviction`); an empty body means "this pod". */
const evictionBodySchema = z
  .strictObject({
    apiVersion: z.string().max(64).optional(),
    kind: z.string().max(64).optional(),
    metadata: z
      .looseObject({ name: z.string().max(253).optional(), namespace: z.string().max(63).optional() })
      .optional(),
    deleteOptions: z
      .looseObject({ dryRun: z.array(z.string().max(16)).max(4).optional() })
      .nullable()
      .optional(),
  })
  .optional();

export interface EvictionOutcome {
  /** The pod as it is after the eviction (or, for a dry run, as it was). */
  pod: StoredPod;
  /** Whether the pod was active and is (or, dry run, would be) evicted now; false for a pod already terminal. */
  evicted: boolean;
  /** The budget whose allowance the eviction used, if one selected the pod. */
  budget?: string;
  dryRun: boolean;
}

/**
 * The Eviction API (`POST /v1/namespaces/{ns}/pods/{name}/eviction`, and the Kubernetes API's
 * `pods/eviction` subresource), with the eviction subresource's budget rules (SEMANTICS B.9.3): one
 * transaction that locks the pod's node and the namespace's budgets, counts their pods as committed,
 * decides, and evicts as a NoExecute eviction does. Budgets are locked FOR UPDATE, so two evictions
 * against one budget are decided one after the other, on every replica.
 */
@Injectable()
export class EvictionApiService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly pods: PodRepository,
    private readonly nodes: NodeRepository,
    private readonly budgets: BudgetRepository,
    private readonly planner: EvictionPlanner,
  ) {}

  async evict(
    namespace: string,
    name: string,
    body: unknown,
    actor: Actor,
    options: { dryRun?: boolean } = {},
  ): Promise<EvictionOutcome> {
    const eviction =
      body === undefined || body === null ? undefined : parseBody(evictionBodySchema, body, `Eviction "${name}"`);
    if (eviction?.metadata?.name !== undefined && eviction.metadata.name !== name) {
      throw new AppError('BadRequest', 'name in URL does not match name in Eviction object');
    }
    const dryRun = options.dryRun === true || (eviction?.deleteOptions?.dryRun ?? []).includes('All');
    if (dryRun) return this.decide(this.uow.db, namespace, name, true);
    const { result } = await this.uow.run(actor, async (tx, changes) => {
      const outcome = await this.decide(tx, namespace, name, false);
      if (!outcome.evicted) return outcome;
      const pod = await this.planner.evictThroughApi(tx, outcome.pod, this.uow.now(), changes, outcome.budget);
      return { ...outcome, pod };
    });
    return result;
  }

  /** Reads (and, outside a dry run, locks) what the decision needs, and throws the refusals. */
  private async decide(db: Db, namespace: string, name: string, dryRun: boolean): Promise<EvictionOutcome> {
    let pod = await this.pods.findByKey(db, namespace, name);
    if (!pod) throw AppError.notFound('pods', name);
    if (!dryRun && pod.nodeName) {
      await this.nodes.lock(db, [pod.nodeName]);
      pod = (await this.pods.findByKey(db, namespace, name)) ?? pod;
    }
    // A pod already finished or evicted has caused its disruption: nothing more to do (canIgnorePDB).
    if (!isActivePhase(pod.phase)) return { pod, evicted: false, dryRun };
    const budgets = await this.budgetsOf(db, pod, dryRun);
    const verdict = evictionVerdict(pod.phase, budgets);
    if (!verdict.allowed && verdict.kind === 'BudgetViolated') {
      throw new AppError('RateLimited', verdict.message, [], {
        budget: verdict.budget,
        cause: verdict.cause,
        kube: { causes: [{ reason: DISRUPTION_BUDGET_CAUSE, message: verdict.cause }] },
        retryAfterSeconds: 0,
      });
    }
    if (!verdict.allowed) {
      // Upstream answers 500; a request that cannot succeed as sent is a conflict (SEMANTICS A.9).
      throw new AppError('Conflict', verdict.message, [], { budgets: verdict.budgets });
    }
    return { pod, evicted: true, dryRun, ...(verdict.budget ? { budget: verdict.budget } : {}) };
  }

  /** The budgets selecting the pod, with their status from the pods as committed. */
  private async budgetsOf(db: Db, pod: StoredPod, dryRun: boolean): Promise<BudgetWithStatus[]> {
    const all = dryRun
      ? (await this.budgets.findAll(db)).filter((b) => b.namespace === pod.namespace)
      : await this.budgets.lockInNamespaces(db, [pod.namespace]);
    const selecting = all
      .map((budget) => ({ budget, selects: compileBudgetSelector(budget.spec.selector) }))
      .filter(({ budget, selects }) => evictionConsults(budget.spec.selector) && selects(pod.labels));
    if (selecting.length === 0) return [];
    const counted = await this.budgets.countedPods(db, [pod.namespace]);
    return selecting.map(({ budget, selects }) => ({
      name: budget.name,
      status: budgetStatus(budget.spec, countBudgetPods(counted.filter((p) => selects(p.labels)))),
    }));
  }
}
