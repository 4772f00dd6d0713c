import type { StoredPod } from '../model/stored-objects';
import { flatString } from './flat-json';
import { PodKeys } from './pod-keys';
import { SlotLists } from './slot-lists';

/**
 * A bound pod as the NoExecute rule and the taint-impact answers read it: `boundAt` is the pod's
 * boundAt, or its createdAt when it has none (the clock A.3 counts from). Values shared: read only;
 * `slot` is valid until the snapshot next changes (InventorySnapshot.storedPod).
 */
export interface BoundPodView {
  slot: number;
  namespace: string;
  name: string;
  labels: StoredPod['labels'];
  phase: StoredPod['phase'];
  owner: StoredPod['owner'];
  tolerations: StoredPod['tolerations'];
  boundAt: Date;
}

/**
 * A pod as re-placement reads it (taint-impact with `replacement: true`): its order (priority,
 * namespace, name), whether it is re-placed at all (owner) and its scheduling spec. Values shared: read
 * only. No Dates, uid or resourceVersion: ~14,000 of these per request on a pool.
 */
export interface RePlaceablePodView {
  namespace: string;
  name: string;
  priority: StoredPod['priority'];
  owner: StoredPod['owner'];
  tolerations: StoredPod['tolerations'];
  nodeSelector: StoredPod['nodeSelector'];
  affinity: StoredPod['affinity'];
  requests: StoredPod['requests'];
}

/**
 * A pod's fields by slot, read from the columns without building anything per pod: what counting a
 * taint what-if needs (taint-impact's summary reads ~15,000 bound pods per request). Ids are stable
 * for the process's life; slots until the snapshot next changes. Returned values are shared: read only.
 */
export interface PodColumns {
  namespaceId(slot: number): number;
  namespaceName(id: number): string;
  name(slot: number): string;
  /** -1: no owner. Pods with equal owners (kind and name) share an id, whatever their namespace. */
  ownerId(slot: number): number;
  ownerById(id: number): NonNullable<StoredPod['owner']>;
  tolerationsOf(slot: number): StoredPod['tolerations'];
  /** The clock A.3 counts from, epoch ms: boundAt, or createdAt when the pod has none (as BoundPodView). */
  boundAtMs(slot: number): number;
  labelsOf(slot: number): StoredPod['labels'];
  phaseOf(slot: number): string;
  /** What re-placement reads (RePlaceablePodView's fields, one at a time). */
  priorityOf(slot: number): number;
  nodeSelectorOf(slot: number): StoredPod['nodeSelector'];
  affinityOf(slot: number): StoredPod['affinity'];
  requestsOf(slot: number): StoredPod['requests'];
}

/**
 * The snapshot's active pods in columns instead of one object graph per pod (issue 16: a full
 * collection traced ~15 objects per pod — the record, its strings, three Dates, the owner — 2 million
 * at 150,000 pods). Per pod there are now bytes (name and uid, pod-keys.ts) and numbers in typed arrays:
 * namespaces, node names, owners and phases as ids into small tables; times as epoch milliseconds;
 * labels, tolerations, nodeSelector, affinity, resources and requests as ids into tables of distinct values
 * (a workload's pods share one entry). `get` materialises a StoredPod on demand (young garbage).
 *
 * Distinct values are interned by identity first (the snapshot loader already shares parsed JSON),
 * then by content, so a pod written again with an equal spec reuses its entry. Entries are never
 * dropped: the tables grow with the distinct specs the process has seen, not with the pods.
 */
export class PodStore implements PodColumns {
  private capacity = 0;
  private node = new Int32Array(0);
  private phase = new Uint8Array(0);
  private boundAt = new Float64Array(0);
  private createdAt = new Float64Array(0);
  private updatedAt = new Float64Array(0);
  private priority = new Float64Array(0);
  private hostNetwork = new Uint8Array(0);
  private version = new Float64Array(0);
  private owner = new Int32Array(0);
  private tolerations = new Int32Array(0);
  private nodeSelector = new Int32Array(0);
  private affinity = new Int32Array(0);
  private resources = new Int32Array(0);
  private requests = new Int32Array(0);
  private labels = new Int32Array(0);
  /** Names and uids, and the (namespace, name) → slot index. */
  private readonly keys = new PodKeys();
  /** Slots below this have been used; the next new slot when none is free. */
  private top = 0;
  /** resourceVersions that are not plain integers (never from the database; kept exact anyway). */
  private readonly oddVersions = new Map<number, string>();
  private readonly free: number[] = [];
  private used = 0;
  /** The bound pods' slots per node id (`nodes`), first bound first. */
  private readonly slotsByNode = new SlotLists();

  private readonly namespaces = new Names();
  private readonly nodes = new Names();
  private readonly phases = new Names();
  private readonly owners = new Values();
  private readonly values = new Values();
  /**
   * Affinities as their JSON text: a DaemonSet's pod names its node in `matchFields`, so there is one distinct
   * affinity per node and DaemonSet (~5,000 object graphs, ~50,000 objects at 5,000 nodes, for values read only
   * when one such pod is materialised or re-placed).
   */
  private readonly affinities = new Values({ keptAsText: true });

  get size(): number {
    return this.used;
  }

  clear(): void {
    this.keys.clear();
    this.free.length = 0;
    this.top = 0;
    this.oddVersions.clear();
    this.slotsByNode.clear();
    this.used = 0;
    this.capacity = 0;
    this.grow(0);
  }

  /** Namespaces that hold at least one stored pod (unsorted). */
  namespaceNames(): string[] {
    return this.keys.namespaceIds().map((id) => this.namespaces.name(id));
  }

  slotOf(namespace: string, name: string): number | undefined {
    const id = this.namespaces.find(namespace);
    return id === undefined ? undefined : this.keys.find(id, name);
  }

  /** Stores the pod (which must not be stored already) and returns its slot. */
  add(pod: StoredPod): number {
    const slot = this.free.pop() ?? this.top++;
    if (slot >= this.capacity) this.grow(Math.max(1024, this.capacity * 2));
    const nsId = this.namespaces.id(pod.namespace);
    this.node[slot] = pod.nodeName === null ? -1 : this.nodes.id(pod.nodeName);
    this.phase[slot] = this.phases.id(pod.phase);
    this.boundAt[slot] = pod.boundAt === null ? NaN : pod.boundAt.getTime();
    this.createdAt[slot] = pod.createdAt.getTime();
    this.updatedAt[slot] = pod.updatedAt.getTime();
    this.priority[slot] = pod.priority;
    this.hostNetwork[slot] = pod.hostNetwork ? 1 : 0;
    const rv = Number(pod.resourceVersion);
    if (Number.isSafeInteger(rv) && String(rv) === pod.resourceVersion) this.version[slot] = rv;
    else {
      this.version[slot] = NaN;
      this.oddVersions.set(slot, pod.resourceVersion);
    }
    this.owner[slot] = pod.owner === null ? -1 : this.owners.id(pod.owner, `${pod.owner.kind}\u0000${pod.owner.name}`);
    this.tolerations[slot] = this.values.id(pod.tolerations);
    this.nodeSelector[slot] = this.values.id(pod.nodeSelector);
    this.affinity[slot] = pod.affinity === null ? -1 : this.affinities.id(pod.affinity);
    this.resources[slot] = this.values.id(pod.resources);
    this.requests[slot] = this.values.id(pod.requests);
    this.labels[slot] = this.values.id(pod.labels);
    this.keys.set(slot, nsId, pod.name, pod.uid);
    if (this.node[slot] >= 0) this.slotsByNode.add(this.node[slot], slot);
    this.used++;
    return slot;
  }

  remove(slot: number): void {
    if (!this.keys.has(slot)) return;
    this.keys.remove(slot);
    this.slotsByNode.remove(slot);
    this.oddVersions.delete(slot);
    this.free.push(slot);
    this.used--;
  }

  /** The node a stored pod is bound to (null: pending). */
  nodeName(slot: number): string | null {
    const id = this.node[slot];
    return id < 0 ? null : this.nodes.name(id);
  }

  /** Slots of the stored pods bound to a node, first bound first (a new array). */
  slotsOnNode(nodeName: string): number[] {
    const id = this.nodes.find(nodeName);
    return id === undefined ? [] : this.slotsByNode.slots(id);
  }

  /** The pod's requests vector (shared with the pods of equal requests: read only). */
  requestsOf(slot: number): StoredPod['requests'] {
    return this.values.value(this.requests[slot]) as StoredPod['requests'];
  }

  /** The pod's labels (shared with the pods of equal labels: read only). */
  labelsOf(slot: number): StoredPod['labels'] {
    return this.values.value(this.labels[slot]) as StoredPod['labels'];
  }

  /** The pod's namespace and phase without materialising it. */
  namespaceOf(slot: number): string {
    return this.namespaces.name(this.namespaceId(slot));
  }

  phaseOf(slot: number): string {
    return this.phases.name(this.phase[slot]);
  }

  /** The pod's owner (shared: read only), or null. */
  ownerOf(slot: number): StoredPod['owner'] {
    const owner = this.owner[slot];
    return owner < 0 ? null : (this.owners.value(owner) as StoredPod['owner']);
  }

  namespaceId(slot: number): number {
    return this.keys.namespaceId(slot);
  }

  namespaceName(id: number): string {
    return this.namespaces.name(id);
  }

  name(slot: number): string {
    return this.keys.name(slot);
  }

  ownerId(slot: number): number {
    return this.owner[slot];
  }

  ownerById(id: number): NonNullable<StoredPod['owner']> {
    return this.owners.value(id) as NonNullable<StoredPod['owner']>;
  }

  tolerationsOf(slot: number): StoredPod['tolerations'] {
    return this.values.value(this.tolerations[slot]) as StoredPod['tolerations'];
  }

  priorityOf(slot: number): number {
    return this.priority[slot];
  }

  nodeSelectorOf(slot: number): StoredPod['nodeSelector'] {
    return this.values.value(this.nodeSelector[slot]) as StoredPod['nodeSelector'];
  }

  affinityOf(slot: number): StoredPod['affinity'] {
    const affinity = this.affinity[slot];
    return affinity < 0 ? null : (this.affinities.value(affinity) as StoredPod['affinity']);
  }

  boundAtMs(slot: number): number {
    const boundAt = this.boundAt[slot];
    return Number.isNaN(boundAt) ? this.createdAt[slot] : boundAt;
  }

  /** Slots of the stored pods of one namespace. */
  slotsIn(namespace: string): Iterable<number> {
    const id = this.namespaces.find(namespace);
    return id === undefined ? [] : this.keys.slotsIn(id);
  }

  /**
   * What a taint what-if reads of a bound pod (BoundPodView), without materialising it: the shared
   * values and one Date, where `get` builds a 19-field object with three Dates (taint-impact over a
   * 500-node pool reads ~15,000 pods per request).
   */
  boundView(slot: number): BoundPodView {
    const boundAt = this.boundAt[slot];
    const owner = this.owner[slot];
    return {
      slot,
      namespace: this.namespaceOf(slot),
      name: this.keys.name(slot),
      labels: this.labelsOf(slot),
      phase: this.phases.name(this.phase[slot]) as StoredPod['phase'],
      owner: owner < 0 ? null : (this.owners.value(owner) as StoredPod['owner']),
      tolerations: this.values.value(this.tolerations[slot]) as StoredPod['tolerations'],
      boundAt: new Date(Number.isNaN(boundAt) ? this.createdAt[slot] : boundAt),
    };
  }

  /** What re-placement reads of a pod (RePlaceablePodView), without the rest of a StoredPod. */
  rePlaceableView(slot: number): RePlaceablePodView {
    const owner = this.owner[slot];
    return {
      namespace: this.namespaceOf(slot),
      name: this.keys.name(slot),
      priority: this.priority[slot],
      owner: owner < 0 ? null : (this.owners.value(owner) as StoredPod['owner']),
      tolerations: this.values.value(this.tolerations[slot]) as StoredPod['tolerations'],
      nodeSelector: this.values.value(this.nodeSelector[slot]) as StoredPod['nodeSelector'],
      affinity: this.affinityOf(slot),
      requests: this.requestsOf(slot),
    };
  }

  /** A StoredPod with the stored values. Nested objects are shared between pods: read only. */
  get(slot: number): StoredPod {
    const boundAt = this.boundAt[slot];
    const owner = this.owner[slot];
    return {
      namespace: this.namespaceOf(slot),
      name: this.keys.name(slot),
      uid: this.keys.uid(slot),
      labels: this.labelsOf(slot),
      nodeName: this.nodeName(slot),
      phase: this.phases.name(this.phase[slot]),
      boundAt: Number.isNaN(boundAt) ? null : new Date(boundAt),
      tolerations: this.values.value(this.tolerations[slot]) as StoredPod['tolerations'],
      nodeSelector: this.values.value(this.nodeSelector[slot]) as StoredPod['nodeSelector'],
      affinity: this.affinityOf(slot),
      priority: this.priority[slot],
      owner: owner < 0 ? null : (this.owners.value(owner) as StoredPod['owner']),
      resources: this.values.value(this.resources[slot]) as StoredPod['resources'],
      requests: this.requestsOf(slot),
      hostNetwork: this.hostNetwork[slot] === 1,
      resourceVersion: Number.isNaN(this.version[slot]) ? this.oddVersions.get(slot)! : String(this.version[slot]),
      createdAt: new Date(this.createdAt[slot]),
      updatedAt: new Date(this.updatedAt[slot]),
    };
  }

  private grow(capacity: number): void {
    const copy = <T extends Int32Array | Uint8Array | Float64Array>(from: T, make: (n: number) => T): T => {
      const to = make(capacity);
      to.set(from.subarray(0, Math.min(from.length, capacity)));
      return to;
    };
    const i32 = (n: number) => new Int32Array(n);
    const u8 = (n: number) => new Uint8Array(n);
    const f64 = (n: number) => new Float64Array(n);
    this.node = copy(this.node, i32);
    this.phase = copy(this.phase, u8);
    this.boundAt = copy(this.boundAt, f64);
    this.createdAt = copy(this.createdAt, f64);
    this.updatedAt = copy(this.updatedAt, f64);
    this.priority = copy(this.priority, f64);
    this.hostNetwork = copy(this.hostNetwork, u8);
    this.version = copy(this.version, f64);
    this.owner = copy(this.owner, i32);
    this.tolerations = copy(this.tolerations, i32);
    this.nodeSelector = copy(this.nodeSelector, i32);
    this.affinity = copy(this.affinity, i32);
    this.resources = copy(this.resources, i32);
    this.requests = copy(this.requests, i32);
    this.labels = copy(this.labels, i32);
    this.keys.grow(capacity);
    this.capacity = capacity;
  }
}

/** Strings ↔ small ids. */
class Names {
  private readonly ids = new Map<string, number>();
  private readonly names: string[] = [];

  id(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.ids.set(name, id);
    }
    return id;
  }

  find(name: string): number | undefined {
    return this.ids.get(name);
  }

  name(id: number): string {
    return this.names[id];
  }
}

/** Revived texts a `keptAsText` table keeps, most recently read last: the values of a few workloads read in turn. */
const REVIVED_TEXTS = 256;

/**
 * Distinct values ↔ small ids: by identity, then by content (JSON text, or the key given). Content keys are
 * kept flat (JSON.stringify answers a rope for a long text: a tree of strings every collection traces).
 * `keptAsText`: the table keeps each value as its JSON text only and revives it when read (the same object
 * while it is among the {@link REVIVED_TEXTS} last read): for values that are many and seldom read.
 */
class Values {
  private readonly byIdentity = new WeakMap<object, number>();
  private readonly byContent = new Map<string, number>();
  private readonly values: unknown[] = [];
  private readonly keptAsText: boolean;
  private readonly revived = new Map<number, unknown>();

  constructor(options: { keptAsText?: boolean } = {}) {
    this.keptAsText = options.keptAsText ?? false;
  }

  id(value: object, contentKey?: string): number {
    let id = this.byIdentity.get(value);
    if (id !== undefined) return id;
    const key = contentKey ?? JSON.stringify(value);
    id = this.byContent.get(key);
    if (id === undefined) {
      id = this.values.length;
      const kept = flatString(key);
      this.values.push(this.keptAsText ? kept : value);
      this.byContent.set(kept, id);
    }
    this.byIdentity.set(value, id);
    return id;
  }

  value(id: number): unknown {
    if (!this.keptAsText) return this.values[id];
    let value = this.revived.get(id);
    if (value !== undefined) this.revived.delete(id);
    else {
      value = JSON.parse(this.values[id] as string);
      if (this.revived.size >= REVIVED_TEXTS) this.revived.delete(this.revived.keys().next().value!);
    }
    this.revived.set(id, value);
    return value;
  }
}
