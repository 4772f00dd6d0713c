import { compilePod, type CompiledPod } from '../domain/scheduling/compile-pod';
import { rePlacePods, type PodToRePlace } from '../domain/scheduling/re-place-pods';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { SchedulingNode } from '../domain/types';
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
  const index = snapshot.budgets;
  if (index.size === 0) return [];
  const touched = new Map<string, BudgetImpactView & { healthyEvicted: number }>();
  const selectingByLabels = new Map<object, ReturnType<typeof index.selecting>>();
  for (const eviction of evictions) {
    const { pod } = eviction;
    let selecting = selectingByLabels.get(pod.labels);
    if (!selecting) selectingByLabels.set(pod.labels, (selecting = index.selecting(pod.namespace, pod.labels)));
    for (const budget of selecting) {
      if (budget.namespace !== pod.namespace) continue;
      const key = `${budget.namespace}/${budget.name}`;
      let view = touched.get(key);
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
        touched.set(key, view);
      }
      view.evictedTotal++;
      if (eviction.action === 'EvictNow') view.evictedNow++;
      if (pod.phase === 'Running') view.healthyEvicted++;
    }
  }
  return [...touched.values()]
    .map(({ healthyEvicted, ...view }) => ({ ...view, violated: healthyEvicted > view.disruptionsAllowed }))
    .sort((a, b) => (a.namespace === b.namespace ? compare(a.name, b.name) : compare(a.namespace, b.namespace)));
}

/**
 * Re-placement (docs/SEMANTICS.md B.9.5): the evicted pods in the scheduler's order (priority, highest
 * first; then eviction time; then namespace/name), each placed by feasible-nodes' filters and scores on the
 * nodes as they would be after the change — the new taints on `after`'s nodes and without the evicted pods'
 * requests — and charged there before the next one. Answers per eviction (same order as given), per
 * workload, and the stranded pods.
 */
export function rePlacementImpact(
  snapshot: InventorySnapshot,
  evictions: readonly ImpactEviction[],
  after: ReadonlyMap<string, SchedulingNode>,
  matchOptions: MatchOptions,
): { placements: PlacementOutcome[]; workloads: WorkloadImpactView[]; stranded: PodRef[] } {
  const order = evictions
    .map((eviction, index) => ({ eviction, index }))
    .sort((a, b) => {
      const p = b.eviction.pod.priority - a.eviction.pod.priority;
      if (p !== 0) return p;
      const t = a.eviction.evictAt.getTime() - b.eviction.evictAt.getTime();
      if (t !== 0) return t;
      return (
        compare(a.eviction.pod.namespace, b.eviction.pod.namespace) || compare(a.eviction.pod.name, b.eviction.pod.name)
      );
    });
  const placements: PlacementOutcome[] = new Array(evictions.length);
  const toPlace: Array<PodToRePlace & { index: number }> = [];
  const groups = new GroupIds();
  const compiled = new Map<string, CompiledPod>();
  for (const { eviction, index } of order) {
    const skip = eviction.pod.owner ? NOT_RE_PLACED[eviction.pod.owner.kind] : undefined;
    if (skip) {
      placements[index] = { placement: null, reason: skip };
      continue;
    }
    const { pod } = eviction;
    const group = groups.of(pod);
    let compiledPod = compiled.get(group);
    if (!compiledPod) {
      compiledPod = compilePod(
        {
          spec: { tolerations: pod.tolerations, nodeSelector: pod.nodeSelector, affinity: pod.affinity },
          requests: pod.requests,
        },
        matchOptions,
      );
      compiled.set(group, compiledPod);
    }
    toPlace.push({ compiled: compiledPod, requests: pod.requests, group, index });
  }
  const placed = rePlacePods(toPlace, nodesAfter(snapshot, evictions, after));
  toPlace.forEach((p, i) => {
    const outcome = placed[i];
    placements[p.index] =
      outcome.node === null ? { placement: null, reason: outcome.message } : { placement: { node: outcome.node } };
  });
  return { placements, ...summarise(evictions, placements) };
}

/** Every node as after the change: `after`'s taints, and the evicted pods' requests taken off their nodes. */
function nodesAfter(
  snapshot: InventorySnapshot,
  evictions: readonly ImpactEviction[],
  after: ReadonlyMap<string, SchedulingNode>,
): SchedulingNode[] {
  const released = new Map<string, Record<string, number>>();
  for (const { pod, node } of evictions) {
    let sum = released.get(node);
    if (!sum) released.set(node, (sum = { pods: 0 }));
    for (const [resource, amount] of Object.entries(pod.requests))
      if (resource !== 'pods') sum[resource] = (sum[resource] ?? 0) + amount;
    sum.pods += 1;
  }
  return snapshot.schedulingNodes().map((node) => {
    const changed = after.get(node.name) ?? node;
    const minus = released.get(node.name);
    if (!minus) return changed;
    const requested = { ...changed.requested };
    for (const [resource, amount] of Object.entries(minus)) requested[resource] = (requested[resource] ?? 0) - amount;
    return { ...changed, requested };
  });
}

function summarise(
  evictions: readonly ImpactEviction[],
  placements: readonly PlacementOutcome[],
): { workloads: WorkloadImpactView[]; stranded: PodRef[] } {
  const workloads = new Map<string, WorkloadImpactView>();
  const stranded: PodRef[] = [];
  evictions.forEach(({ pod }, i) => {
    const key = `${pod.namespace}\u0000${pod.owner?.kind ?? ''}\u0000${pod.owner?.name ?? ''}`;
    let view = workloads.get(key);
    if (!view)
      workloads.set(key, (view = { namespace: pod.namespace, owner: pod.owner, evicted: 0, rePlaced: 0, stranded: 0 }));
    view.evicted++;
    if (placements[i].placement) view.rePlaced++;
    else {
      view.stranded++;
      stranded.push({ namespace: pod.namespace, name: pod.name });
    }
  });
  const list = [...workloads.values()].sort(
    (a, b) =>
      compare(a.namespace, b.namespace) ||
      compare(a.owner?.kind ?? '', b.owner?.kind ?? '') ||
      compare(a.owner?.name ?? '', b.owner?.name ?? ''),
  );
  stranded.sort((a, b) => compare(a.namespace, b.namespace) || compare(a.name, b.name));
  return { workloads: list, stranded };
}

/** Pods of a workload share their spec objects (the snapshot interns them): one group id per combination. */
class GroupIds {
  private readonly ids = new WeakMap<object, number>();
  private next = 1;

  of(pod: StoredPod): string {
    return [pod.tolerations, pod.nodeSelector, pod.affinity ?? NO_AFFINITY, pod.requests]
      .map((o) => this.id(o))
      .join('.');
  }

  private id(value: object): number {
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.next++));
    return id;
  }
}

const NO_AFFINITY = {};

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
