import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../kernel/errors/app-error';
import { roleAtLeast, type Principal } from '../kernel/auth/roles';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { CLOCK } from '../kernel/tokens';
import { partitionTaintImpact, type PodOnTaintedNode } from '../domain/eviction/eviction-changes';
import { applyTaintChanges } from '../domain/kubectl-taint/apply-taint-changes';
import { parseTaintSpecs, type TaintRemoval } from '../domain/kubectl-taint/parse-taint-specs';
import { compilePod, type CompiledPod, type PodToPlace } from '../domain/scheduling/compile-pod';
import { decideFeasibleNodes, type FeasibleNodesDecision } from '../domain/scheduling/feasible-nodes';
import { nodeIndex, withNodeResources, type NodeTable } from '../domain/scheduling/node-table';
import { decideTolerationMatch } from '../domain/scheduling/toleration-match';
import { schedulingSignature, taintToString } from '../domain/tolerations/taint-to-string';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type {
  FieldError,
  PodSpec,
  ResourceVector,
  SchedulingNode,
  Taint,
  TaintEffect,
  Toleration,
} from '../domain/types';
import { aggregateMessages, formatFieldError, goQuote } from '../domain/validation/field-errors';
import { validateNodeTaints } from '../domain/validation/validate-node-taints';
import { validatePodSpecObject } from '../domain/validation/validate-objects';
import { validateTolerations } from '../domain/validation/validate-tolerations';
import { parseBody } from '../kernel/http/input/parse-body';
import type { PodSpecBody } from '../kernel/http/input/body-schemas';
import { compileLabelSelector } from '../kernel/http/label-selection';
import type { StoredPod } from '../kernel/model/stored-objects';
import { PodService } from '../inventory/pod.service';
import { requestsVector } from '../kernel/model/pod-requests-vector';
import { Metrics } from '../kernel/observability/metrics';
import type { InventorySnapshot } from '../kernel/snapshot/inventory-snapshot';
import { SnapshotService } from '../kernel/snapshot/snapshot.service';
import type { Clock } from '../kernel/timers/clock';
import type {
  FeasibleNodesAnswer,
  PodRef,
  TaintImpactAnswer,
  TaintView,
  TolerationMatchAnswer,
} from './decision-answers';
import {
  DEFAULT_FEASIBLE_LIMIT,
  feasibleNodesBodySchema,
  taintImpactBodySchema,
  tolerationMatchBodySchema,
  type FeasibleNodesBody,
} from './decision-bodies';
import { LRUCache } from 'lru-cache';
import { canonicalJson, canonicalJsonWithin } from './decision-cache';
import { groupPendingPods, pendingImpact, type PendingGroup } from './pending-impact';

/**
 * The read-only decisions (API.md "Decisions"): where a pod may run and why not elsewhere, what a
 * taint change would do, how tolerations meet taints. They read the in-memory snapshot — never the
 * database per node — and write nothing: no rows, no events, no timers.
 */
/** A feasible-nodes answer as computed, and its JSON text once REST has needed it. */
interface CachedDecision {
  answer: FeasibleNodesAnswer;
  json?: string;
}

/** A feasible-nodes body, parsed and checked; for an inline pod, also validated, admitted and compiled. */
interface FeasibleNodesQuestion {
  input: FeasibleNodesBody;
  inline?: { compiled: CompiledPod; key: string };
}

/** Decision-cache sizes: entries, and answer nodes over all entries (~150 bytes each as JSON). */
const DECISION_CACHE_ENTRIES = 256;
/** Deeper bodies are not remembered (no valid body nests this deep); validation refuses them. */
const MAX_BODY_DEPTH = 32;
const DECISION_CACHE_NODES = 200_000;
/** Bodies longer than this (as canonical JSON) are not remembered. */
const MAX_REMEMBERED_BODY = 16_384;

/**
 * The read-only decisions (API.md "Decisions"): where a pod may run and why not elsewhere, what a
 * taint change would do, how tolerations meet taints. They read the in-memory snapshot — never the
 * database per node — and write nothing: no rows, no events, no timers.
 *
 * feasible-nodes answers are cached: the key is the canonical JSON of everything the answer depends
 * on (the pod's tolerations, nodeSelector, affinity and requests after admission, the node a stored
 * pod is bound to, the candidate selection, the limit, redaction) plus the snapshot's `changeCount`,
 * so any change to the inventory makes every older entry unreachable (they age out of the LRU).
 * Identical questions between two changes are answered from the cache, REST with the JSON text
 * serialised once. Valid bodies are remembered too (parsed, validated, admitted, compiled), so a
 * repeated body skips that work; only successes are remembered: errors are recomputed every time.
 */
@Injectable()
export class DecisionsService {
  /** Pending pods grouped by scheduling spec, valid while the snapshot has not changed. */
  private pendingGroups: { changeCount: number; groups: Array<PendingGroup<StoredPod>> } | undefined;
  // weighed by answer size, so a few 5,000-node answers cannot hold hundreds of megabytes
  private readonly decisionCache = new LRUCache<string, CachedDecision>({
    max: DECISION_CACHE_ENTRIES,
    maxSize: DECISION_CACHE_NODES,
    sizeCalculation: (d) => d.answer.nodes.length + 1,
  });
  private readonly questions = new LRUCache<string, FeasibleNodesQuestion>({ max: 2 * DECISION_CACHE_ENTRIES });

  constructor(
    private readonly snapshots: SnapshotService,
    private readonly pods: PodService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  private get matchOptions(): MatchOptions {
    return { comparisonOperators: this.config.COMPARISON_OPERATORS };
  }

  /**
   * POST /v1/decisions/feasible-nodes: the filter and score plugins for one pod over the candidate
   * nodes. An inline pod is validated and admitted as if it were created (admission defaults, A.6); a
   * referenced pod is used as stored. Explanations are redacted (A.2) by setting or below a role.
   */
  async feasibleNodes(body: unknown, principal: Principal): Promise<FeasibleNodesAnswer> {
    return (await this.decideFeasibleNodes(body, principal)).answer;
  }

  /** The same answer as JSON text (what REST sends), serialised once per cached answer. */
  async feasibleNodesJson(body: unknown, principal: Principal): Promise<string> {
    const decision = await this.decideFeasibleNodes(body, principal);
    return (decision.json ??= JSON.stringify(decision.answer));
  }

  private async decideFeasibleNodes(body: unknown, principal: Principal): Promise<CachedDecision> {
    const { input, inline } = this.feasibleNodesQuestion(body);
    const stored = inline === undefined ? await this.storedPod(input.podRef!) : undefined;
    const podKey = inline?.key ?? canonicalJson([schedulingInputs(stored!.pod), stored!.boundTo ?? null]);
    const redactTaints =
      this.config.REDACT_TAINTS || !roleAtLeast(principal.role, this.config.REDACT_TAINTS_BELOW_ROLE);
    const limit = input.limit ?? DEFAULT_FEASIBLE_LIMIT;
    const selection =
      input.nodeNames !== undefined
        ? canonicalJson(uniqueSorted(input.nodeNames))
        : input.labelSelector !== undefined
          ? canonicalJson(input.labelSelector)
          : '*';
    const snapshot = this.snapshots.snapshot;
    const key = `${podKey}\u0001${selection}\u0001${limit}\u0001${redactTaints}\u0001${snapshot.changeCount}`;
    const cached = this.decisionCache.get(key);
    if (cached !== undefined) {
      this.metrics.decisionCache.inc({ result: 'hit' });
      return cached;
    }
    this.metrics.decisionCache.inc({ result: 'miss' });

    let table = snapshot.schedulingTable();
    const candidates = this.candidateRows(table, input.nodeNames, input.labelSelector);
    if (stored?.boundTo !== undefined) table = withoutOwnRequests(table, stored.boundTo, stored.pod.requests!);
    const compiled = inline?.compiled ?? compilePod(stored!.pod, this.matchOptions);
    const decision = decideFeasibleNodes(compiled, table, { redactTaints, limit, candidates });
    const answer: CachedDecision = { answer: presentFeasibleNodes(decision) };
    this.decisionCache.set(key, answer);
    return answer;
  }

  /**
   * Parses and checks a body (400/422 as before); remembers valid ones by their JSON as sent (a
   * client repeating itself: JSON.stringify is cheap) and by their canonical JSON (the same body with
   * its keys in another order).
   */
  private feasibleNodesQuestion(body: unknown): FeasibleNodesQuestion {
    const asSent = body !== null && typeof body === 'object' ? jsonOrUndefined(body) : undefined;
    const bodyKey =
      asSent !== undefined && asSent.length <= MAX_REMEMBERED_BODY
        ? canonicalJsonWithin(body, MAX_BODY_DEPTH)
        : undefined;
    const remember = bodyKey !== undefined;
    if (remember) {
      const known = this.questions.get(asSent!) ?? this.questions.get(bodyKey);
      if (known !== undefined) return known;
    }
    const input = parseBody(feasibleNodesBodySchema, body, 'feasible-nodes request');
    exactlyOne(input, ['pod', 'podRef'], true);
    exactlyOne(input, ['nodeNames', 'labelSelector'], false);
    let question: FeasibleNodesQuestion = { input };
    if (input.pod) {
      const { pod } = this.admittedInlinePod(input.pod);
      question = {
        input,
        inline: { compiled: compilePod(pod, this.matchOptions), key: canonicalJson([schedulingInputs(pod), null]) },
      };
    }
    if (remember) {
      this.questions.set(bodyKey, question);
      this.questions.set(asSent!, question);
    }
    return question;
  }

  /**
   * POST /v1/decisions/taint-impact: `kubectl taint --overwrite` applied in memory to the target
   * nodes at `at`, then the NoExecute rule (A.3) for their bound pods and the filters for pending pods.
   * A removal that matches nothing on a node is ignored on that node and reported in `warnings`
   * (kubectl would refuse the whole command; a what-if over a selector should still answer).
   */
  taintImpact(body: unknown): TaintImpactAnswer {
    const input = parseBody(taintImpactBodySchema, body, 'taint-impact request');
    const targets = [input.nodes !== undefined, input.labelSelector !== undefined, input.all === true].filter(
      Boolean,
    ).length;
    if (targets !== 1) {
      throw new AppError('BadRequest', 'name the nodes with exactly one of "nodes", "labelSelector" or "all": true', [
        {
          field: 'nodes',
          type: 'Invalid value',
          message: 'Invalid value: exactly one of nodes, labelSelector, all: true is required',
        },
      ]);
    }
    const changes = parseTaintSpecs(input.taints);
    const at = input.at !== undefined ? new Date(input.at) : this.clock.now();
    const snapshot = this.snapshots.snapshot;
    const targetNodes = this.candidateNodes(snapshot, input.nodes, input.all ? undefined : input.labelSelector);

    const warnings: string[] = [];
    const before = new Map<string, SchedulingNode>();
    const after = new Map<string, SchedulingNode>();
    const internTaints = taintInterner();
    const bound: Array<PodOnTaintedNode<{ ref: StoredPod; tolerations: Toleration[]; boundAt: Date }>> = [];
    for (const node of targetNodes) {
      const current = snapshot.node(node.name)!.taints;
      const remove: TaintRemoval[] = [];
      for (const removal of changes.remove) {
        if (current.some((taint) => matchesRemoval(taint, removal))) remove.push(removal);
        else
          warnings.push(
            `node ${node.name}: taint ${goQuote(taintToString(removal))} not found (kubectl taint would refuse the command; ignored on this node)`,
          );
      }
      const applied = applyTaintChanges(node.name, current, { add: changes.add, remove }, { overwrite: true, now: at });
      if (schedulingSignature(applied.taints) !== schedulingSignature(current)) {
        before.set(node.name, node);
        after.set(node.name, { ...node, taints: internTaints(applied.taints) });
      }
      // Pods in (namespace, name) order per node, nodes by name: the answer needs no global sort.
      for (const pod of [...snapshot.podsOn(node.name)].sort(compareRefs)) {
        bound.push({
          pod: { ref: pod, tolerations: pod.tolerations, boundAt: pod.boundAt ?? pod.createdAt },
          node: node.name,
          taints: applied.taints,
        });
      }
    }

    const partition = partitionTaintImpact(bound, at, this.matchOptions);
    const pending = pendingImpact(this.pendingGroupsOf(snapshot), snapshot.schedulingNodes(), before, after);
    return {
      at,
      evictions: partition.evictions.map((e) => ({
        pod: refOf(e.pod.ref),
        node: e.node,
        action: e.action,
        afterSeconds: e.afterSeconds,
        evictAt: e.evictAt,
      })),
      tolerating: partition.tolerating.map((t) => ({ pod: refOf(t.pod.ref), node: t.node })),
      unschedulablePending: pending.lost.map((pod) => ({ pod: refOf(pod) })).sort(byPod),
      schedulablePending: pending.gained.map((pod) => ({ pod: refOf(pod) })).sort(byPod),
      warnings,
    };
  }

  /** POST /v1/decisions/toleration-match: taints and tolerations are validated as Kubernetes does (422). */
  tolerationMatch(body: unknown): TolerationMatchAnswer {
    const input = parseBody(tolerationMatchBodySchema, body, 'toleration-match request');
    const taints: Taint[] = input.taints.map((t) => ({
      key: t.key,
      value: t.value ?? '',
      effect: t.effect as TaintEffect,
      ...(t.timeAdded ? { timeAdded: new Date(t.timeAdded) } : {}),
    }));
    const tolerations = input.tolerations as Toleration[];
    const errors = [
      ...validateNodeTaints(taints, 'taints'),
      ...validateTolerations(tolerations, 'tolerations', this.matchOptions),
    ];
    if (errors.length > 0) throw invalidRequest('toleration-match request', errors);
    const decision = decideTolerationMatch(taints, tolerations, this.matchOptions);
    return {
      matches: decision.matches.map((m) => ({
        taint: taintView(m.taint),
        tolerated: m.tolerated,
        ...(m.tolerationIndex !== undefined ? { tolerationIndex: m.tolerationIndex } : {}),
      })),
      schedulable: decision.schedulable,
      preferAvoid: decision.preferAvoid,
      eviction: decision.eviction,
    };
  }

  /** Validated like a pod create (422, paths under `pod.`), then given the admission defaults (A.6). */
  private admittedInlinePod(body: PodSpecBody): { pod: PodToPlace; boundTo?: undefined } {
    const spec: PodSpec = {
      tolerations: (body.tolerations ?? []) as Toleration[],
      nodeSelector: body.nodeSelector ?? {},
      affinity: body.affinity ?? null,
      resources: body.resources ?? {},
      priority: body.priority ?? 0,
      owner: body.owner ?? null,
      hostNetwork: body.hostNetwork ?? false,
    };
    const errors = validatePodSpecObject(
      {
        tolerations: spec.tolerations,
        nodeSelector: spec.nodeSelector!,
        affinity: spec.affinity!,
        resources: spec.resources!,
      },
      this.matchOptions,
    ).map((e) => ({ ...e, field: `pod.${e.field}` }));
    if (errors.length > 0) throw invalidRequest('pod', errors);
    const admitted = this.pods.admit(spec);
    return { pod: { spec: admitted, requests: requestsVector(admitted.resources ?? {}) } };
  }

  /** An active pod from the snapshot; otherwise the stored one (404 when there is none). */
  private async storedPod(ref: PodRef): Promise<{ pod: PodToPlace; boundTo?: string }> {
    const stored =
      this.snapshots.snapshot.pod(ref.namespace, ref.name) ?? (await this.pods.get(ref.namespace, ref.name));
    const spec: PodSpec = {
      tolerations: stored.tolerations,
      nodeSelector: stored.nodeSelector,
      affinity: stored.affinity,
      resources: stored.resources,
    };
    const bound = stored.nodeName !== null && (stored.phase === 'Pending' || stored.phase === 'Running');
    return { pod: { spec, requests: stored.requests }, boundTo: bound ? stored.nodeName! : undefined };
  }

  /** All nodes, the named ones (404 listing the unknown names), or those the label selector picks; by name. */
  private candidateNodes(
    snapshot: InventorySnapshot,
    names: string[] | undefined,
    labelSelector: string | undefined,
  ): readonly SchedulingNode[] {
    if (names !== undefined) {
      const unique = [...new Set(names)].sort();
      const missing = unique.filter((name) => snapshot.schedulingNode(name) === undefined);
      if (missing.length > 0) {
        throw AppError.notFound('nodes', ...missing);
      }
      return unique.map((name) => snapshot.schedulingNode(name)!);
    }
    const all = snapshot.schedulingNodes();
    if (labelSelector === undefined) return all;
    const matches = compileLabelSelector(labelSelector);
    return all.filter((node) => matches(node.labels));
  }

  /** {@link candidateNodes} as rows of the scheduling table (undefined: every node), with the same 404. */
  private candidateRows(
    table: NodeTable,
    names: string[] | undefined,
    labelSelector: string | undefined,
  ): Int32Array | undefined {
    if (names !== undefined) {
      const unique = uniqueSorted(names);
      const rows = unique.map((name) => nodeIndex(table, name));
      const missing = unique.filter((_, k) => rows[k] === undefined);
      if (missing.length > 0) {
        throw AppError.notFound('nodes', ...missing);
      }
      return Int32Array.from(rows as number[]);
    }
    if (labelSelector === undefined) return undefined;
    const matches = compileLabelSelector(labelSelector);
    const rows: number[] = [];
    for (let i = 0; i < table.count; i++) if (matches(table.nodes[i].labels)) rows.push(i);
    return Int32Array.from(rows);
  }

  private pendingGroupsOf(snapshot: InventorySnapshot): Array<PendingGroup<StoredPod>> {
    if (this.pendingGroups?.changeCount !== snapshot.changeCount) {
      const changeCount = snapshot.changeCount;
      this.pendingGroups = { changeCount, groups: groupPendingPods(snapshot.pending(), this.matchOptions) };
    }
    return this.pendingGroups.groups;
  }
}

function exactlyOne(input: Record<string, unknown>, fields: [string, string], required: boolean): void {
  const given = fields.filter((f) => input[f] !== undefined);
  if (given.length === 2) {
    throw new AppError('BadRequest', `"${fields[0]}" and "${fields[1]}" are mutually exclusive`, [
      {
        field: fields[1],
        type: 'Invalid value',
        message: `Invalid value: may not be given together with ${fields[0]}`,
      },
    ]);
  }
  if (required && given.length === 0) {
    throw new AppError('BadRequest', `one of "${fields[0]}" or "${fields[1]}" is required`, [
      {
        field: fields[0],
        type: 'Required value',
        message: `Required value: give ${fields[0]} (an inline pod spec) or ${fields[1]} ({namespace, name})`,
      },
    ]);
  }
}

function invalidRequest(what: string, errors: FieldError[]): AppError {
  return new AppError('Invalid', `${what} is invalid: ${aggregateMessages(errors.map(formatFieldError))}`, errors);
}

/** A bound pod asked about again: its own requests must not count against its own node twice. */
function withoutOwnRequests(table: NodeTable, nodeName: string, requests: ResourceVector): NodeTable {
  const i = nodeIndex(table, nodeName);
  if (i === undefined) return table;
  const node = table.nodes[i];
  const requested: ResourceVector = { ...node.requested };
  for (const [name, amount] of Object.entries(requests))
    if (name !== 'pods') requested[name] = (requested[name] ?? 0) - amount;
  requested.pods = Math.max(0, (requested.pods ?? 0) - 1);
  return withNodeResources(table, i, { ...node, requested });
}

/** What the answer depends on in a pod to place (compilePod reads these; `requests` is always set here). */
function schedulingInputs(pod: PodToPlace): unknown {
  return {
    tolerations: pod.spec.tolerations,
    nodeSelector: pod.spec.nodeSelector,
    affinity: pod.spec.affinity,
    requests: pod.requests,
  };
}

/** Distinct names in code-unit order (the snapshot's node order). */
function uniqueSorted(names: readonly string[]): string[] {
  return [...new Set(names)].sort();
}

function matchesRemoval(taint: Taint, removal: TaintRemoval): boolean {
  return taint.key === removal.key && (removal.effect === undefined || taint.effect === removal.effect);
}

/** One shared array per distinct proposed taint list, so the filter judges each list once per pod. */
function taintInterner(): (taints: readonly Taint[]) => readonly Taint[] {
  const shared = new Map<string, readonly Taint[]>();
  return (taints) => {
    const signature = schedulingSignature(taints);
    let list = shared.get(signature);
    if (list === undefined)
      shared.set(signature, (list = taints.map((t) => ({ key: t.key, value: t.value ?? '', effect: t.effect }))));
    return list;
  };
}

function taintView(taint: Taint): TaintView {
  return {
    key: taint.key,
    value: taint.value ?? '',
    effect: taint.effect,
    ...(taint.timeAdded ? { timeAdded: taint.timeAdded } : {}),
  };
}

function presentFeasibleNodes(decision: FeasibleNodesDecision): FeasibleNodesAnswer {
  return {
    totalNodes: decision.totalNodes,
    feasibleCount: decision.feasibleCount,
    message: decision.message,
    nodes: decision.nodes.map((node) =>
      node.feasible
        ? { name: node.name, feasible: true, score: node.score, scores: node.scores }
        : {
            name: node.name,
            feasible: false,
            reasons: node.reasons.map((r) => ({
              plugin: r.plugin,
              message: r.message,
              ...(r.taint ? { taint: { key: r.taint.key, value: r.taint.value ?? '', effect: r.taint.effect } } : {}),
              ...(r.resource ? { resource: r.resource } : {}),
            })),
          },
    ),
  };
}

function refOf(pod: { namespace: string; name: string }): PodRef {
  return { namespace: pod.namespace, name: pod.name };
}

const compareRefs = (a: PodRef, b: PodRef) =>
  a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
const byPod = (a: { pod: PodRef }, b: { pod: PodRef }) => compareRefs(a.pod, b.pod);

/** JSON.stringify, or undefined for a body nested deeper than V8's stack allows (thousands of levels). */
function jsonOrUndefined(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined; // RangeError: such a body is refused by validation; it is just not remembered
  }
}
