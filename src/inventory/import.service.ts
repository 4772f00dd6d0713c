import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../kernel/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import type { FieldError, Taint } from '../domain/types';
import { formatFieldError } from '../domain/validation/field-errors';
import {
  validateNamespaceName,
  validateNodeObject,
  validateLabels,
  validateObjectName,
  validatePodSpecObject,
} from '../domain/validation/validate-objects';
import { EvictionPlanner, type EvictionCounts } from '../evictions/eviction-planner.service';
import { validateDisruptionBudget } from '../domain/disruption/validate-budget';
import { BudgetRepository } from '../kernel/persistence/repositories/budget.repository';
import type { BudgetInput } from './import/map-budget';
import { chunks } from '../kernel/persistence/repositories/sql-batches';
import type { Actor, ChangeSet } from '../kernel/persistence/change-set';
import type { Db } from '../kernel/persistence/prisma-types';
import {
  parseImportBody,
  type ImportError,
  type ImportSummary,
  type NodeInput,
  type PodInput,
  type SkippedKind,
} from './import';
import type { ManifestFormat } from './import/decode';
import { mapManifests } from './import/map-manifests';
import { isActivePhase, podKey, type StoredNode } from '../kernel/model/stored-objects';
import { NodeRepository, type NodeWrite } from '../kernel/persistence/repositories/node.repository';
import { PodRepository, type ExistingPodRow, type PodWrite } from '../kernel/persistence/repositories/pod.repository';
import { requestsVector } from '../kernel/model/pod-requests-vector';
import { stampTaints } from './taint-stamping';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';

/** One item left out of an import. */
export type ImportItemError = Omit<ImportError, 'index'> & { index?: number };

/** The answer of `POST /v1/import` (and the GraphQL `importManifests`). */
export interface ImportResult {
  /** How the body was read: `json`, `json-stream` (`kubectl cluster-info dump`) or `yaml`. */
  format: ManifestFormat;
  nodes: { created: number; updated: number };
  pods: { created: number; updated: number };
  /** policy/v1 PodDisruptionBudgets (SEMANTICS B.9.1 validates them). */
  budgets: { created: number; updated: number };
  /** Objects of other kinds, counted by kind (Event, Service, ReplicaSet...). */
  skipped: SkippedKind[];
  /**
   * Items left out (structural problems, Kubernetes validation, uid clashes); the rest was imported.
   * Structural problems carry the item's `index`/`document` and its path in the manifest
   * (`items[3].spec.taints[0].effect`); validation problems name the item and the field in
   * taintwise's JSON (`taints[0].effect`), with the message as Kubernetes words it.
   */
  errors: ImportItemError[];
  /** Evictions the imported state implies (SEMANTICS A.3): pods on nodes with NoExecute taints they do not tolerate. */
  evictions: EvictionCounts;
  notes: string[];
  summary: ImportSummary & { invalid: number; podsOnUnknownNodes: number; durationMs: number };
}

/**
 * One batch the mirror (src/mirror) applies: objects as the cluster sends them (`kind` set: Node, Pod,
 * PodDisruptionBudget) and the keys the cluster deleted.
 */
export interface ClusterBatch {
  objects: readonly unknown[];
  deleted: {
    nodes: readonly string[];
    pods: ReadonlyArray<{ namespace: string; name: string }>;
    budgets: ReadonlyArray<{ namespace: string; name: string }>;
  };
  /** An event to record with the batch (SyncStarted, SyncResumed...), besides the batch's own counts. */
  event?: { type: string; data: Record<string, unknown> };
}

export interface ClusterBatchResult {
  nodes: { created: number; updated: number; deleted: number };
  pods: { created: number; updated: number; deleted: number };
  budgets: { created: number; updated: number; deleted: number };
  errors: ImportItemError[];
  evictions: EvictionCounts;
}

/** Past this many objects in one batch, other replicas reload their snapshot instead of object by object. */
const CLUSTER_BULK = 500;

/** Nodes, then pods, are written in one transaction; this bounds it for the biggest imports. */
/** One import's transaction: where it writes, its clock reading, and the per-item errors it collects. */
interface ImportRun {
  tx: Db;
  changes: ChangeSet;
  now: Date;
  errors: ImportItemError[];
  /** The mirror's writes: what is written is the cluster's, marked so BEFORE evictions are planned (forecasts). */
  fromCluster?: boolean;
}

type ParsedImport = Extract<ReturnType<typeof parseImportBody>, { ok: true }>;
type StoredNodeWrite = Awaited<ReturnType<NodeRepository['upsertNodes']>>[number];
type StoredPodWrite = Awaited<ReturnType<PodRepository['upsertPods']>>[number];

/** What the writes left for the eviction step. */
interface ImportWrites {
  storedNodes: StoredNodeWrite[];
  storedPods: StoredPodWrite[];
  existing: Map<string, ExistingPodRow>;
  previousTaints: Map<string, Taint[]>;
  targetNames: Set<string>;
  knownNodes: Set<string>;
}

interface ImportOutcome {
  counts: {
    nodes: { created: number; updated: number };
    pods: { created: number; updated: number };
    budgets: { created: number; updated: number };
  };
  podsOnUnknownNodes: PodWrite[];
}

const IMPORT_TIMEOUT_MS = 10 * 60_000;
/** Nodes per eviction-planner call (their bound pods are loaded together). */
const REPLAN_NODES = 200;

/**
 * `POST /v1/import`: a `kubectl get nodes,pods -A -o json|yaml` List (or NodeList, PodList, a single
 * object, a `kubectl cluster-info dump` stream) upserted as the cluster has it, in one transaction:
 *
 * - every item is checked with the same Kubernetes validators as PUT; an invalid item is reported in
 *   `errors` and left out, the others are imported;
 * - no admission defaults: the pods were admitted by the cluster already (SEMANTICS A.6 is for
 *   PUT only); the toleration update rule does not apply either (the cluster enforced it);
 * - taints keep the `timeAdded` the dump carries; a taint without one keeps the stored time when the
 *   node already had it (same key, effect and value), else it is stamped with the import time;
 * - a pod bound to a node that is neither in the import nor stored is imported bound anyway (as
 *   `spec.nodeName` allows in Kubernetes) and counted in `summary.podsOnUnknownNodes` with a note:
 *   importing a PodList before its NodeList gives the same state as the other way round;
 * - a replaced pod keeps its stored uid; a new pod whose uid another stored pod holds is an error;
 * - nothing is deleted: objects the import does not name stay as they are;
 * - then the evictions of pods on nodes with NoExecute taints are re-decided (a pod that does not
 *   tolerate one is evicted at once, as the taint manager would);
 * - one `ImportApplied` event with the counts, and other replicas reload their snapshot (bulk change).
 */
@Injectable()
export class ImportService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly nodes: NodeRepository,
    private readonly pods: PodRepository,
    private readonly budgets: BudgetRepository,
    private readonly planner: EvictionPlanner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async import(body: unknown, contentType: string | undefined, actor: Actor): Promise<ImportResult> {
    const started = performance.now();
    if (typeof body !== 'string' && !Buffer.isBuffer(body) && !(body instanceof Uint8Array)) {
      throw new AppError(
        'BadRequest',
        'the import body is empty: send a Kubernetes List, NodeList or PodList as JSON or YAML',
        [{ field: '(body)', type: 'Required value', message: 'Required value' }],
      );
    }
    const parsed = parseImportBody(body, contentType, this.uow.now());
    if (!parsed.ok) throw decodeError(parsed.errors, parsed.notes);

    const errors: ImportItemError[] = [...parsed.errors];
    const notes = [...parsed.notes];
    const { result, changes } = await this.uow.run(
      actor,
      async (tx, changes) => {
        const run: ImportRun = { tx, changes, now: this.uow.now(), errors };
        changes.bulk = true;
        const outcome = await this.write(run, parsed);
        changes.event({
          type: 'ImportApplied',
          subjectKind: 'Import',
          subjectName: actor.requestId ?? 'import',
          data: {
            format: parsed.format,
            ...outcome.counts,
            skipped: parsed.summary.skipped,
            errors: errors.length,
            evictions: { ...changes.evictions },
          },
        });
        return outcome;
      },
      { timeoutMs: IMPORT_TIMEOUT_MS },
    );

    if (result.podsOnUnknownNodes.length > 0) {
      const names = [...new Set(result.podsOnUnknownNodes.map((p) => p.nodeName))];
      notes.push(
        `${result.podsOnUnknownNodes.length} pod(s) are bound to node(s) taintwise does not know (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''}): imported bound anyway, as spec.nodeName allows; import the nodes to let decisions count them`,
      );
    }
    const invalid = errors.length - parsed.errors.length;
    if (invalid > 0)
      notes.push(`${invalid} problem(s) with Kubernetes validation or uids: those items were left out (see errors)`);
    return {
      format: parsed.format,
      nodes: result.counts.nodes,
      pods: result.counts.pods,
      budgets: result.counts.budgets,
      skipped: parsed.skipped,
      errors,
      evictions: { ...changes.evictions },
      notes,
      summary: {
        ...parsed.summary,
        errors: errors.length,
        invalid,
        podsOnUnknownNodes: result.podsOnUnknownNodes.length,
        durationMs: Math.round(performance.now() - started),
      },
    };
  }

  /**
   * The mirror's writes (src/mirror): the cluster's objects through the very path of `POST /v1/import` (same
   * mapping, validation, taint stamping and eviction planning), plus the deletions the cluster made, in ONE
   * transaction marked as the cluster's (`fromCluster`: it may write cluster-owned objects). What it writes is
   * marked cluster-owned. A deleted pod's pending forecast turns Executed (the cluster evicted it); a deleted
   * node's pods keep their binding (the cluster's pod garbage collector deletes them, and the watch says so).
   */
  async applyFromCluster(batch: ClusterBatch, actor: Actor): Promise<ClusterBatchResult> {
    const now = this.uow.now();
    const mapped = mapManifests([{ kind: 'List', apiVersion: 'v1', items: batch.objects }], now);
    const parsed: ParsedImport = { ok: true, format: 'json', ...mapped };
    const errors: ImportItemError[] = [...mapped.errors];
    const size =
      batch.objects.length + batch.deleted.nodes.length + batch.deleted.pods.length + batch.deleted.budgets.length;
    const { result, changes } = await this.uow.run(
      actor,
      async (tx, changes) => {
        changes.fromCluster = true;
        changes.bulk = size > CLUSTER_BULK;
        const run: ImportRun = { tx, changes, now: this.uow.now(), errors, fromCluster: true };
        const deleted = await this.deleteFromCluster(run, batch.deleted);
        const outcome = await this.write(run, parsed);
        const counts = {
          nodes: { ...outcome.counts.nodes, deleted: deleted.nodes },
          pods: { ...outcome.counts.pods, deleted: deleted.pods },
          budgets: { ...outcome.counts.budgets, deleted: deleted.budgets },
        };
        if (batch.event)
          changes.event({
            type: batch.event.type,
            subjectKind: 'Import',
            subjectName: 'cluster',
            data: { ...batch.event.data, ...counts, errors: errors.length },
          });
        else if (size > 0)
          changes.event({
            type: 'SyncApplied',
            subjectKind: 'Import',
            subjectName: 'cluster',
            data: { ...counts, errors: errors.length, evictions: { ...changes.evictions } },
          });
        return counts;
      },
      { timeoutMs: IMPORT_TIMEOUT_MS },
    );
    return { ...result, errors, evictions: { ...changes.evictions } };
  }

  /** The cluster's deletions, in the run's transaction (see `applyFromCluster`). */
  private async deleteFromCluster(
    run: ImportRun,
    deleted: ClusterBatch['deleted'],
  ): Promise<{ nodes: number; pods: number; budgets: number }> {
    const { tx, changes, now } = run;
    const pods = deleted.pods.length ? await this.pods.findByKeys(tx, deleted.pods) : [];
    const nodeNames = [...deleted.nodes].sort();
    const lockNames = new Set<string>(nodeNames);
    for (const p of pods) if (p.nodeName !== null) lockNames.add(p.nodeName);
    for (const chunk of chunks([...lockNames].sort(), 5000)) await this.nodes.lock(tx, chunk);
    for (const chunk of chunks(pods, 5000))
      await this.planner.cancelForPods(tx, chunk, 'pod deleted in the cluster', now, changes);
    await this.pods.deleteByUids(
      tx,
      pods.map((p) => p.uid),
    );
    for (const p of pods) changes.podDeleted(p.namespace, p.name);
    let nodeCount = 0;
    for (const chunk of chunks(nodeNames, REPLAN_NODES)) {
      // the pods stay bound (the cluster deletes them next); their evictions end: no taint evicts from a gone node
      const bound = await this.pods.findActiveOnNodes(tx, chunk);
      for (const name of chunk)
        if (await this.nodes.delete(tx, name)) {
          nodeCount += 1;
          changes.nodeDeleted(name);
        }
      await this.planner.replan(tx, bound, new Map(), now, changes);
    }
    let budgetCount = 0;
    for (const b of deleted.budgets)
      if (await this.budgets.delete(tx, b.namespace, b.name)) {
        budgetCount += 1;
        changes.budgetDeleted(b.namespace, b.name);
      }
    return { nodes: nodeCount, pods: pods.length, budgets: budgetCount };
  }

  /** Writes what the import holds in the run's transaction: nodes, pods, then the evictions they imply. */
  private async write(run: ImportRun, parsed: ParsedImport): Promise<ImportOutcome> {
    const nodeWrites = this.validNodes(parsed.nodes, run.errors);
    const importedNodeNames = new Set(nodeWrites.map((n) => n.name));
    // the stored state of the pods named: for the ratchet, the uid and moved pods
    const existing = await this.pods.existingPods(run.tx, parsed.pods);
    const pods = await this.withoutUidClashes(
      run,
      this.validPods(parsed.pods, existing, run.errors, run.now),
      existing,
    );
    const targetNames = new Set(importedNodeNames);
    for (const p of pods) if (p.nodeName !== null) targetNames.add(p.nodeName);
    for (const p of existing.values()) if (p.nodeName !== null) targetNames.add(p.nodeName);
    // lock the stored nodes this import touches (in name order), then read their taints
    for (const chunk of chunks([...targetNames].sort(), 5000)) await this.nodes.lock(run.tx, chunk);
    const previousTaints = await this.nodes.taintsOf(run.tx, [...importedNodeNames]);
    const storedNodes = await this.writeNodes(run, nodeWrites, previousTaints);
    const others = [...targetNames].filter((n) => !importedNodeNames.has(n));
    const knownNodes = await this.nodes.existingNodeNames(run.tx, others);
    for (const n of importedNodeNames) knownNodes.add(n);
    // the cluster's objects are marked as its own as they are written (before the planner runs: its evictions of
    // mirrored pods are forecasts)
    const storedPods = await this.pods.upsertPods(run.tx, pods, run.now, originOf(run));
    for (const { pod } of storedPods) run.changes.pod(pod);
    await this.replan(run, { storedNodes, storedPods, existing, previousTaints, targetNames, knownNodes });
    const budgets = await this.writeBudgets(run, parsed.budgets);
    return {
      counts: { nodes: createdAndUpdated(storedNodes), pods: createdAndUpdated(storedPods), budgets },
      podsOnUnknownNodes: pods.filter((p) => p.nodeName !== null && !knownNodes.has(p.nodeName)),
    };
  }

  /** The valid budgets, created or replaced (an invalid one is left out with Kubernetes' errors). */
  private async writeBudgets(
    run: ImportRun,
    budgets: readonly BudgetInput[],
  ): Promise<{ created: number; updated: number }> {
    // nothing to write: no need to read every stored budget (a mirror's page of nodes or pods names none)
    if (budgets.length === 0) return { created: 0, updated: 0 };
    const valid = budgets.filter((b) => {
      const problems = [...validateLabels(b.labels, 'metadata.labels'), ...validateDisruptionBudget(b)];
      if (problems.length) run.errors.push(...itemErrors('PodDisruptionBudget', `${b.namespace}/${b.name}`, problems));
      return problems.length === 0;
    });
    const existing = new Set((await this.budgets.findAll(run.tx)).map((b) => `${b.namespace}/${b.name}`));
    const stored = await this.budgets.upsertMany(
      run.tx,
      valid.map((b) => ({ ...b, uid: b.uid ?? randomUUID() })),
    );
    for (const budget of stored) run.changes.budget(budget);
    if (run.fromCluster) await this.budgets.setOrigin(run.tx, valid, 'cluster');
    const created = valid.filter((b) => !existing.has(`${b.namespace}/${b.name}`)).length;
    return { created, updated: valid.length - created };
  }

  /** A new pod may not take a uid another stored pod has: it is left out with an error. */
  private async withoutUidClashes(
    run: ImportRun,
    pods: PodWrite[],
    existing: Map<string, ExistingPodRow>,
  ): Promise<PodWrite[]> {
    const fresh = pods.filter((p) => !existing.has(podKey(p.namespace, p.name))).map((p) => p.uid);
    const clashes = await this.pods.podKeysByUid(run.tx, fresh);
    return pods.filter((p) => {
      const holder = clashes.get(p.uid);
      if (holder === undefined || holder === podKey(p.namespace, p.name)) return true;
      run.errors.push({
        kind: 'Pod',
        name: podKey(p.namespace, p.name),
        field: 'metadata.uid',
        message: `metadata.uid: Invalid value: "${p.uid}": already the uid of pod ${holder}`,
      });
      return false;
    });
  }

  /** Upserts the nodes, keeping `timeAdded` of the taints they already had. */
  private async writeNodes(
    run: ImportRun,
    nodes: NodeWrite[],
    previousTaints: Map<string, Taint[]>,
  ): Promise<StoredNodeWrite[]> {
    const stamped = nodes.map((n) => ({
      ...n,
      taints: stampTaints(n.taints, previousTaints.get(n.name) ?? [], run.now, true),
    }));
    const stored = await this.nodes.upsertNodes(run.tx, stamped, run.now, originOf(run));
    for (const { node } of stored) run.changes.node(node);
    return stored;
  }

  /**
   * Pods that left their node (or stopped) lose a pending eviction; imported nodes may have changed taints,
   * so all their bound pods are re-decided; nodes the import only points pods at kept their taints, so only
   * the imported pods on them are decided, and only when those nodes have NoExecute taints at all.
   */
  private async replan(run: ImportRun, w: ImportWrites): Promise<void> {
    const { tx, changes, now } = run;
    const moved = w.storedPods
      .filter(({ pod, created }) => {
        const before = created ? undefined : w.existing.get(podKey(pod.namespace, pod.name));
        return before?.nodeName != null && (before.nodeName !== pod.nodeName || !isActivePhase(pod.phase));
      })
      .map(({ pod }) => pod);
    for (const chunk of chunks(moved, 5000))
      await this.planner.cancelForPods(tx, chunk, 'the import moved or stopped the pod', now, changes);

    const nodesByName = new Map<string, StoredNode>(w.storedNodes.map(({ node }) => [node.name, node]));
    const others = [...w.targetNames].filter((n) => !nodesByName.has(n) && w.knownNodes.has(n));
    const otherTaints = await this.nodes.taintsOf(tx, others);
    const otherNoExecute = others.filter((n) => hasNoExecute(otherTaints.get(n) ?? []));
    for (const chunk of chunks(otherNoExecute, 2000))
      for (const n of await this.nodes.findByNames(tx, chunk)) nodesByName.set(n.name, n);
    const changedNodes = w.storedNodes
      .map(({ node }) => node)
      .filter((n) => hasNoExecute(n.taints) || hasNoExecute(w.previousTaints.get(n.name) ?? []))
      .map((n) => n.name);
    for (const chunk of chunks(changedNodes, REPLAN_NODES)) {
      const bound = await this.pods.findActiveOnNodes(tx, chunk);
      await this.planner.replan(tx, bound, nodesByName, now, changes);
    }
    const otherSet = new Set(otherNoExecute);
    const importedOnOthers = w.storedPods
      .map(({ pod }) => pod)
      .filter((p) => p.nodeName !== null && otherSet.has(p.nodeName) && isActivePhase(p.phase));
    for (const chunk of chunks(importedOnOthers, 5000)) await this.planner.replan(tx, chunk, nodesByName, now, changes);
  }

  /** Nodes that pass `ValidateNode`'s rules; the others become per-item errors. */
  private validNodes(nodes: readonly NodeInput[], errors: ImportItemError[]): NodeWrite[] {
    const out: NodeWrite[] = [];
    for (const n of nodes) {
      const write: NodeWrite = {
        name: n.name,
        labels: n.labels,
        taints: n.taints,
        unschedulable: n.unschedulable,
        conditions: n.conditions,
        allocatable: n.allocatable,
      };
      const problems = validateNodeObject(write);
      if (problems.length) errors.push(...itemErrors('Node', n.name, problems));
      else out.push(write);
    }
    return out;
  }

  /** Pods that pass `ValidatePodSpec`'s scheduling rules, as stored (no admission defaults). */
  private validPods(
    pods: readonly PodInput[],
    existing: ReadonlyMap<string, { uid: string; usesComparisonOperators: boolean }>,
    errors: ImportItemError[],
    now: Date,
  ): PodWrite[] {
    const out: PodWrite[] = [];
    const uids = new Map<string, string>();
    for (const p of pods) {
      const key = podKey(p.namespace, p.name);
      const stored = existing.get(key);
      // The Gt/Lt ratchet (B.2.1): allowed when the setting is on or the stored pod already uses them.
      const comparisonOperators = this.config.COMPARISON_OPERATORS || (stored?.usesComparisonOperators ?? false);
      const problems = [
        ...validateNamespaceName(p.namespace),
        ...validateObjectName(p.name),
        ...validateLabels(p.labels, 'metadata.labels'),
        ...validatePodSpecObject(
          {
            tolerations: p.tolerations,
            nodeSelector: p.nodeSelector,
            affinity: p.affinity,
            resources: p.resources,
            phase: p.phase,
          },
          { comparisonOperators },
        ),
      ];
      if (problems.length) {
        errors.push(...itemErrors('Pod', key, problems));
        continue;
      }
      const uid = stored?.uid ?? p.uid ?? randomUUID();
      const first = uids.get(uid);
      if (first !== undefined) {
        errors.push({
          kind: 'Pod',
          name: key,
          field: 'metadata.uid',
          message: `metadata.uid: Duplicate value: "${uid}": pod ${first} has the same uid; this one was left out`,
        });
        continue;
      }
      uids.set(uid, key);
      out.push({
        namespace: p.namespace,
        name: p.name,
        uid,
        labels: p.labels,
        nodeName: p.nodeName,
        phase: p.phase,
        boundAt: p.nodeName === null ? null : (p.boundAt ?? now),
        tolerations: p.tolerations,
        nodeSelector: p.nodeSelector,
        affinity: p.affinity,
        priority: p.priority,
        owner: p.owner,
        resources: p.resources,
        requests: requestsVector(p.resources),
        hostNetwork: p.hostNetwork,
      });
    }
    return out;
  }
}

function hasNoExecute(taints: ReadonlyArray<{ effect: string }>): boolean {
  return taints.some((t) => t.effect === 'NoExecute');
}

/** Kubernetes field errors of one item → import errors naming the item. */
function itemErrors(
  kind: 'Node' | 'Pod' | 'PodDisruptionBudget',
  name: string,
  problems: readonly FieldError[],
): ImportItemError[] {
  return problems.map((e) => ({ kind, name, field: e.field, message: formatFieldError(e) }));
}

/** The body could not be read: 400 with every problem and its line/column. */
function decodeError(errors: readonly ImportError[], notes: readonly string[]): AppError {
  const where = (e: ImportError) => (e.position ? `line ${e.position.line}, column ${e.position.column}: ` : '');
  const first = errors[0];
  const detail = first
    ? `the import body could not be read: ${where(first)}${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`
    : 'the import body could not be read';
  const fieldErrors: FieldError[] = errors.map((e) => ({
    field: e.field ?? (e.position ? `(body):${e.position.line}:${e.position.column}` : `document[${e.index}]`),
    type: 'Invalid value',
    message: `${where(e)}${e.message}`,
  }));
  return new AppError('BadRequest', detail, fieldErrors, { importErrors: errors, ...(notes.length ? { notes } : {}) });
}

function createdAndUpdated(written: ReadonlyArray<{ created: boolean }>): { created: number; updated: number } {
  const created = written.filter((w) => w.created).length;
  return { created, updated: written.length - created };
}

/** The origin an import run's writes carry: the mirror's are the cluster's; a local import's keep the default. */
function originOf(run: ImportRun): 'cluster' | undefined {
  return run.fromCluster ? 'cluster' : undefined;
}
