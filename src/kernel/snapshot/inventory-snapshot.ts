import { attachNodeTable, type NodeTable } from '../../domain/scheduling/node-table';
import type { ResourceVector, SchedulingNode, Taint } from '../../domain/types';
import { isActivePhase, type StoredNode, type StoredPod } from '../model/stored-objects';
import { packBoundPods, type PackedBoundPods } from './packed-bound-pods';
import { PodStore, type BoundPodView, type PodColumns, type RePlaceablePodView } from './pod-store';
import { BudgetIndex } from './budget-index';
import type { StoredBudget } from '../model/stored-budget';
import { SchedulingView } from './scheduling-view';
import { NodeRecords, type NodeRecord } from './node-records';

/**
 * The in-memory, indexed copy of the inventory that decisions read (ARCHITECTURE.md principle 4, like
 * kube-scheduler's cache): nodes sorted by name, their scheduling view with interned taint lists
 * (identical taint sets share one array, so the filter evaluates each distinct set once per
 * request) and the rest of each node in a compact record (node-records.ts), bound pods per node with
 * the resources they request, and pending pods (in columns: pod-store.ts, so the collector does not
 * trace an object graph per pod); and the same nodes as a scheduling table (`schedulingTable()`,
 * scheduling-view.ts) for feasible-nodes.
 * Updated after this replica's commits and from other replicas' change notifications.
 */
export class InventorySnapshot {
  private readonly nodes = new Map<string, NodeRecord>();
  private readonly records = new NodeRecords();
  private readonly pods = new PodStore();
  /** Slots in `pods` of the pending pods (the bound ones per node: `pods.slotsOnNode`). */
  private readonly pendingPods = new Set<number>();
  /** Per node, its bound pods' slots in (namespace, name) order: built when asked, dropped when they change. */
  private readonly slotsInNameOrder = new Map<string, number[]>();
  /** `boundPodsPacked`'s index, dropped with `slotsInNameOrder`'s entry when the node's pods change. */
  private readonly packedBound = new Map<string, PackedBoundPods>();
  private sorted: SchedulingNode[] | undefined;
  /** `nodesLabelled`'s index, for the `sorted` array it was built from. */
  private labelIndex:
    { nodes: readonly SchedulingNode[]; byKey: Map<string, Map<string, SchedulingNode[]>> } | undefined;
  private version = 0;
  /** Bumped when nodes themselves change (not when only bound pods' requests do). */
  private nodeVersion = 0;
  /** Nodes whose `requested` changed since the scheduling view last looked. */
  private readonly resourceChanges = new Set<string>();
  private readonly view = new SchedulingView();
  /** Disruption budgets, their derived status, and the evicted owned pods they still count. */
  readonly budgets = new BudgetIndex(this.pods, () => this.version);

  /** Replace everything (start-up, or a bulk change such as an import on another replica). */
  load(
    nodes: Iterable<StoredNode>,
    pods: Iterable<StoredPod>,
    budgets: Iterable<StoredBudget> = [],
    evictedOwned: Iterable<EvictedPod> = [],
  ): void {
    this.budgets.load(budgets, evictedOwned);
    this.nodes.clear();
    this.pods.clear();
    this.slotsInNameOrder.clear();
    this.packedBound.clear();
    this.pendingPods.clear();
    this.records.clear();
    for (const n of nodes) this.nodes.set(n.name, this.records.record(n, emptyRequested()));
    for (const p of pods) this.insertPod(p);
    this.touch(true);
  }

  /** Monotonic counter bumped on every change; lets callers cache derived answers. */
  get changeCount(): number {
    return this.version;
  }

  get nodeCount(): number {
    return this.nodes.size;
  }

  get podCount(): number {
    return this.pods.size;
  }

  upsertNode(node: StoredNode): void {
    const previous = this.nodes.get(node.name);
    const requested = previous?.scheduling.requested ?? this.requestedOn(node.name);
    this.nodes.set(node.name, this.records.record(node, requested));
    this.touch(true);
  }

  removeNode(name: string): void {
    if (this.nodes.delete(name)) this.touch(true);
  }

  upsertPod(pod: StoredPod): void {
    this.deletePod(pod.namespace, pod.name);
    this.budgets.podChanged(pod);
    this.insertPod(pod);
    this.touch(false);
  }

  removePod(namespace: string, name: string): void {
    this.budgets.podRemoved(namespace, name);
    this.deletePod(namespace, name);
    // Bumped even for a pod the snapshot did not hold (a finished one): answers cached by changeCount may
    // have read it from the database (GraphQL's answer cache, a feasibleNodes podRef).
    this.touch(false);
  }

  upsertBudget(budget: StoredBudget): void {
    this.budgets.upsert(budget);
    this.touch(false);
  }

  removeBudget(namespace: string, name: string): void {
    if (this.budgets.remove(namespace, name)) this.touch(false);
  }

  /** The stored node, rebuilt from its record (a new object each call; labels and taints shared: read only). */
  node(name: string): StoredNode | undefined {
    const record = this.nodes.get(name);
    return record === undefined ? undefined : this.records.stored(record);
  }

  /** The node's stored taints, `timeAdded` included (shared, frozen), without rebuilding the node. */
  nodeTaints(name: string): readonly Taint[] | undefined {
    return this.nodes.get(name)?.taints;
  }

  /** The node's resourceVersion, without rebuilding the node. */
  nodeResourceVersion(name: string): string | undefined {
    return this.nodes.get(name)?.resourceVersion;
  }

  /** The active pod, materialised from the columns (a new object each call; nested values are shared: read only). */
  pod(namespace: string, name: string): StoredPod | undefined {
    const slot = this.pods.slotOf(namespace, name);
    return slot === undefined ? undefined : this.pods.get(slot);
  }

  /** The active pods of a namespace that this owner (kind and name) controls. */
  podsOwnedBy(namespace: string, kind: string, name: string): StoredPod[] {
    const out: StoredPod[] = [];
    for (const slot of this.pods.slotsIn(namespace)) {
      const owner = this.pods.ownerOf(slot);
      if (owner?.kind === kind && owner.name === name) out.push(this.pods.get(slot));
    }
    return out;
  }

  /** The namespaces that hold a pod, sorted (the Kubernetes API's namespace list). */
  namespaces(): string[] {
    return this.pods.namespaceNames().sort();
  }

  /**
   * Scheduling views of every node, sorted by name (the order decisions break ties in). The same
   * array until a node changes (bound pods' requests are updated inside the node views); its
   * scheduling table is attached to it, so `decideFeasibleNodes(pod, schedulingNodes())` uses the cached table.
   */
  schedulingNodes(): readonly SchedulingNode[] {
    if (!this.sorted) {
      const sorted = [...this.nodes.values()]
        .map((n) => n.scheduling)
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      this.sorted = sorted;
      attachNodeTable(sorted, () => this.schedulingTable());
    }
    return this.sorted;
  }

  /** Every node as a scheduling table (node-table.ts), cached until the snapshot changes. */
  schedulingTable(): NodeTable {
    const nodes = this.schedulingNodes();
    return this.view.current(this.version, this.nodeVersion, nodes, this.resourceChanges);
  }

  /**
   * The nodes whose label `key` is `value`, sorted by name: an index per label key, built over the
   * nodes the first time a key is asked for and dropped when nodes change (as `schedulingNodes`). A
   * selector such as `pool=search` then looks at its pool's nodes, not at every node's labels (5,000
   * label lookups, ~1.5 ms per taint-impact request).
   */
  nodesLabelled(key: string, value: string): readonly SchedulingNode[] {
    const nodes = this.schedulingNodes();
    if (this.labelIndex?.nodes !== nodes) this.labelIndex = { nodes, byKey: new Map() };
    let byValue = this.labelIndex.byKey.get(key);
    if (byValue === undefined) {
      byValue = new Map();
      for (const node of nodes) {
        if (!Object.hasOwn(node.labels, key)) continue;
        const labelled = byValue.get(node.labels[key]);
        if (labelled === undefined) byValue.set(node.labels[key], [node]);
        else labelled.push(node);
      }
      this.labelIndex.byKey.set(key, byValue);
    }
    return byValue.get(value) ?? [];
  }

  schedulingNode(name: string): SchedulingNode | undefined {
    return this.nodes.get(name)?.scheduling;
  }

  /** Active pods bound to a node. */
  podsOn(nodeName: string): readonly StoredPod[] {
    return this.boundSlots(nodeName).map((slot) => this.pods.get(slot));
  }

  /** Active pods bound to a node, as light views (pod-store.ts BoundPodView): no StoredPod built. */
  boundPodViews(nodeName: string): BoundPodView[] {
    return this.boundSlots(nodeName).map((slot) => this.pods.boundView(slot));
  }

  /** Slots of the active pods bound to a node, first bound first (a new array; valid until the next change). */
  boundSlots(nodeName: string): number[] {
    return this.pods.slotsOnNode(nodeName);
  }

  /**
   * `boundSlots` in (namespace, name) order, the order taint-impact lists a node's pods in. An index of
   * the node's pods like the set itself (kept until they change), not an answer: each request still
   * decides every pod; it saves re-sorting ~14,000 names per request over a 500-node pool.
   */
  boundSlotsInNameOrder(nodeName: string): readonly number[] {
    let sorted = this.slotsInNameOrder.get(nodeName);
    if (sorted === undefined) {
      const pods = this.pods;
      sorted = this.boundSlots(nodeName).sort((a, b) => {
        const x = pods.namespaceName(pods.namespaceId(a));
        const y = pods.namespaceName(pods.namespaceId(b));
        if (x !== y) return x < y ? -1 : 1;
        const p = pods.name(a);
        const q = pods.name(b);
        return p < q ? -1 : p > q ? 1 : 0;
      });
      this.slotsInNameOrder.set(nodeName, sorted);
    }
    return sorted;
  }

  /**
   * What taint-impact's count reads of the node's bound pods, packed side by side in (namespace, name)
   * order (packed-bound-pods.ts: an index kept until the node's pods change, like the order itself).
   */
  boundPodsPacked(nodeName: string): PackedBoundPods {
    let packed = this.packedBound.get(nodeName);
    if (packed === undefined) {
      packed = packBoundPods(this.pods, this.boundSlotsInNameOrder(nodeName));
      this.packedBound.set(nodeName, packed);
    }
    return packed;
  }

  /** The pods' fields by slot, without building a view or a StoredPod per pod. */
  podColumns(): PodColumns {
    return this.pods;
  }

  /** The StoredPod behind a view taken since the last change. */
  storedPod(view: BoundPodView): StoredPod {
    return this.pods.get(view.slot);
  }

  /** What re-placement reads of the pod behind a view taken since the last change. */
  rePlaceablePod(view: BoundPodView): RePlaceablePodView {
    return this.pods.rePlaceableView(view.slot);
  }

  /** Pending (unbound, active) pods. */
  pending(): readonly StoredPod[] {
    const out: StoredPod[] = [];
    for (const slot of this.pendingPods) out.push(this.pods.get(slot));
    return out;
  }

  allNodes(): IterableIterator<StoredNode> {
    return mapIterator(this.nodes.values(), (n) => this.records.stored(n));
  }

  /** Only active pods (Pending/Running) are kept: finished and evicted ones take no place anywhere. */
  private insertPod(pod: StoredPod): void {
    if (!isActivePhase(pod.phase)) return;
    const slot = this.pods.add(pod);
    if (pod.nodeName === null) {
      this.pendingPods.add(slot);
      return;
    }
    this.slotsInNameOrder.delete(pod.nodeName);
    this.packedBound.delete(pod.nodeName);
    const node = this.nodes.get(pod.nodeName);
    if (node) {
      addInto(node.scheduling.requested, pod.requests, 1);
      this.resourceChanges.add(pod.nodeName);
    }
  }

  private deletePod(namespace: string, name: string): boolean {
    const slot = this.pods.slotOf(namespace, name);
    if (slot === undefined) return false;
    const nodeName = this.pods.nodeName(slot);
    const requests = this.pods.requestsOf(slot);
    this.pods.remove(slot);
    this.pendingPods.delete(slot);
    if (nodeName !== null) {
      this.slotsInNameOrder.delete(nodeName);
      this.packedBound.delete(nodeName);
      const node = this.nodes.get(nodeName);
      if (node) {
        addInto(node.scheduling.requested, requests, -1);
        this.resourceChanges.add(nodeName);
      }
    }
    return true;
  }

  /** Requests of the pods already bound to a node that the snapshot did not know yet. */
  private requestedOn(nodeName: string): ResourceVector {
    const requested = emptyRequested();
    for (const slot of this.boundSlots(nodeName)) addInto(requested, this.pods.requestsOf(slot), 1);
    return requested;
  }

  /** `nodesChanged`: a node was added, replaced or removed (else only bound pods' requests moved). */
  private touch(nodesChanged: boolean): void {
    if (nodesChanged) {
      this.sorted = undefined;
      this.nodeVersion++;
      this.resourceChanges.clear();
    }
    this.version++;
  }
}

/** A pod taintwise evicted that has an owner: its budgets still expect it (SEMANTICS B.9.2). */
export interface EvictedPod {
  namespace: string;
  name: string;
  labels: Record<string, string>;
}

function emptyRequested(): ResourceVector {
  return { pods: 0 };
}

/** Adds (sign 1) or removes (sign -1) one pod's requests, counting the pod itself under `pods`. */
function addInto(target: ResourceVector, requests: ResourceVector, sign: 1 | -1): void {
  for (const [name, amount] of Object.entries(requests)) {
    if (name === 'pods') continue;
    target[name] = (target[name] ?? 0) + sign * amount;
  }
  target.pods = (target.pods ?? 0) + sign;
}

function* mapIterator<T, U>(it: IterableIterator<T>, f: (t: T) => U): IterableIterator<U> {
  for (const t of it) yield f(t);
}
