/**
 * The re-placement of taint-impact as first written (commit 39daf07), kept as the reference the
 * optimised one (disruption-impact.ts, re-place-pods.ts) is compared with: every placement and every
 * FitError message must be the same. Straightforward on purpose: StoredPods, string group keys, a
 * comparator sort, a full decideFeasibleNodes per ranking. Tests only.
 */
import { compilePod, type CompiledPod } from '../../domain/scheduling/compile-pod';
import { decideFeasibleNodes, FeasibleNodesScratch } from '../../domain/scheduling/feasible-nodes';
import { fitsResources } from '../../domain/scheduling/node-resources-fit';
import { buildNodeTable, chargePodInPlace, nodeIndex, type NodeTable } from '../../domain/scheduling/node-table';
import type { PodToRePlace, RePlacement } from '../../domain/scheduling/re-place-pods';
import type { MatchOptions } from '../../domain/tolerations/tolerates-taint';
import type { SchedulingNode } from '../../domain/types';
import type { StoredPod } from '../../kernel/model/stored-objects';
import type { InventorySnapshot } from '../../kernel/snapshot/inventory-snapshot';
import type { PodRef, WorkloadImpactView } from '../decision-answers';
import type { ImpactEviction, PlacementOutcome } from '../disruption-impact';

const NOT_RE_PLACED: Record<string, string> = {
  DaemonSet:
    'DaemonSet pods are not re-placed: the DaemonSet controller runs one on each eligible node, it does not move this one',
  Node: 'static pods are not re-placed: they belong to the kubelet of their node',
};

/**
 * Re-placement (docs/SEMANTICS.md B.9.5): the evicted pods in the scheduler's order (priority, highest
 * first; then eviction time; then namespace/name), each placed by feasible-nodes' filters and scores on the
 * nodes as they would be after the change — the new taints on `after`'s nodes and without the evicted pods'
 * requests — and charged there before the next one. Answers per eviction (same order as given), per
 * workload, and the stranded pods.
 */
export function referenceRePlacementImpact(
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
  const placed = referenceRePlacePods(toPlace, nodesAfter(snapshot, evictions, after));
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

/**
 * Where the scheduler would put each pod if it were re-created now, one after another (docs/SEMANTICS.md
 * B.9.5): the pod goes to the first node of feasible-nodes' order (filters NodeUnschedulable,
 * TaintToleration, NodeAffinity, NodeResourcesFit; best score, then name), and its requests are
 * charged to that node before the next pod is placed. No node: `null` with the FitError message.
 *
 * `nodes` are the nodes as they would be after the change (their `requested` without the pods being
 * re-placed); they are copied, never changed. Pods of one group share the best node found by
 * {@link decideFeasibleNodes} and ask again once it can no longer hold the next one. (Between two asks,
 * another group filling some other node can move the normalised scores by a point: the best node is then
 * the one of the last ask, not of a fresh one.) A pod is only placed on a node that passes every filter
 * at that moment, and charged there before the next.
 */
function referenceRePlacePods(pods: readonly PodToRePlace[], nodes: readonly SchedulingNode[]): RePlacement[] {
  const table = ownTable(nodes);
  const scratch = new FeasibleNodesScratch();
  const rankings = new Map<string, Ranking>();
  const out: RePlacement[] = [];
  for (const pod of pods) {
    let ranking = rankings.get(pod.group);
    for (;;) {
      if (ranking === undefined) {
        ranking = rank(pod.compiled, table, scratch);
        rankings.set(pod.group, ranking);
      }
      const head = ranking.head;
      if (head === undefined) {
        out.push({ node: null, message: ranking.message });
        break;
      }
      if (fits(table, head, pod.compiled)) {
        chargePodInPlace(table, head, pod.requests);
        out.push({ node: table.names[head] });
        break;
      }
      // The best node filled up: rank again over the nodes as they are now.
      ranking = undefined;
    }
  }
  return out;
}

interface Ranking {
  /** The first feasible node in feasible-nodes' order, when there is one. */
  head: number | undefined;
  /** The FitError message of the decision (used when no node is left). */
  message: string;
}

function rank(pod: CompiledPod, table: NodeTable, scratch: FeasibleNodesScratch): Ranking {
  const decision = decideFeasibleNodes(pod, table, { scratch, limit: 1 });
  const best = decision.nodes[0];
  return { head: best?.feasible ? nodeIndex(table, best.name) : undefined, message: decision.message };
}

function fits(table: NodeTable, index: number, pod: CompiledPod): boolean {
  return fitsResources(pod.requests, table.nodes[index]);
}

/** A table over copies of the nodes, so charging pods changes nothing the caller holds. */
function ownTable(nodes: readonly SchedulingNode[]): NodeTable {
  return buildNodeTable(nodes.map((node) => ({ ...node, requested: { ...node.requested } })));
}
