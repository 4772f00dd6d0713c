import { compileBudgetSelector, evictionConsults } from '../domain/disruption/budget-selector';
import { budgetStatus, isExpected, isHealthy } from '../domain/disruption/budget-status';
import type { StoredBudget } from '../kernel/model/stored-budget';
import type { StoredPod } from '../kernel/model/stored-objects';
import type { Db } from '../kernel/persistence/prisma-types';
import type { BudgetRepository } from '../kernel/persistence/repositories/budget.repository';

type Labels = Readonly<Record<string, string>>;

interface Entry {
  budget: StoredBudget;
  selects: (labels: Labels) => boolean;
  expected: number;
  healthy: number;
}

/**
 * The disruption budgets of some namespaces inside one transaction, with their pods counted as committed
 * (docs/SEMANTICS.md B.9.2) and kept up to date as the transaction evicts: what a budget-respecting
 * NoExecute eviction consults (B.9.6). Opened with `lock`, the budgets are locked FOR UPDATE, so evictions
 * against one budget are decided one transaction after another, on every replica.
 */
export class BudgetLedger {
  private constructor(private readonly byNamespace: Map<string, Entry[]>) {}

  static async open(db: Db, budgets: BudgetRepository, namespaces: readonly string[], lock: boolean) {
    const unique = [...new Set(namespaces)].sort();
    const found = lock
      ? await budgets.lockInNamespaces(db, unique)
      : (await budgets.findAll(db)).filter((b) => unique.includes(b.namespace));
    const byNamespace = new Map<string, Entry[]>();
    for (const budget of found) {
      const entry = { budget, selects: compileBudgetSelector(budget.spec.selector), expected: 0, healthy: 0 };
      const list = byNamespace.get(budget.namespace);
      if (list) list.push(entry);
      else byNamespace.set(budget.namespace, [entry]);
    }
    if (byNamespace.size > 0) {
      for (const pod of await budgets.countedPods(db, [...byNamespace.keys()])) {
        for (const entry of byNamespace.get(pod.namespace) ?? []) {
          if (!entry.selects(pod.labels)) continue;
          if (isExpected(pod)) entry.expected++;
          if (isHealthy(pod)) entry.healthy++;
        }
      }
    }
    return new BudgetLedger(byNamespace);
  }

  /**
   * The budgets (namespace/name) that would fall below `desiredHealthy` if this pod went now: those selecting
   * it with no disruption left. Empty for a pod that is not Running (it is not healthy: evicting it costs no
   * budget anything, as the eviction subresource's canIgnorePDB says).
   */
  blocking(pod: StoredPod): string[] {
    if (!isHealthy({ phase: pod.phase, owned: pod.owner !== null })) return [];
    // As the eviction subresource: a budget with an empty selector holds nothing back.
    return this.selecting(pod)
      .filter((e) => evictionConsults(e.budget.spec.selector))
      .filter((e) => budgetStatus(e.budget.spec, e).disruptionsAllowed < 1)
      .map((e) => `${e.budget.namespace}/${e.budget.name}`);
  }

  /** The pod is evicted in this transaction: it is no longer healthy, and expected only if owned. */
  evicted(pod: StoredPod): void {
    const before = { phase: pod.phase, owned: pod.owner !== null };
    const after = { phase: 'Evicted', owned: pod.owner !== null };
    for (const entry of this.selecting(pod)) {
      entry.expected += Number(isExpected(after)) - Number(isExpected(before));
      entry.healthy += Number(isHealthy(after)) - Number(isHealthy(before));
    }
  }

  /** The budgets counting this pod (the disruption controller's view: an empty selector counts every pod). */
  private selecting(pod: StoredPod): Entry[] {
    return (this.byNamespace.get(pod.namespace) ?? []).filter((e) => e.selects(pod.labels));
  }
}
