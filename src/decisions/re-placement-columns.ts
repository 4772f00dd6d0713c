import {
  deadlineMs,
  earliestDeadline,
  noExecuteTolerance,
  type NoExecuteTolerance,
} from '../domain/eviction/decide-eviction';
import { rePlacePods, type PodToRePlace } from '../domain/scheduling/re-place-pods';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { SchedulingNode, Taint, Toleration } from '../domain/types';
import type { InventorySnapshot } from '../kernel/snapshot/inventory-snapshot';
import type { StoredPod } from '../kernel/model/stored-objects';
import type { PodColumns } from '../kernel/snapshot/pod-store';
import type { WorkloadImpactView } from './decision-answers';
import { byWorkload, notRePlacedReason, ReleasedRequests, SpecGroups, type BudgetTally } from './disruption-impact';
import { orderByName } from './name-order';
import { dateMs } from './taint-impact-counts';

/** A target node of the what-if: its bound pods' slots in (namespace, name) order, and its proposed taints. */
export interface TargetNode {
  name: string;
  slots: readonly number[];
  taints: readonly Taint[];
}

/**
 * taint-impact with re-placement (the whole answer, no page) worked out from the snapshot's pod columns:
 * the same decisions, placements, workloads and stranded list as `TaintImpactService.taintImpact` with
 * `rePlacementImpact` (taint-impact-replacement-bytes.spec.ts compares the bytes sent), without what
 * that path builds per evicted pod over a 500-node pool (~14,000): a view with a Date, a decision row,
 * a re-placement view, an eviction object, the answer's view and its texts. Here: numbers in typed
 * arrays per eviction, indexed by the eviction's position in the lists' order (node by node, each
 * node's pods in (namespace, name) order).
 */
export interface ReplacementColumns {
  count: number;
  /** The pod's slot in the columns. */
  slot: Int32Array;
  /** Index of the pod's node in the target nodes given. */
  node: Int32Array;
  /** 0: EvictNow. */
  afterSeconds: Float64Array;
  /** The instant the pod goes, epoch ms (whole, as a Date holds it). */
  evictAtMs: Float64Array;
  tolerating: Array<{ pod: { namespace: string; name: string }; node: string }>;
  /** Per eviction: the node it is re-placed on, or null. */
  placedOn: Array<string | null>;
  /** Per eviction left without a node: why (the FitError message, or why it is not re-placed). */
  reason: Array<string | undefined>;
  /** Eviction indexes in (namespace, name) order (the stranded list's order). */
  byName: Int32Array;
  workloads: WorkloadImpactView[];
}

/**
 * The what-if over the target nodes (A.3, as writeTaintImpactJson decides it), the budgets tallied in the
 * lists' order, then re-placement (docs/SEMANTICS.md B.9.5) as rePlacementImpact does it: the scheduler's
 * order (priority, highest first; eviction time; namespace/name), one compiled pod per spec group shared
 * by its pods, the nodes as after the change.
 */
export function rePlaceFromColumns(
  snapshot: InventorySnapshot,
  nodes: readonly TargetNode[],
  after: ReadonlyMap<string, SchedulingNode>,
  at: Date,
  options: MatchOptions,
  budgets: BudgetTally,
): ReplacementColumns {
  const pods = snapshot.podColumns();
  const decided = decide(pods, nodes, at, options, budgets);
  const { count, slot, node } = decided;
  const byName = nameOrder(pods, slot, count);

  // the scheduler's order: priority (highest first), then eviction time, then the name order
  const priority = new Float64Array(count);
  for (let i = 0; i < count; i++) priority[i] = pods.priorityOf(slot[i]);
  const evictAt = decided.evictAtMs;
  const order = Array.from(byName);
  // Array#sort is stable and `order` starts in name order: equal keys keep it. One priority and one
  // instant (a drain) leave the input sorted, which the sort sees in one pass.
  order.sort((a, b) => priority[b] - priority[a] || evictAt[a] - evictAt[b]);

  const placedOn: Array<string | null> = new Array(count).fill(null);
  const reason: Array<string | undefined> = new Array(count).fill(undefined);
  const toPlace: PodToRePlace[] = [];
  const toPlaceIndex: number[] = [];
  const groups = new SpecGroups(options);
  for (const index of order) {
    const s = slot[index];
    const ownerId = pods.ownerId(s);
    const skip = ownerId < 0 ? undefined : notRePlacedReason(pods.ownerById(ownerId));
    if (skip) {
      reason[index] = skip;
      continue;
    }
    const group = groups.of(pods.tolerationsOf(s), pods.nodeSelectorOf(s), pods.affinityOf(s), pods.requestsOf(s));
    toPlace.push(group.pod);
    toPlaceIndex.push(index);
  }
  const released = new ReleasedRequests();
  for (let i = 0; i < count; i++) released.add(nodes[node[i]].name, pods.requestsOf(slot[i]));
  // the what-if changes taints and resources only: the snapshot's table has the same names and labels
  const placed = rePlacePods(toPlace, released.nodesAfter(snapshot, after), {
    sameNodesAs: snapshot.schedulingTable(),
  });
  for (let k = 0; k < placed.length; k++) {
    const outcome = placed[k];
    if (outcome.node === null) reason[toPlaceIndex[k]] = outcome.message;
    else placedOn[toPlaceIndex[k]] = outcome.node;
  }
  return {
    count,
    slot,
    node,
    afterSeconds: decided.afterSeconds,
    evictAtMs: evictAt,
    tolerating: decided.tolerating,
    placedOn,
    reason,
    byName,
    workloads: workloadsOf(pods, slot, count, placedOn),
  };
}

/** Every bound pod of the targets decided: evictions into typed arrays, tolerating pods as rows. */
function decide(pods: PodColumns, nodes: readonly TargetNode[], at: Date, options: MatchOptions, budgets: BudgetTally) {
  let size = 0;
  for (const node of nodes) size += node.slots.length;
  let slot = new Int32Array(Math.max(size, 16));
  let nodeOf = new Int32Array(slot.length);
  let afterSeconds = new Float64Array(slot.length);
  let evictAtMs = new Float64Array(slot.length);
  const tolerating: ReplacementColumns['tolerating'] = [];
  const atMs = at.getTime();
  const countBudgets = !budgets.empty;
  const run = new BudgetRun(pods, budgets);
  let count = 0;
  // One toleration analysis per distinct (taints, tolerations) pair, as partitionTaintImpact memoises.
  const memo = new Map<readonly Taint[], Map<readonly Toleration[], NoExecuteTolerance>>();
  for (let n = 0; n < nodes.length; n++) {
    const node = nodes[n];
    let byTolerations = memo.get(node.taints);
    if (!byTolerations) memo.set(node.taints, (byTolerations = new Map()));
    for (const s of node.slots) {
      const tolerations = pods.tolerationsOf(s);
      let tolerance = byTolerations.get(tolerations);
      if (!tolerance)
        byTolerations.set(tolerations, (tolerance = noExecuteTolerance(tolerations, node.taints, options)));
      let evictAt = atMs;
      let after = 0;
      if (tolerance.untolerated === undefined) {
        const boundAtMs = pods.boundAtMs(s);
        const index = earliestDeadline(tolerance, boundAtMs);
        if (index < 0) {
          tolerating.push({
            pod: { namespace: pods.namespaceName(pods.namespaceId(s)), name: pods.name(s) },
            node: node.name,
          });
          continue;
        }
        // decideFromTolerance's numbers: the deadline as a Date holds it (whole ms), seconds left rounded up
        const deadline = deadlineMs(tolerance.finite[index], boundAtMs);
        const remainingMs = deadline - atMs;
        if (remainingMs > 0) after = Math.ceil(remainingMs / 1000);
        evictAt = dateMs(deadline);
      }
      if (count === slot.length) {
        const grow = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T) => {
          const b = make(a.length * 2);
          b.set(a);
          return b;
        };
        slot = grow(slot, (k) => new Int32Array(k));
        nodeOf = grow(nodeOf, (k) => new Int32Array(k));
        afterSeconds = grow(afterSeconds, (k) => new Float64Array(k));
        evictAtMs = grow(evictAtMs, (k) => new Float64Array(k));
      }
      slot[count] = s;
      nodeOf[count] = n;
      afterSeconds[count] = after;
      evictAtMs[count] = evictAt;
      count++;
      if (countBudgets) run.add(pods.namespaceId(s), pods.labelsOf(s), pods.phaseOf(s) === 'Running', after === 0);
    }
  }
  run.flush();
  return { count, slot, node: nodeOf, afterSeconds, evictAtMs, tolerating };
}

/**
 * Evictions counted into the budgets a run at a time: a node's pods in name order come workload by workload,
 * with one shared labels object per workload, so a run of equal (namespace, labels) is one `addPods`
 * (the same sums as one `add` per pod).
 */
class BudgetRun {
  private namespaceId = -1;
  private labels: StoredPod['labels'] | undefined;
  private now = 0;
  private total = 0;
  private running = 0;

  constructor(
    private readonly pods: PodColumns,
    private readonly budgets: BudgetTally,
  ) {}

  add(namespaceId: number, labels: StoredPod['labels'], running: boolean, now: boolean): void {
    if (namespaceId !== this.namespaceId || labels !== this.labels) {
      this.flush();
      this.namespaceId = namespaceId;
      this.labels = labels;
    }
    this.total++;
    if (now) this.now++;
    if (running) this.running++;
  }

  flush(): void {
    if (this.total > 0)
      this.budgets.addPods(this.pods.namespaceName(this.namespaceId), this.labels!, this.now, this.total, this.running);
    this.now = this.total = this.running = 0;
  }
}

/** Eviction indexes by (namespace, name): the namespaces ranked once, then orderByName. */
function nameOrder(pods: PodColumns, slot: Int32Array, count: number): Int32Array {
  const rankOf = new Map<number, number>();
  for (let i = 0; i < count; i++) rankOf.set(pods.namespaceId(slot[i]), 0);
  const namespaces = [...rankOf.keys()].sort((a, b) => compare(pods.namespaceName(a), pods.namespaceName(b)));
  namespaces.forEach((id, rank) => rankOf.set(id, rank));
  const group = new Int32Array(count);
  const names: string[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const s = slot[i];
    group[i] = rankOf.get(pods.namespaceId(s))!;
    names[i] = pods.name(s);
  }
  return orderByName(group, namespaces.length, names);
}

/** Per workload (namespace, owner kind, owner name): evicted, re-placed, stranded; in that key order. */
function workloadsOf(
  pods: PodColumns,
  slot: Int32Array,
  count: number,
  placedOn: ReadonlyArray<string | null>,
): WorkloadImpactView[] {
  // namespace id → owner id (pods with equal owners share one; -1: none)
  const views = new Map<number, Map<number, WorkloadImpactView>>();
  const list: WorkloadImpactView[] = [];
  for (let i = 0; i < count; i++) {
    const s = slot[i];
    const namespaceId = pods.namespaceId(s);
    const ownerId = pods.ownerId(s);
    let byOwner = views.get(namespaceId);
    if (!byOwner) views.set(namespaceId, (byOwner = new Map()));
    let view = byOwner.get(ownerId);
    if (!view) {
      const owner = ownerId < 0 ? null : pods.ownerById(ownerId);
      byOwner.set(
        ownerId,
        (view = { namespace: pods.namespaceName(namespaceId), owner, evicted: 0, rePlaced: 0, stranded: 0 }),
      );
      list.push(view);
    }
    view.evicted++;
    if (placedOn[i] !== null) view.rePlaced++;
    else view.stranded++;
  }
  return list.sort(byWorkload);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
