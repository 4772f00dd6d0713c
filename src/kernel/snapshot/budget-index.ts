import type { DisruptionBudgetStatus, IntOrPercent } from '../../domain/disruption/budget-types';
import {
  compactBudgetSelector,
  compactSelectorMatches,
  type CompactBudgetSelector,
} from '../../domain/disruption/budget-selector';
import { budgetStatus } from '../../domain/disruption/budget-status';
import { budgetKey, type StoredBudget } from '../model/stored-budget';
import type { StoredPod } from '../model/stored-objects';
import { flatJson, flatString } from './flat-json';
import type { PodStore } from './pod-store';

type Labels = Readonly<Record<string, string>>;

/**
 * One budget as the index keeps it, in few heap objects (issue 16 (2): 5,000 budgets held as StoredBudget
 * objects with compiled selectors were ~115,000 objects a full collection marks): the stored budget as one
 * flat JSON text that reads rebuild it from, and beside it what deciding and counting read without parsing
 * it: the namespace (shared), the selector in its compact form, the two availability bounds.
 */
interface IndexedBudget {
  /** `namespace/name` (budgetKey), as one flat string. */
  readonly key: string;
  readonly namespace: string;
  /** The StoredBudget as JSON, `createdAt` and `updatedAt` as epoch ms. */
  readonly text: string;
  readonly selector: CompactBudgetSelector;
  readonly minAvailable: IntOrPercent | null | undefined;
  readonly maxUnavailable: IntOrPercent | null | undefined;
}

/**
 * The snapshot's disruption budgets and their status, derived from the pods as the disruption controller
 * would (domain budget-status.ts, docs/SEMANTICS.md B.9.2). Statuses are worked out for all budgets at
 * once when first asked after a change: per namespace, the pods are first counted per distinct label
 * set (a workload's pods share one), then each budget's selector runs once per label set, not per pod.
 */
export class BudgetIndex {
  private readonly byKey = new Map<string, IndexedBudget>();
  /** The namespaces' names, one string each for all their budgets. */
  private readonly namespaces = new Map<string, string>();
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
    this.namespaces.clear();
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
    let namespace = this.namespaces.get(budget.namespace);
    if (namespace === undefined) this.namespaces.set(budget.namespace, (namespace = budget.namespace));
    const key = flatString(budgetKey(namespace, budget.name));
    this.byKey.set(key, {
      key,
      namespace,
      text: flatJson({ ...budget, createdAt: budget.createdAt.getTime(), updatedAt: budget.updatedAt.getTime() }),
      selector: compactBudgetSelector(budget.spec.selector),
      minAvailable: budget.spec.minAvailable,
      maxUnavailable: budget.spec.maxUnavailable,
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

  /** The stored budget, rebuilt from its text (a new object each call). */
  get(namespace: string, name: string): StoredBudget | undefined {
    const indexed = this.byKey.get(budgetKey(namespace, name));
    return indexed === undefined ? undefined : storedBudget(indexed);
  }

  /** Every budget, by namespace then name. */
  all(): StoredBudget[] {
    return [...this.byKey.values()].map(storedBudget).sort(compareBudgets);
  }

  /** The budgets of the pod's namespace whose selector matches its labels, by name. */
  selecting(namespace: string, labels: Labels): StoredBudget[] {
    const out: StoredBudget[] = [];
    for (const indexed of this.inNamespace(namespace))
      if (compactSelectorMatches(indexed.selector, labels)) out.push(storedBudget(indexed));
    return out;
  }

  /** The namespace's budgets by name (cached until a budget changes). */
  private inNamespace(namespace: string): readonly IndexedBudget[] {
    if (!this.byNamespace) {
      this.byNamespace = new Map();
      for (const indexed of this.byKey.values()) {
        const list = this.byNamespace.get(indexed.namespace);
        if (list) list.push(indexed);
        else this.byNamespace.set(indexed.namespace, [indexed]);
      }
      // One namespace: its keys (`namespace/name`) sort as the names do.
      for (const list of this.byNamespace.values()) list.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
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
      const list = byNamespace.get(indexed.namespace);
      if (list) list.push(indexed);
      else byNamespace.set(indexed.namespace, [indexed]);
    }
    const out = new Map<string, DisruptionBudgetStatus>();
    for (const [namespace, budgets] of byNamespace) {
      const groups = this.labelGroups(namespace);
      for (const { key, selector, minAvailable, maxUnavailable } of budgets) {
        let expected = 0;
        let healthy = 0;
        for (const [labels, counts] of groups) {
          if (!compactSelectorMatches(selector, labels)) continue;
          expected += counts.expected;
          healthy += counts.healthy;
        }
        // budgetStatus reads the two bounds only; the selector has been applied above.
        out.set(key, budgetStatus({ minAvailable, maxUnavailable, selector: null }, { expected, healthy }));
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

function storedBudget(indexed: IndexedBudget): StoredBudget {
  const stored = JSON.parse(indexed.text) as Omit<StoredBudget, 'createdAt' | 'updatedAt'> & {
    createdAt: number;
    updatedAt: number;
  };
  return { ...stored, createdAt: new Date(stored.createdAt), updatedAt: new Date(stored.updatedAt) };
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
