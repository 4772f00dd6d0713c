import { Injectable, Optional } from '@nestjs/common';
import { MirrorService } from '../mirror/mirror.service';
import { AppError } from '../kernel/errors/app-error';
import { applyTaintChanges, type TaintOperation } from '../domain/kubectl-taint/apply-taint-changes';
import { parseTaintSpecs, type TaintChanges } from '../domain/kubectl-taint/parse-taint-specs';
import { cordonTaints, uncordonTaints } from '../domain/node-lifecycle/cordon';
import { taintsForConditions } from '../domain/node-lifecycle/taints-for-conditions';
import type { NodeCondition, Taint } from '../domain/types';
import { formatInvalidObject } from '../domain/validation/field-errors';
import { EvictionPlanner, type EvictionCounts } from '../evictions/eviction-planner.service';
import type { Actor, ChangeSet } from '../kernel/persistence/change-set';
import { parseBody } from '../kernel/http/input/parse-body';
import { compileLabelSelector } from '../kernel/http/label-selection';
import type { StoredNode } from '../kernel/model/stored-objects';
import { NodeRepository, type NodeWrite } from '../kernel/persistence/repositories/node.repository';
import { NodeService } from '../inventory/node.service';
import { taintToJson } from '../kernel/model/taint-json';
import { PodRepository } from '../kernel/persistence/repositories/pod.repository';
import type { Db } from '../kernel/persistence/prisma-types';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import {
  applyTaintsSchema,
  conditionsSchema,
  nextConditions,
  nodeSelectionOf,
  validateConditions,
  type NodeSelection,
} from './taint-inputs';

export interface TaintedNode {
  name: string;
  taints: Taint[];
  changed: boolean;
  /** What kubectl prints: `node/<name> tainted|untainted|modified`. */
  operation: TaintOperation;
}

export interface ApplyTaintsResult {
  nodes: TaintedNode[];
  evictions: EvictionCounts;
  dryRun: boolean;
  /** A mirror with SYNC_WRITE: the change was written to the cluster and came back through the watch. */
  writeThrough?: boolean;
}

export interface NodeMutationResult {
  node: StoredNode;
  changed: boolean;
  evictions: EvictionCounts;
}

interface Outcome {
  before: StoredNode;
  after: StoredNode;
  changed: boolean;
  operation: TaintOperation;
}

/**
 * The taint mutations (API.md "Taint mutations"): `kubectl taint` across nodes (SEMANTICS A.8, B.3),
 * cordon/uncordon and reported node conditions (A.7, B.6.4). Each is one transaction: the selected
 * nodes are locked in name order, every node's change is computed before anything is written, and
 * any refusal (kubectl's message, naming the node) rolls back every node. The evictions the new
 * taints imply are planned in the same transaction (A.3).
 */
@Injectable()
export class TaintMutationService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly nodes: NodeRepository,
    private readonly pods: PodRepository,
    private readonly planner: EvictionPlanner,
    private readonly nodeService: NodeService,
    @Optional() private readonly mirror?: MirrorService,
  ) {}

  /** `POST /v1/taints`. With `dryRun` the same answer is computed and nothing is written or locked. */
  async applyTaints(body: unknown, actor: Actor): Promise<ApplyTaintsResult> {
    const parsed = parseBody(applyTaintsSchema, body, 'taint request');
    const selection = nodeSelectionOf(parsed);
    const matches = selection.kind === 'labelSelector' ? compileLabelSelector(selection.selector) : () => true;
    const specs = parseTaintSpecs(parsed.taints);
    const options = { overwrite: parsed.overwrite ?? false, respect: parsed.respectDisruptionBudgets === true };

    if (parsed.dryRun) {
      const db = this.uow.db;
      const now = this.uow.now();
      const outcomes = this.decide(await this.selectNodes(db, selection, matches), specs, options, now);
      const changed = outcomes.filter((o) => o.changed);
      const bound = await this.pods.findToPlanOnNodes(
        db,
        changed.map((o) => o.after.name),
      );
      const evictions = await this.planner.preview(
        db,
        bound,
        new Map(changed.map((o) => [o.after.name, o.after])),
        now,
      );
      return { nodes: outcomes.map(present), evictions, dryRun: true };
    }

    if (this.mirror?.writesThrough) {
      const through = await this.taintsThroughCluster(parsed.taints, selection, matches, specs, options, actor);
      if (through) return through;
    }

    const { result, changes } = await this.uow.run(actor, async (tx, changes) => {
      const names = await this.candidateNames(tx, selection, matches);
      await this.nodes.lock(tx, names);
      const now = this.uow.now();
      const outcomes = this.decide(await this.selectNodes(tx, selection, matches, names), specs, options, now);
      // Every changed node in three statements, then every bound pod of them in one planner call.
      const changed = outcomes.filter((o) => o.changed);
      const written = await this.nodes.replaceTaints(
        tx,
        changed.map((o) => o.after),
        now,
      );
      const stored = new Map(written.map((n) => [n.name, n]));
      for (const o of changed) {
        const node = stored.get(o.after.name);
        if (!node) throw AppError.notFound('nodes', o.after.name);
        o.after = node;
        changes.node(node);
        changes.event({
          type: 'TaintsApplied',
          subjectKind: 'Node',
          subjectName: node.name,
          data: {
            specs: parsed.taints,
            overwrite: options.overwrite,
            operation: o.operation,
            taints: node.taints.map(taintToJson),
            previousTaints: o.before.taints.map(taintToJson),
          },
        });
      }
      await this.replanNodes(tx, written, now, changes);
      return outcomes.map(present);
    });
    return { nodes: result, evictions: { ...changes.evictions }, dryRun: false };
  }

  /**
   * Write-through (a mirror with SYNC_WRITE, README "Mirror a cluster"): when the selected nodes are the cluster's,
   * the same kubectl decision is made here (its refusals, its impact report from the planner's preview), the new
   * taint lists are sent to the cluster as `kubectl taint`'s PATCH, and the answer waits until the watch brings
   * them back; the audit event is recorded as for a local write. Answers undefined when no selected node is the
   * cluster's (a local write); a selection mixing both is refused.
   */
  private async taintsThroughCluster(
    specsText: readonly string[],
    selection: NodeSelection,
    matches: (labels: Record<string, string>) => boolean,
    specs: TaintChanges,
    options: { overwrite: boolean; respect: boolean },
    actor: Actor,
  ): Promise<ApplyTaintsResult | undefined> {
    const db = this.uow.db;
    const selected = await this.selectNodes(db, selection, matches);
    const owned = new Set(
      await this.nodes.clusterOwned(
        db,
        selected.map((n) => n.name),
      ),
    );
    if (owned.size === 0) return undefined;
    if (owned.size !== selected.length) {
      const local = selected.filter((n) => !owned.has(n.name)).map((n) => n.name);
      throw new AppError(
        'Conflict',
        `the selection mixes nodes of the mirrored cluster (${[...owned].slice(0, 3).join(', ')}) and nodes created here (${local.slice(0, 3).join(', ')}): send them in two requests`,
      );
    }
    if (options.respect)
      throw new AppError(
        'BadRequest',
        "respectDisruptionBudgets is taintwise's own: the cluster's taint manager does not honour it, so it cannot be written through",
        [
          {
            field: 'respectDisruptionBudgets',
            type: 'Invalid value',
            message: 'Invalid value: true: not for mirrored nodes',
          },
        ],
      );
    const now = this.uow.now();
    const outcomes = this.decide(selected, specs, options, now);
    const changed = outcomes.filter((o) => o.changed);
    const bound = await this.pods.findToPlanOnNodes(
      db,
      changed.map((o) => o.after.name),
    );
    const evictions = await this.planner.preview(db, bound, new Map(changed.map((o) => [o.after.name, o.after])), now);
    await this.mirror!.writeThrough(
      changed.map((o) => ({ name: o.after.name, patch: { spec: { taints: o.after.taints.map(kubeTaint) } } })),
    );
    const stored = new Map(
      (
        await this.nodes.findByNames(
          db,
          changed.map((o) => o.after.name),
        )
      ).map((n) => [n.name, n]),
    );
    await this.uow.run(actor, async (_tx, changes) => {
      for (const o of changed)
        changes.event({
          type: 'TaintsApplied',
          subjectKind: 'Node',
          subjectName: o.after.name,
          data: {
            specs: specsText,
            overwrite: options.overwrite,
            operation: o.operation,
            taints: (stored.get(o.after.name) ?? o.after).taints.map(taintToJson),
            previousTaints: o.before.taints.map(taintToJson),
            writeThrough: true,
          },
        });
    });
    return {
      nodes: outcomes.map((o) => present({ ...o, after: stored.get(o.after.name) ?? o.after })),
      evictions,
      dryRun: false,
      writeThrough: true,
    };
  }

  /** Cordon/uncordon of a mirrored node with SYNC_WRITE: `kubectl cordon`'s PATCH, answered once it came back. */
  private async unschedulableThroughCluster(
    name: string,
    unschedulable: boolean,
    actor: Actor,
  ): Promise<NodeMutationResult | undefined> {
    const db = this.uow.db;
    if ((await this.nodes.clusterOwned(db, [name])).length === 0) return undefined;
    const node = await this.nodes.findByName(db, name);
    if (!node) throw AppError.notFound('nodes', name);
    const changed = node.unschedulable !== unschedulable;
    if (changed) await this.mirror!.writeThrough([{ name, patch: { spec: { unschedulable } } }]);
    const stored = (await this.nodes.findByName(db, name)) ?? node;
    if (changed)
      await this.uow.run(actor, async (_tx, changes) => {
        changes.event({
          type: unschedulable ? 'NodeCordoned' : 'NodeUncordoned',
          subjectKind: 'Node',
          subjectName: name,
          data: {
            unschedulable: stored.unschedulable,
            taints: stored.taints.map(taintToJson),
            previousTaints: node.taints.map(taintToJson),
            writeThrough: true,
          },
        });
      });
    return {
      node: stored,
      changed,
      evictions: { immediate: 0, scheduled: 0, cancelled: 0, retimed: 0, held: 0 },
    };
  }

  /** `POST /v1/nodes/{name}/cordon|uncordon`: `unschedulable` and its NoSchedule taint (A.7). */
  async setUnschedulable(name: string, unschedulable: boolean, actor: Actor): Promise<NodeMutationResult> {
    if (this.mirror?.writesThrough) {
      const through = await this.unschedulableThroughCluster(name, unschedulable, actor);
      if (through) return through;
    }
    return this.mutateNode(name, actor, (node, now) => ({
      next: {
        ...node,
        unschedulable,
        taints: unschedulable ? cordonTaints(node.taints, now) : uncordonTaints(node.taints),
      },
      event: { type: unschedulable ? 'NodeCordoned' : 'NodeUncordoned', data: {} },
    }));
  }

  /** `PUT /v1/nodes/{name}/conditions`: the node-lifecycle taints, stamped with the report time (A.7, B.6.4). */
  async setConditions(name: string, body: unknown, actor: Actor): Promise<NodeMutationResult> {
    const reported = parseBody(conditionsSchema, body, `conditions of node "${name}"`);
    const errors = validateConditions(reported);
    if (errors.length) throw AppError.invalid('Node', name, errors, formatInvalidObject('Node', name, errors));
    return this.mutateNode(name, actor, (node, now) => {
      const conditions = nextConditions(reported, node.conditions, now);
      return {
        next: { ...node, conditions, taints: taintsForConditions(conditions, node.unschedulable, node.taints, now) },
        event: { type: 'NodeConditionsReported', data: { conditions: reported } },
      };
    });
  }

  private async mutateNode(
    name: string,
    actor: Actor,
    change: (
      node: StoredNode,
      now: Date,
    ) => { next: StoredNode; event: { type: string; data: Record<string, unknown> } },
  ): Promise<NodeMutationResult> {
    const { result, changes } = await this.uow.run(actor, async (tx, changes) => {
      await this.nodes.lock(tx, [name]);
      const node = await this.nodes.findByName(tx, name);
      if (!node) throw AppError.notFound('nodes', name);
      const now = this.uow.now();
      const { next, event } = change(node, now);
      const changed =
        next.unschedulable !== node.unschedulable ||
        !sameTaints(next.taints, node.taints) ||
        !sameConditions(next.conditions, node.conditions);
      if (!changed) return { node, changed };
      const stored = await this.nodes.replace(tx, toWrite(next));
      if (!stored) throw AppError.notFound('nodes', name);
      await this.nodeService.afterNodeChange(tx, stored, now, changes);
      changes.event({
        type: event.type,
        subjectKind: 'Node',
        subjectName: name,
        data: {
          ...event.data,
          unschedulable: stored.unschedulable,
          taints: stored.taints.map(taintToJson),
          previousTaints: node.taints.map(taintToJson),
        },
      });
      return { node: stored, changed };
    });
    return { ...result, evictions: { ...changes.evictions } };
  }

  /** Names to lock: the explicit list, or every node whose labels match (re-checked under the lock). */
  private async candidateNames(
    db: Db,
    selection: NodeSelection,
    matches: (labels: Record<string, string>) => boolean,
  ): Promise<string[]> {
    if (selection.kind === 'names') return selection.names;
    return (await this.nodes.namesAndLabels(db)).filter((r) => matches(r.labels)).map((r) => r.name);
  }

  private async selectNodes(
    db: Db,
    selection: NodeSelection,
    matches: (labels: Record<string, string>) => boolean,
    names?: string[],
  ): Promise<StoredNode[]> {
    const wanted = names ?? (await this.candidateNames(db, selection, matches));
    const found = await this.nodes.findByNames(db, wanted);
    if (selection.kind === 'names') {
      const present = new Set(found.map((n) => n.name));
      const missing = selection.names.filter((n) => !present.has(n));
      if (missing.length) throw AppError.notFound('nodes', ...missing);
      return found;
    }
    return found.filter((n) => matches(n.labels));
  }

  /**
   * Every node's new taints, or the first refusal (kubectl stops at the first failing node; so do we, and write
   * nothing).
   */
  private decide(
    nodes: StoredNode[],
    specs: TaintChanges,
    options: { overwrite: boolean; respect: boolean },
    now: Date,
  ): Outcome[] {
    const overwrite = options.overwrite;
    return nodes.map((node) => {
      // a refusal (KubectlTaintError, naming the node) leaves through the one error mapper, toAppError
      const applied = applyTaintChanges(node.name, node.taints, specs, { overwrite, now });
      if (options.respect) markRespectingBudgets(applied.taints, specs);
      return {
        before: node,
        after: { ...node, taints: applied.taints },
        changed: applied.changed,
        operation: applied.operation,
      };
    });
  }

  private async replanNodes(tx: Db, nodes: StoredNode[], now: Date, changes: ChangeSet): Promise<void> {
    if (nodes.length === 0) return;
    const bound = await this.pods.findToPlanOnNodes(
      tx,
      nodes.map((n) => n.name),
    );
    await this.planner.replan(tx, bound, new Map(nodes.map((n) => [n.name, n])), now, changes);
  }
}

/** A taint as the Kubernetes API writes it (metav1.Time in whole seconds), for a write-through PATCH. */
function kubeTaint(t: Taint): Record<string, string> {
  return {
    key: t.key,
    ...(t.value ? { value: t.value } : {}),
    effect: t.effect,
    ...(t.timeAdded ? { timeAdded: t.timeAdded.toISOString().replace(/\.\d{3}Z$/, 'Z') } : {}),
  };
}

function present(o: Outcome): TaintedNode {
  return { name: o.after.name, taints: o.after.taints, changed: o.changed, operation: o.operation };
}

function toWrite(node: StoredNode): NodeWrite {
  return {
    name: node.name,
    labels: node.labels,
    taints: node.taints,
    unschedulable: node.unschedulable,
    conditions: node.conditions,
    allocatable: node.allocatable,
  };
}

function sameConditions(a: readonly NodeCondition[], b: readonly NodeCondition[]): boolean {
  const sig = (c: NodeCondition) =>
    JSON.stringify([
      c.type,
      c.status,
      c.reason ?? null,
      c.message ?? null,
      c.lastTransitionTime ? new Date(c.lastTransitionTime).getTime() : null,
    ]);
  return a.length === b.length && a.every((c, i) => sig(c) === sig(b[i]));
}

function sameTaints(a: readonly Taint[], b: readonly Taint[]): boolean {
  const sig = (t: Taint) => `${t.key}\u0000${t.effect}\u0000${t.value ?? ''}\u0000${t.timeAdded?.getTime() ?? ''}`;
  return a.length === b.length && a.every((t, i) => sig(t) === sig(b[i]));
}

/** The NoExecute taints this request adds carry `respectBudgets` (SEMANTICS B.9.6); the node's others keep theirs. */
function markRespectingBudgets(taints: Taint[], specs: TaintChanges): void {
  for (const taint of taints) {
    if (taint.effect !== 'NoExecute') continue;
    if (specs.add.some((added) => added.key === taint.key && added.effect === taint.effect))
      taint.respectBudgets = true;
  }
}
