import type { DisruptionBudgetStatus } from '../../domain/disruption/budget-types';
import { compileBudgetSelector } from '../../domain/disruption/budget-selector';
import { budgetStatus } from '../../domain/disruption/budget-status';
import { budgetKey, type StoredBudget } from '../model/stored-budget';
import type { StoredPod } from '../model/stored-objects';
import type { PodStore } from './pod-store';

type Labels = Readonly<Record<string, string>>;

interface IndexedBudget {
  budget: StoredBudget;
  selects: (labels: Labels) => boolean;
}

/**
 * The snapshot's disruption budgets and their status, derived from the pods as the disruption controller
 * would (domain budget-status.ts, docs/SEMANTICS.md B.9.2). Statuses are worked out for all budgets at
 * once when first asked after a change: per namespace, the pods are first counted per distinct label
 * set (a workload's pods share one), then each budget's selector runs once per label set, not per pod.
 */
export class BudgetIndex {
  private readonly byKey = new Map<string, IndexedBudget>();
  /** namespace → pod name → labels, for evicted pods with an owner (not in the pod store: not active). */
  private readonly evictedOwned = new Map<string, Map<string, Labels>>();
  private statuses: { version: number; byKey: Map<string, DisruptionBudgetStatus> } | undefined;
  private byNamespace: Map<string, IndexedBudget[]> | undefined;

  constructor(
    private readonly pods: PodStore,
    private readonly version: () => number,
  ) {}

  load(budgets: Iterable<StoredBudget>, evicted: Iterable<{ namespace: string; name: string; labels: Labels }>): void {
    this.byKey.clear();
    this.byNamespace = undefined;
    this.evictedOwned.clear();
    for (const budget of budgets) this.upsert(budget);
    for (const pod of evicted) this.addEvicted(pod.namespace, pod.name, pod.labels);
  }

  get size(): number {
    return this.byKey.size;
  }

  upsert(budget: StoredBudget): void {
    this.byNamespace = undefined;
    this.byKey.set(budgetKey(budget.namespace, budget.name), {
      budget,
      selects: compileBudgetSelector(budget.spec.selector),
    });
  }

  remove(namespace: string, name: string): boolean {
    this.byNamespace = undefined;
    return this.byKey.delete(budgetKey(namespace, name));
  }

  /** A pod was written: it is an evicted owned pod now, or no longer one. */
  podChanged(pod: StoredPod): void {
    this.podRemoved(pod.namespace, pod.name);
    if (pod.phase === 'Evicted' && pod.owner !== null) this.addEvicted(pod.namespace, pod.name, pod.labels);
  }

  /** Whether the pod was an evicted owned pod. */
  podRemoved(namespace: string, name: string): boolean {
    const inNamespace = this.evictedOwned.get(namespace);
    if (!inNamespace?.delete(name)) return false;
    if (inNamespace.size === 0) this.evictedOwned.delete(namespace);
    return true;
  }

  get(namespace: string, name: string): StoredBudget | undefined {
    return this.byKey.get(budgetKey(namespace, name))?.budget;
  }

  /** Every budget, by namespace then name. */
  all(): StoredBudget[] {
    return [...this.byKey.values()].map((b) => b.budget).sort(compareBudgets);
  }

  /** The budgets of the pod's namespace whose selector matches its labels, by name. */
  selecting(namespace: string, labels: Labels): StoredBudget[] {
    const out: StoredBudget[] = [];
    for (const indexed of this.inNamespace(namespace)) if (indexed.selects(labels)) out.push(indexed.budget);
    return out;
  }

  /** The namespace's budgets by name (cached until a budget changes). */
  private inNamespace(namespace: string): readonly IndexedBudget[] {
    if (!this.byNamespace) {
      this.byNamespace = new Map();
      for (const indexed of this.byKey.values()) {
        const list = this.byNamespace.get(indexed.budget.namespace);
        if (list) list.push(indexed);
        else this.byNamespace.set(indexed.budget.namespace, [indexed]);
      }
      for (const list of this.byNamespace.values()) list.sort((a, b) => compareBudgets(a.budget, b.budget));
    }
    return this.byNamespace.get(namespace) ?? [];
  }

  status(namespace: string, name: string): DisruptionBudgetStatus | undefined {
    return this.currentStatuses().get(budgetKey(namespace, name));
  }

  private currentStatuses(): Map<string, DisruptionBudgetStatus> {
    const version = this.version();
    if (this.statuses?.version !== version) this.statuses = { version, byKey: this.computeAll() };
    return this.statuses.byKey;
  }

  private computeAll(): Map<string, DisruptionBudgetStatus> {
    const byNamespace = new Map<string, IndexedBudget[]>();
    for (const indexed of this.byKey.values()) {
      const list = byNamespace.get(indexed.budget.namespace);
      if (list) list.push(indexed);
      else byNamespace.set(indexed.budget.namespace, [indexed]);
    }
    const out = new Map<string, DisruptionBudgetStatus>();
    for (const [namespace, budgets] of byNamespace) {
      const groups = this.labelGroups(namespace);
      for (const { budget, selects } of budgets) {
        let expected = 0;
        let healthy = 0;
        for (const [labels, counts] of groups) {
          if (!selects(labels)) continue;
          expected += counts.expected;
          healthy += counts.healthy;
        }
        out.set(budgetKey(namespace, budget.name), budgetStatus(budget.spec, { expected, healthy }));
      }
    }
    return out;
  }

  /** The namespace's counted pods, per distinct label set (shared objects first, equal content after). */
  private labelGroups(namespace: string): Map<Labels, { expected: number; healthy: number }> {
    const groups = new Map<Labels, { expected: number; healthy: number }>();
    const byIdentity = new Map<Labels, { expected: number; healthy: number }>();
    const byContent = new Map<string, { expected: number; healthy: number }>();
    const add = (labels: Labels, healthy: boolean) => {
      let counts = byIdentity.get(labels);
      if (!counts) {
        const key = JSON.stringify(labels);
        counts = byContent.get(key);
        if (!counts) {
          counts = { expected: 0, healthy: 0 };
          byContent.set(key, counts);
          groups.set(labels, counts);
        }
        byIdentity.set(labels, counts);
      }
      counts.expected++;
      if (healthy) counts.healthy++;
    };
    // Active pods (Pending and Running) are the pod store's; Running stands for Ready.
    for (const slot of this.pods.slotsIn(namespace))
      add(this.pods.labelsOf(slot), this.pods.phaseOf(slot) === 'Running');
    for (const labels of this.evictedOwned.get(namespace)?.values() ?? []) add(labels, false);
    return groups;
  }

  private addEvicted(namespace: string, name: string, labels: Labels): void {
    let inNamespace = this.evictedOwned.get(namespace);
    if (!inNamespace) this.evictedOwned.set(namespace, (inNamespace = new Map()));
    inNamespace.set(name, labels);
  }
}

function compareBudgets(a: StoredBudget, b: StoredBudget): number {
  return a.namespace < b.namespace
    ? -1
    : a.namespace > b.namespace
      ? 1
      : a.name < b.name
        ? -1
        : a.name > b.name
          ? 1
          : 0;
}
