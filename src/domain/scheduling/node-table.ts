import type { ResourceVector, SchedulingNode, Taint } from '../types';
import type { AffinityKeys } from './node-affinity';

/**
 * Candidate nodes as columns, for {@link decideFeasibleNodes} over thousands of nodes: what the filter
 * and score plugins read, worked out once per inventory state instead of once per node per request.
 *
 * - nodes in name order (code-unit order; equal names keep their input order), with `names`;
 * - TaintToleration: a taint-class id per node, an index into `taintClasses` (class 0 is the empty
 *   list; otherwise one class per distinct taint ARRAY, which the snapshot interns), so the verdict is
 *   worked out once per class;
 * - NodeUnschedulable: `unschedulable`;
 * - NodeResourcesFit: `tooManyPods` (one more pod does not fit under `allocatable.pods`) and the free
 *   amount `allocatable − requested` of cpu, memory, ephemeral-storage (other resources on demand,
 *   {@link resourceFree}), computed with the exact expressions of node-resources-fit.ts: a resource
 *   missing from `allocatable` counts 0, a node without allocatable is `Infinity` everywhere;
 * - NodeAffinity: {@link projectLabels} groups the nodes by the values of the label keys a pod reads,
 *   so its matchers run once per group.
 *
 * Immutable once built: a change to the inventory makes a new table ({@link withNodeResources},
 * {@link withRefreshedResources} share what did not change). The label caches inside are filled on
 * demand; they depend on names and labels only, which never change within a table.
 */
export interface NodeTable {
  readonly kind: 'NodeTable';
  /** The nodes, in name order. */
  readonly nodes: readonly SchedulingNode[];
  readonly count: number;
  readonly names: readonly string[];
  readonly taintClassOf: Int32Array;
  /** Distinct taint arrays; class 0 is the empty list. */
  readonly taintClasses: ReadonlyArray<readonly Taint[]>;
  readonly unschedulable: Uint8Array;
  readonly tooManyPods: Uint8Array;
  readonly cpuFree: Float64Array;
  readonly memoryFree: Float64Array;
  readonly ephemeralStorageFree: Float64Array;
  /** Free amounts of the other resources, filled on first use. */
  readonly scalarFree: Map<string, Float64Array>;
  /** Shared by the tables that have the same nodes' names and labels. */
  readonly labelCaches: LabelCaches;
}

/** The nodes grouped by what a pod's affinity reads: `classOf[i]` is node i's group. */
export interface LabelProjection {
  readonly classOf: Int32Array;
  readonly classCount: number;
  /** The first node of each group: every node of the group looks the same through the keys. */
  readonly representatives: readonly SchedulingNode[];
}

/** The values of one label key (or of the name) as small integers: 0 = absent, 1.. = distinct values. */
interface LabelColumn {
  readonly valueOf: Int32Array;
  readonly count: number;
}

interface LabelCaches {
  readonly columns: Map<string, LabelColumn>;
  nameColumn: LabelColumn | undefined;
  readonly projections: Map<string, LabelProjection>;
  nameIndex: Map<string, number> | undefined;
}

/** Few distinct key sets occur across pods; these bound memory when a client sends many. */
const MAX_PROJECTIONS = 64;
const MAX_COLUMNS = 256;

const EMPTY_TAINTS: readonly Taint[] = Object.freeze([]);

/**
 * Builds the table of `nodes` (any order; sorted here by name, equal names in input order).
 * @example buildNodeTable([{ name: 'b', labels: {}, taints: [], unschedulable: false, allocatable: null, requested: {}
 * }]).names // ['b']
 */
export function buildNodeTable(nodes: readonly SchedulingNode[]): NodeTable {
  const sorted = isSortedByName(nodes) ? nodes : sortByName(nodes);
  const count = sorted.length;
  const names: string[] = new Array(count);
  const taintClassOf = new Int32Array(count);
  const taintClasses: Array<readonly Taint[]> = [EMPTY_TAINTS];
  const classOfTaints = new Map<readonly Taint[], number>();
  const unschedulable = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const node = sorted[i];
    names[i] = node.name;
    if (node.unschedulable) unschedulable[i] = 1;
    const taints = node.taints;
    if (taints.length === 0) continue;
    let taintClass = classOfTaints.get(taints);
    if (taintClass === undefined) {
      taintClass = taintClasses.length;
      taintClasses.push(taints);
      classOfTaints.set(taints, taintClass);
    }
    taintClassOf[i] = taintClass;
  }
  const table: NodeTable = {
    kind: 'NodeTable',
    nodes: sorted,
    count,
    names,
    taintClassOf,
    taintClasses,
    unschedulable,
    tooManyPods: new Uint8Array(count),
    cpuFree: new Float64Array(count),
    memoryFree: new Float64Array(count),
    ephemeralStorageFree: new Float64Array(count),
    scalarFree: new Map(),
    labelCaches: { columns: new Map(), nameColumn: undefined, projections: new Map(), nameIndex: undefined },
  };
  for (let i = 0; i < count; i++) writeResources(table, i, sorted[i]);
  return table;
}

/**
 * The free amount of `resource` on every node, as NodeResourcesFit compares it:
 * `(allocatable[resource] ?? 0) − (requested[resource] ?? 0)`, `Infinity` without allocatable.
 */
export function resourceFree(table: NodeTable, resource: string): Float64Array {
  if (resource === 'cpu') return table.cpuFree;
  if (resource === 'memory') return table.memoryFree;
  if (resource === 'ephemeral-storage') return table.ephemeralStorageFree;
  let column = table.scalarFree.get(resource);
  if (column === undefined) {
    column = new Float64Array(table.count);
    for (let i = 0; i < table.count; i++) column[i] = freeOf(table.nodes[i], resource);
    table.scalarFree.set(resource, column);
  }
  return column;
}

/**
 * The same table with node `index` replaced by `node`, which must differ from it in `allocatable`
 * and `requested` only (e.g. a bound pod's own requests taken off its node).
 */
export function withNodeResources(table: NodeTable, index: number, node: SchedulingNode): NodeTable {
  const nodes = table.nodes.slice();
  nodes[index] = node;
  return copyResources(table, nodes, [index]);
}

/**
 * The same table after the `allocatable`/`requested` of the nodes at `indexes` changed in place (the
 * snapshot adds bound pods' requests into the node's vector): only those rows are recomputed.
 */
export function withRefreshedResources(table: NodeTable, indexes: Iterable<number>): NodeTable {
  return copyResources(table, table.nodes, indexes);
}

function copyResources(table: NodeTable, nodes: readonly SchedulingNode[], indexes: Iterable<number>): NodeTable {
  const copy: NodeTable = {
    ...table,
    nodes,
    tooManyPods: table.tooManyPods.slice(),
    cpuFree: table.cpuFree.slice(),
    memoryFree: table.memoryFree.slice(),
    ephemeralStorageFree: table.ephemeralStorageFree.slice(),
    scalarFree: new Map([...table.scalarFree].map(([resource, column]) => [resource, column.slice()])),
  };
  for (const i of indexes) writeResources(copy, i, nodes[i]);
  return copy;
}

/**
 * `table` sharing `other`'s label caches (label columns, label groups, name index) when both have the
 * same nodes in the same order, by name and labels OBJECT (taints, cordon and resources may differ: the
 * caches do not read them); `table` itself otherwise.
 */
export function withLabelCachesOf(table: NodeTable, other: NodeTable): NodeTable {
  if (other.count !== table.count) return table;
  for (let i = 0; i < table.count; i++)
    if (other.names[i] !== table.names[i] || other.nodes[i].labels !== table.nodes[i].labels) return table;
  return { ...table, labelCaches: other.labelCaches };
}

/**
 * Charges a pod's requests to node `index` IN PLACE: its `requested` vector and the resource columns.
 * Only for a table its caller built and owns (re-place-pods.ts builds one per what-if and copies a node
 * before charging it the first time); tables the snapshot shares are immutable.
 */
export function chargePodInPlace(table: NodeTable, index: number, requests: ResourceVector): void {
  const node = table.nodes[index];
  for (const [resource, amount] of Object.entries(requests)) {
    if (resource === 'pods') continue;
    node.requested[resource] = (node.requested[resource] ?? 0) + amount;
  }
  node.requested.pods = (node.requested.pods ?? 0) + 1;
  writeResources(table, index, node);
}

/** Row `i` of the resource columns, with node-resources-fit.ts's expressions. */
function writeResources(table: NodeTable, i: number, node: SchedulingNode): void {
  const allocatable = node.allocatable;
  const requested = node.requested;
  // fitsResources: `allocatable.pods !== undefined && (requested.pods ?? 0) + 1 > allocatable.pods`.
  table.tooManyPods[i] =
    allocatable && allocatable.pods !== undefined && (requested.pods ?? 0) + 1 > allocatable.pods ? 1 : 0;
  (table.cpuFree as Float64Array)[i] = freeOf(node, 'cpu');
  (table.memoryFree as Float64Array)[i] = freeOf(node, 'memory');
  (table.ephemeralStorageFree as Float64Array)[i] = freeOf(node, 'ephemeral-storage');
  for (const [resource, column] of table.scalarFree) column[i] = freeOf(node, resource);
}

function freeOf(node: SchedulingNode, resource: string): number {
  const allocatable = node.allocatable;
  if (!allocatable) return Infinity;
  return (allocatable[resource] ?? 0) - (node.requested[resource] ?? 0);
}

/** The index of the first node called `name`, or undefined. */
export function nodeIndex(table: NodeTable, name: string): number | undefined {
  const caches = table.labelCaches;
  if (caches.nameIndex === undefined) {
    const index = new Map<string, number>();
    for (let i = table.count - 1; i >= 0; i--) index.set(table.names[i], i);
    caches.nameIndex = index;
  }
  return caches.nameIndex.get(name);
}

/**
 * Groups the nodes by the values of `keys.labels` (and by name when `keys.name`): two nodes in one
 * group have, for each key, the same label value or both no string value there, so a matcher that
 * reads only these keys (node-affinity.ts) answers the same for both. Cached per key set.
 * @example projectLabels(table, { labels: ['zone'], name: false }).classCount // distinct zones (+1 if some node has
 * none)
 */
export function projectLabels(table: NodeTable, keys: AffinityKeys): LabelProjection {
  const caches = table.labelCaches;
  const cacheKey = `${keys.name ? 'N' : 'L'}${JSON.stringify(keys.labels)}`;
  const cached = caches.projections.get(cacheKey);
  if (cached !== undefined) {
    caches.projections.delete(cacheKey); // most recently used last
    caches.projections.set(cacheKey, cached);
    return cached;
  }
  const count = table.count;
  let classOf = new Int32Array(count);
  let classCount = count > 0 ? 1 : 0;
  const columns = keys.labels.map((key) => labelColumn(table, key));
  if (keys.name) columns.push(nameColumn(table));
  for (const column of columns) {
    if (column.count === 1) continue; // no node has this key: it splits nothing
    const stride = column.count;
    const next = new Map<number, number>();
    const refined = new Int32Array(count);
    const values = column.valueOf;
    for (let i = 0; i < count; i++) {
      const combined = classOf[i] * stride + values[i];
      let id = next.get(combined);
      if (id === undefined) next.set(combined, (id = next.size));
      refined[i] = id;
    }
    classOf = refined;
    classCount = next.size;
  }
  const representatives: SchedulingNode[] = new Array(classCount);
  let found = 0;
  for (let i = 0; i < count && found < classCount; i++) {
    if (representatives[classOf[i]] === undefined) {
      representatives[classOf[i]] = table.nodes[i];
      found++;
    }
  }
  const projection: LabelProjection = { classOf, classCount, representatives };
  caches.projections.set(cacheKey, projection);
  if (caches.projections.size > MAX_PROJECTIONS) caches.projections.delete(caches.projections.keys().next().value!);
  return projection;
}

function labelColumn(table: NodeTable, key: string): LabelColumn {
  const columns = table.labelCaches.columns;
  let column = columns.get(key);
  if (column !== undefined) return column;
  const ids = new Map<string, number>();
  const valueOf = new Int32Array(table.count);
  for (let i = 0; i < table.count; i++) {
    const value = table.nodes[i].labels[key];
    // Only string values count (what the matchers test); an absent key or an inherited property is 0.
    if (typeof value !== 'string') continue;
    let id = ids.get(value);
    if (id === undefined) ids.set(value, (id = ids.size + 1));
    valueOf[i] = id;
  }
  column = { valueOf, count: ids.size + 1 };
  columns.set(key, column);
  if (columns.size > MAX_COLUMNS) columns.delete(columns.keys().next().value!);
  return column;
}

function nameColumn(table: NodeTable): LabelColumn {
  const caches = table.labelCaches;
  if (caches.nameColumn === undefined) {
    const ids = new Map<string, number>();
    const valueOf = new Int32Array(table.count);
    for (let i = 0; i < table.count; i++) {
      let id = ids.get(table.names[i]);
      if (id === undefined) ids.set(table.names[i], (id = ids.size + 1));
      valueOf[i] = id;
    }
    caches.nameColumn = { valueOf, count: ids.size + 1 };
  }
  return caches.nameColumn;
}

// ---------------------------------------------------------------------------------------------
// Tables that belong to node arrays.

const attached = new WeakMap<readonly SchedulingNode[], () => NodeTable>();

/**
 * Declares that `provide()` returns the table of `nodes` as long as that array is current (the
 * snapshot's sorted node list), so {@link nodeTableOf} does not rebuild it for every decision. The
 * provider may return a newer table (after in-place resource changes of the same nodes); one whose
 * `nodes` is another array is not used.
 */
export function attachNodeTable(nodes: readonly SchedulingNode[], provide: () => NodeTable): void {
  attached.set(nodes, provide);
}

/** The attached table of `nodes`, or a new one. */
export function nodeTableOf(nodes: readonly SchedulingNode[]): NodeTable {
  const table = attached.get(nodes)?.();
  return table !== undefined && table.nodes === nodes ? table : buildNodeTable(nodes);
}

export function isNodeTable(nodes: readonly SchedulingNode[] | NodeTable): nodes is NodeTable {
  return (nodes as NodeTable).kind === 'NodeTable';
}

function isSortedByName(nodes: readonly SchedulingNode[]): boolean {
  for (let i = 1; i < nodes.length; i++) if (nodes[i].name < nodes[i - 1].name) return false;
  return true;
}

/** Code-unit order, as Go compares the ASCII names; equal names keep their input order. */
function sortByName(nodes: readonly SchedulingNode[]): SchedulingNode[] {
  const order = Int32Array.from(nodes.keys()).sort((a, b) => {
    const x = nodes[a].name;
    const y = nodes[b].name;
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  return Array.from(order, (i) => nodes[i]);
}
