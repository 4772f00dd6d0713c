import { compilePod } from '../domain/scheduling/compile-pod';
import { rePlacePods, type PodToRePlace } from '../domain/scheduling/re-place-pods';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { SchedulingNode } from '../domain/types';
import type { StoredBudget } from '../kernel/model/stored-budget';
import type { StoredPod } from '../kernel/model/stored-objects';
import type { InventorySnapshot } from '../kernel/snapshot/inventory-snapshot';
import type { BudgetImpactView, PodRef, WorkloadImpactView } from './decision-answers';

/** An eviction of the what-if, as these reports read it (the budgets need less of the pod than re-placement). */
export interface ImpactEviction<P = StoredPod> {
  pod: P;
  node: string;
  action: 'EvictNow' | 'EvictAfter';
  evictAt: Date;
}

/** Where an evicted pod would go: a node, or null with why. */
export type PlacementView = { node: string } | null;

export interface PlacementOutcome {
  placement: PlacementView;
  /** With `placement: null`: the FitError message, or why the pod is not re-placed at all. */
  reason?: string;
}

/** Why a pod of this owner is not re-placed at all (DaemonSet and static pods), or undefined. */
export function notRePlacedReason(owner: StoredPod['owner']): string | undefined {
  return owner ? NOT_RE_PLACED[owner.kind] : undefined;
}

const NOT_RE_PLACED: Record<string, string> = {
  DaemonSet:
    'DaemonSet pods are not re-placed: the DaemonSet controller runs one on each eligible node, it does not move this one',
  Node: 'static pods are not re-placed: they belong to the kubelet of their node',
};

/**
 * Every budget that selects an evicted pod (docs/SEMANTICS.md B.9.4): its status before the change, how many
 * of its pods go at once and in all, and whether the Running ones among them exceed `disruptionsAllowed`.
 */
export function budgetImpact(
  snapshot: InventorySnapshot,
  evictions: ReadonlyArray<ImpactEviction<Pick<StoredPod, 'namespace' | 'labels' | 'phase'>>>,
): BudgetImpactView[] {
  const tally = new BudgetTally(snapshot);
  if (tally.empty) return [];
  for (const { pod, action } of evictions) tally.add(pod.namespace, pod.labels, pod.phase, action === 'EvictNow');
  return tally.views();
}

/**
 * budgetImpact one eviction at a time, for a caller that reads the pods from the snapshot's columns and
 * builds no eviction object per pod (taint-impact-json.ts).
 */
export class BudgetTally {
  private readonly index: InventorySnapshot['budgets'];
  /** By the index's budget object: one per budget while the tally lives (a `ns/name` text per pod cost more). */
  private readonly touched = new Map<StoredBudget, BudgetImpactView & { healthyEvicted: number }>();
  /**
   * Budgets selecting a labels object, per namespace: the pod store shares one labels object between
   * equal label sets of different namespaces, so the labels alone are not a key (a second namespace's
   * pods once got the first one's budgets, filtered out, and none of their own).
   */
  private readonly selectingByLabels = new Map<string, Map<object, StoredBudget[]>>();

  constructor(snapshot: InventorySnapshot) {
    this.index = snapshot.budgets;
  }

  /** No budget at all: nothing to count. */
  get empty(): boolean {
    return this.index.size === 0;
  }

  add(namespace: string, labels: StoredPod['labels'], phase: string, evictedNow: boolean): void {
    this.addPods(namespace, labels, evictedNow ? 1 : 0, 1, phase === 'Running' ? 1 : 0);
  }

  /**
   * `add` for `total` evicted pods of one namespace with equal labels at once (`now` of them evicted
   * now, `running` of them Running), for a caller that groups its evictions first (taint-impact-json.ts:
   * ~14,000 evictions over a pool, a few hundred label sets).
   */
  addPods(namespace: string, labels: StoredPod['labels'], now: number, total: number, running: number): void {
    const index = this.index;
    let inNamespace = this.selectingByLabels.get(namespace);
    if (!inNamespace) this.selectingByLabels.set(namespace, (inNamespace = new Map()));
    let selecting = inNamespace.get(labels);
    if (!selecting) inNamespace.set(labels, (selecting = index.selecting(namespace, labels)));
    for (const budget of selecting) {
      if (budget.namespace !== namespace) continue;
      let view = this.touched.get(budget);
      if (!view) {
        const status = index.status(budget.namespace, budget.name)!;
        view = {
          namespace: budget.namespace,
          name: budget.name,
          disruptionsAllowed: status.disruptionsAllowed,
          desiredHealthy: status.desiredHealthy,
          currentHealthy: status.currentHealthy,
          evictedNow: 0,
          evictedTotal: 0,
          violated: false,
          healthyEvicted: 0,
        };
        this.touched.set(budget, view);
      }
      view.evictedTotal += total;
      view.evictedNow += now;
      view.healthyEvicted += running;
    }
  }

  views(): BudgetImpactView[] {
    return [...this.touched.values()]
      .map(({ healthyEvicted, ...view }) => ({ ...view, violated: healthyEvicted > view.disruptionsAllowed }))
      .sort((a, b) => (a.namespace === b.namespace ? compare(a.name, b.name) : compare(a.namespace, b.namespace)));
  }
}

/** What re-placement reads of an evicted pod: a StoredPod, or the snapshot's lighter view of one. */
export type RePlaceablePod = Pick<
  StoredPod,
  'namespace' | 'name' | 'priority' | 'owner' | 'tolerations' | 'nodeSelector' | 'affinity' | 'requests'
>;

/**
 * Re-placement (docs/SEMANTICS.md B.9.5): the evicted pods in the scheduler's order (priority, highest
 * first; then eviction time; then namespace/name), each placed by feasible-nodes' filters and scores on the
 * nodes as they would be after the change — the new taints on `after`'s nodes and without the evicted pods'
 * requests — and charged there before the next one. Answers per eviction (same order as given), per
 * workload, and the stranded pods.
 *
 * ~14,000 evictions per request over a 500-node pool: the pods are put in (namespace, name) order once
 * (a position per eviction), and that position is the last key of the scheduler's order and the order
 * of the stranded list, so no other sort compares strings. The answer is the one of
 * testing/re-placement-reference.ts, which re-placement.spec.ts checks.
 */
export function rePlacementImpact(
  snapshot: InventorySnapshot,
  evictions: ReadonlyArray<ImpactEviction<RePlaceablePod>>,
  after: ReadonlyMap<string, SchedulingNode>,
  matchOptions: MatchOptions,
): { placements: PlacementOutcome[]; workloads: WorkloadImpactView[]; stranded: PodRef[] } {
  const count = evictions.length;
  const byName = nameOrder(evictions);
  const position = new Int32Array(count);
  for (let k = 0; k < count; k++) position[byName[k]] = k;
  const priority = new Float64Array(count);
  const evictAt = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    priority[i] = evictions[i].pod.priority;
    evictAt[i] = evictions[i].evictAt.getTime();
  }
  // Array#sort is stable: equal keys keep the (namespace, name) order given by `position`.
  const order = Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => priority[b] - priority[a] || evictAt[a] - evictAt[b] || position[a] - position[b],
  );

  const placements: PlacementOutcome[] = new Array(count);
  const toPlace: PodToRePlace[] = [];
  const toPlaceIndex: number[] = [];
  const groups = new SpecGroups(matchOptions);
  for (const index of order) {
    const { pod } = evictions[index];
    const skip = notRePlacedReason(pod.owner);
    if (skip) {
      placements[index] = { placement: null, reason: skip };
      continue;
    }
    toPlace.push(groups.of(pod.tolerations, pod.nodeSelector, pod.affinity, pod.requests).pod);
    toPlaceIndex.push(index);
  }
  const released = new ReleasedRequests();
  for (const { pod, node } of evictions) released.add(node, pod.requests);
  // the what-if changes taints and resources only: the snapshot's table has the same names and labels
  const placed = rePlacePods(toPlace, released.nodesAfter(snapshot, after), {
    sameNodesAs: snapshot.schedulingTable(),
  });
  for (let k = 0; k < placed.length; k++) {
    const outcome = placed[k];
    placements[toPlaceIndex[k]] =
      outcome.node === null ? { placement: null, reason: outcome.message } : { placement: { node: outcome.node } };
  }
  return {
    placements,
    workloads: workloadsOf(evictions, placements),
    stranded: strandedOf(evictions, placements, byName),
  };
}

/** Eviction indexes by (namespace, name); a what-if lists each pod once, and equal refs would keep their order. */
function nameOrder(evictions: ReadonlyArray<ImpactEviction<RePlaceablePod>>): number[] {
  const count = evictions.length;
  // A what-if touches a handful of namespaces: ranked once, so ~200,000 comparisons at 14,000 evictions
  // compare two integers and then the names, read from arrays rather than through each eviction's pod.
  const rankOf = new Map<string, number>();
  for (let i = 0; i < count; i++) rankOf.set(evictions[i].pod.namespace, 0);
  [...rankOf.keys()].sort(compare).forEach((namespace, rank) => rankOf.set(namespace, rank));
  const namespaceRank = new Int32Array(count);
  const names: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const { pod } = evictions[i];
    namespaceRank[i] = rankOf.get(pod.namespace)!;
    names[i] = pod.name;
  }
  // The evictions come node by node, each node's pods in (namespace, name) order: runs TimSort merges.
  return Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => namespaceRank[a] - namespaceRank[b] || compare(names[a], names[b]),
  );
}

/**
 * The evicted pods' requests per node, then every node as after the change: `after`'s taints, and those
 * requests taken off their nodes.
 */
export class ReleasedRequests {
  private readonly released = new Map<string, Record<string, number>>();
  // a workload's pods share one requests object: its entries are listed once, not once per pod
  private readonly entriesOf = new Map<object, Array<[string, number]>>();

  add(node: string, requests: StoredPod['requests']): void {
    let sum = this.released.get(node);
    if (!sum) this.released.set(node, (sum = { pods: 0 }));
    let entries = this.entriesOf.get(requests);
    if (!entries) this.entriesOf.set(requests, (entries = Object.entries(requests)));
    for (const [resource, amount] of entries) if (resource !== 'pods') sum[resource] = (sum[resource] ?? 0) + amount;
    sum.pods += 1;
  }

  nodesAfter(snapshot: InventorySnapshot, after: ReadonlyMap<string, SchedulingNode>): SchedulingNode[] {
    return snapshot.schedulingNodes().map((node) => {
      const changed = after.get(node.name) ?? node;
      const minus = this.released.get(node.name);
      if (!minus) return changed;
      const requested = { ...changed.requested };
      for (const [resource, amount] of Object.entries(minus)) requested[resource] = (requested[resource] ?? 0) - amount;
      return { ...changed, requested };
    });
  }
}

/** Per workload (namespace, owner kind, owner name): evicted, re-placed, stranded; in that key order. */
function workloadsOf(
  evictions: ReadonlyArray<ImpactEviction<RePlaceablePod>>,
  placements: readonly PlacementOutcome[],
): WorkloadImpactView[] {
  // namespace → owner kind → owner name: no key string built per eviction
  const views = new Map<string, Map<string, Map<string, WorkloadImpactView>>>();
  const list: WorkloadImpactView[] = [];
  for (let i = 0; i < evictions.length; i++) {
    const { pod } = evictions[i];
    const kind = pod.owner?.kind ?? '';
    const name = pod.owner?.name ?? '';
    let byKind = views.get(pod.namespace);
    if (!byKind) views.set(pod.namespace, (byKind = new Map()));
    let byName = byKind.get(kind);
    if (!byName) byKind.set(kind, (byName = new Map()));
    let view = byName.get(name);
    if (!view) {
      byName.set(name, (view = { namespace: pod.namespace, owner: pod.owner, evicted: 0, rePlaced: 0, stranded: 0 }));
      list.push(view);
    }
    view.evicted++;
    if (placements[i].placement) view.rePlaced++;
    else view.stranded++;
  }
  return list.sort(byWorkload);
}

/** The answer's workload order: namespace, owner kind, owner name (a bare pod's empty owner first). */
export function byWorkload(a: WorkloadImpactView, b: WorkloadImpactView): number {
  return (
    compare(a.namespace, b.namespace) ||
    compare(a.owner?.kind ?? '', b.owner?.kind ?? '') ||
    compare(a.owner?.name ?? '', b.owner?.name ?? '')
  );
}

/** The pods not re-placed, by (namespace, name): the name order already worked out. */
function strandedOf(
  evictions: ReadonlyArray<ImpactEviction<RePlaceablePod>>,
  placements: readonly PlacementOutcome[],
  byName: readonly number[],
): PodRef[] {
  const stranded: PodRef[] = [];
  for (const i of byName) {
    if (placements[i].placement) continue;
    const { pod } = evictions[i];
    stranded.push({ namespace: pod.namespace, name: pod.name });
  }
  return stranded;
}

/**
 * Pods of a workload share their spec objects (the snapshot interns them): one group, and one compiled
 * pod, per combination of tolerations, nodeSelector, affinity and requests OBJECTS (rePlacePods lets a
 * group share its best node). Looked up through one map per object, no key string per pod.
 */
export class SpecGroups {
  private readonly root = new Map<object, Map<object, Map<object, Map<object, SpecGroup>>>>();
  private next = 1;

  constructor(private readonly matchOptions: MatchOptions) {}

  /** The last group asked for: pods of one workload come one after another in the scheduler's order. */
  private last:
    { tolerations: object; nodeSelector: object; affinity: unknown; requests: object; group: SpecGroup } | undefined;

  of(
    tolerations: StoredPod['tolerations'],
    nodeSelector: StoredPod['nodeSelector'],
    affinity: StoredPod['affinity'],
    requests: StoredPod['requests'],
  ): SpecGroup {
    const last = this.last;
    if (
      last !== undefined &&
      last.tolerations === tolerations &&
      last.nodeSelector === nodeSelector &&
      last.affinity === affinity &&
      last.requests === requests
    )
      return last.group;
    const group = this.lookUp(tolerations, nodeSelector, affinity, requests);
    this.last = { tolerations, nodeSelector, affinity, requests, group };
    return group;
  }

  private lookUp(
    tolerations: StoredPod['tolerations'],
    nodeSelector: StoredPod['nodeSelector'],
    affinity: StoredPod['affinity'],
    requests: StoredPod['requests'],
  ): SpecGroup {
    const byTolerations = child(this.root, tolerations);
    const bySelector = child(byTolerations, nodeSelector);
    const byAffinity = child(bySelector, affinity ?? NO_AFFINITY);
    let group = byAffinity.get(requests);
    if (!group) {
      const compiled = compilePod({ spec: { tolerations, nodeSelector, affinity }, requests }, this.matchOptions);
      // one object per group, handed to rePlacePods for each of its pods
      group = { pod: { compiled, requests, group: String(this.next++) } };
      byAffinity.set(requests, group);
    }
    return group;
  }
}

interface SpecGroup {
  pod: PodToRePlace;
}

function child<V>(map: Map<object, Map<object, V>>, key: object): Map<object, V> {
  let next = map.get(key);
  if (!next) map.set(key, (next = new Map()));
  return next;
}

const NO_AFFINITY = {};

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
