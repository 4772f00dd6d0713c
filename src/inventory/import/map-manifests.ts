/**
 * Decoded documents → taintwise nodes and pods, field by field from the Kubernetes objects
 * (k8s.io/api/core/v1 Node and Pod). Pure: `now` is a parameter.
 *
 * Only structure is checked here (types, required names); whether a taint's effect or a toleration's
 * operator is valid is the service's validators' call (SEMANTICS B.2). An item with a structural
 * problem is left out and reported; the others are imported.
 */
import { describeValue, isObject, Problems, type Obj } from './fields';
import type { ImportError, NodeInput, PodInput } from './inventory-input';

import { flatten, join, itemKind, type FlatItem } from './flatten-documents';
import { mapNode, nameOf } from './map-node';
import { mapPod, podNameOf, type MappedPod } from './map-pod';
import { budgetNameOf, mapBudget, type BudgetInput } from './map-budget';

export interface SkippedKind {
  kind: string;
  count: number;
}

export interface ImportSummary {
  documents: number;
  /** Objects found in the documents (list items and single objects). */
  items: number;
  nodes: number;
  pods: number;
  /** policy/v1 PodDisruptionBudgets. */
  budgets: number;
  podsByPhase: Record<string, number>;
  /** Pods whose phase is neither Pending nor Running: imported, but they hold no resources on a node. */
  inactivePods: number;
  unboundPods: number;
  /** Pods that had podAffinity/podAntiAffinity, which taintwise does not model and dropped. */
  podAffinityDropped: number;
  /** Bound pods without any time to date their binding from; `boundAt` was set to `now`. */
  boundAtDefaultedToNow: number;
  skipped: number;
  errors: number;
}

export interface MapResult {
  nodes: NodeInput[];
  pods: PodInput[];
  budgets: BudgetInput[];
  /** Items of other kinds (Event, Service, ReplicaSet...), counted by kind, in order of first appearance. */
  skipped: SkippedKind[];
  errors: ImportError[];
  summary: ImportSummary;
  /** Human-readable remarks for the import answer. */
  notes: string[];
}

/** What the items of an import add up to while they are read. */
interface Collection {
  errors: ImportError[];
  nodes: NodeInput[];
  pods: PodInput[];
  budgets: BudgetInput[];
  budgetKeys: Map<string, number>;
  skipped: Map<string, number>;
  summary: ImportSummary;
  /** The item index each node name / pod key was first seen at (duplicates are left out). */
  nodeNames: Map<string, number>;
  podKeys: Map<string, number>;
}

/**
 * Documents → nodes, pods, skipped kinds and per-item errors.
 * @param now stands in for the binding time of a bound pod that carries no time at all.
 */
export function mapManifests(documents: readonly unknown[], now: Date): MapResult {
  const c = emptyCollection(documents.length);
  const items = flatten(documents, c.errors);
  c.summary.items = items.length;
  for (const item of items) collectItem(item, now, c);
  return finish(c);
}

function emptyCollection(documents: number): Collection {
  const summary: ImportSummary = {
    documents,
    items: 0,
    nodes: 0,
    pods: 0,
    budgets: 0,
    podsByPhase: {},
    inactivePods: 0,
    unboundPods: 0,
    podAffinityDropped: 0,
    boundAtDefaultedToNow: 0,
    skipped: 0,
    errors: 0,
  };
  return {
    errors: [],
    nodes: [],
    pods: [],
    budgets: [],
    skipped: new Map(),
    summary,
    nodeNames: new Map(),
    podKeys: new Map(),
    budgetKeys: new Map(),
  };
}

/** One item: an error when it is no object or of no known kind, counted when skipped, else mapped. */
function collectItem(item: FlatItem, now: Date, c: Collection): void {
  const base = { index: item.index, document: item.document };
  if (!isObject(item.value)) {
    const message = `expected an object, got ${describeValue(item.value)}`;
    c.errors.push({ ...base, kind: item.listItemKind ?? 'Unknown', field: item.path || undefined, message });
    return;
  }
  const kind = itemKind(item.value, item.listItemKind);
  if (kind === undefined) {
    c.errors.push({
      ...base,
      kind: 'Unknown',
      field: item.path || undefined,
      message:
        "cannot tell what this object is: it has no kind, is not in a NodeList or PodList, and has neither a Node's nor a Pod's fields",
    });
    return;
  }
  if (kind === 'Node') collectNode(item, item.value, c);
  else if (kind === 'Pod') collectPod(item, item.value, now, c);
  else if (kind === 'PodDisruptionBudget') collectBudget(item, item.value, c);
  else c.skipped.set(kind, (c.skipped.get(kind) ?? 0) + 1);
}

function collectNode(item: FlatItem, value: Obj, c: Collection): void {
  const p = new Problems();
  const node = mapNode(value, p);
  const name = node?.name ?? nameOf(value);
  if (!node || !p.empty) return reportProblems(item, 'Node', name, p, c);
  if (isDuplicate(item, 'Node', node.name, c.nodeNames, c)) return;
  c.nodes.push(node);
}

function collectPod(item: FlatItem, value: Obj, now: Date, c: Collection): void {
  const p = new Problems();
  const result = mapPod(value, now, p);
  const name = result ? `${result.pod.namespace}/${result.pod.name}` : podNameOf(value);
  if (!result || !p.empty) return reportProblems(item, 'Pod', name, p, c);
  if (isDuplicate(item, 'Pod', name!, c.podKeys, c)) return;
  c.pods.push(result.pod);
  countPod(c.summary, result);
}

function collectBudget(item: FlatItem, value: Obj, c: Collection): void {
  const p = new Problems();
  const budget = mapBudget(value, p);
  const name = budget ? `${budget.namespace}/${budget.name}` : budgetNameOf(value);
  if (!budget || !p.empty) return reportProblems(item, 'PodDisruptionBudget', name, p, c);
  if (isDuplicate(item, 'PodDisruptionBudget', name!, c.budgetKeys, c)) return;
  c.budgets.push(budget);
}

/** A second object with a name already seen is left out, with an error naming the first. */
function isDuplicate(
  item: FlatItem,
  kind: 'Node' | 'Pod' | 'PodDisruptionBudget',
  name: string,
  seen: Map<string, number>,
  c: Collection,
): boolean {
  const first = seen.get(name);
  if (first === undefined) {
    seen.set(name, item.index);
    return false;
  }
  c.errors.push({
    index: item.index,
    document: item.document,
    kind,
    name,
    field: join(item.path, 'metadata.name') || undefined,
    message: `duplicate ${kind} "${name}" (first seen as item ${first}); this one was left out`,
  });
  return true;
}

function reportProblems(
  item: FlatItem,
  kind: 'Node' | 'Pod' | 'PodDisruptionBudget',
  name: string | undefined,
  p: Problems,
  c: Collection,
): void {
  for (const problem of p.list) {
    c.errors.push({
      index: item.index,
      document: item.document,
      kind,
      ...(name ? { name } : {}),
      field: join(item.path, problem.field) || undefined,
      message: `${problem.field}: ${problem.message}`,
    });
  }
}

function countPod(summary: ImportSummary, result: MappedPod): void {
  const { pod } = result;
  summary.podsByPhase[pod.phase] = (summary.podsByPhase[pod.phase] ?? 0) + 1;
  if (pod.phase !== 'Pending' && pod.phase !== 'Running') summary.inactivePods++;
  if (pod.nodeName === null) summary.unboundPods++;
  if (result.droppedPodAffinity) summary.podAffinityDropped++;
  if (result.boundAtIsNow) summary.boundAtDefaultedToNow++;
}

function finish(c: Collection): MapResult {
  const { nodes, pods, errors, summary } = c;
  summary.nodes = nodes.length;
  summary.pods = pods.length;
  summary.budgets = c.budgets.length;
  const skipped = [...c.skipped].map(([kind, count]) => ({ kind, count }));
  summary.skipped = skipped.reduce((n, s) => n + s.count, 0);
  summary.errors = errors.length;
  return { nodes, pods, budgets: c.budgets, skipped, errors, summary, notes: notesFor(summary, skipped) };
}

function notesFor(summary: ImportSummary, skipped: SkippedKind[]): string[] {
  const notes: string[] = [];
  if (summary.inactivePods > 0) {
    const phases = Object.entries(summary.podsByPhase)
      .filter(([phase]) => phase !== 'Pending' && phase !== 'Running')
      .map(([phase, n]) => `${n} ${phase}`)
      .join(', ');
    notes.push(
      `${summary.inactivePods} pod(s) are neither Pending nor Running (${phases}): imported as they are, but they hold no resources on their node`,
    );
  }
  if (summary.podAffinityDropped > 0) {
    notes.push(
      `${summary.podAffinityDropped} pod(s) had podAffinity/podAntiAffinity, which taintwise does not model: only nodeAffinity was kept`,
    );
  }
  if (summary.boundAtDefaultedToNow > 0) {
    notes.push(
      `${summary.boundAtDefaultedToNow} bound pod(s) carried no PodScheduled time, startTime or creationTimestamp: boundAt is the import time`,
    );
  }
  if (skipped.length > 0) {
    notes.push(
      `skipped ${summary.skipped} object(s) of other kinds: ${skipped.map((s) => `${s.count} ${s.kind}`).join(', ')}`,
    );
  }
  return notes;
}

export { itemKind, mapNode, mapPod };
