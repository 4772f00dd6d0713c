import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../kernel/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { CLOCK } from '../kernel/tokens';
import { partitionTaintImpact, type PodOnTaintedNode } from '../domain/eviction/eviction-changes';
import { applyTaintChanges } from '../domain/kubectl-taint/apply-taint-changes';
import { parseTaintSpecs, type TaintRemoval } from '../domain/kubectl-taint/parse-taint-specs';
import { schedulingSignature, taintToString } from '../domain/tolerations/taint-to-string';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { SchedulingNode, Taint } from '../domain/types';
import { goQuote } from '../domain/validation/field-errors';
import type { LabelMatcher } from '../domain/label-selector/parse-label-selector';
import { parseBody } from '../kernel/http/input/parse-body';
import { compileLabelSelector } from '../kernel/http/label-selection';
import type { StoredPod } from '../kernel/model/stored-objects';
import type { BoundPodView } from '../kernel/snapshot/pod-store';
import type { InventorySnapshot } from '../kernel/snapshot/inventory-snapshot';
import { SnapshotService } from '../kernel/snapshot/snapshot.service';
import type { Clock } from '../kernel/timers/clock';
import type { PodRef, TaintImpactAnswer, TaintImpactEvictionView } from './decision-answers';
import { taintImpactBodySchema, type TaintImpactBody } from './decision-bodies';
import { matchOptionsOf } from './decision-requests';
import { groupPendingPods, pendingImpact, type PendingGroup } from './pending-impact';
import { decodeTaintImpactCursor, pageTaintImpact } from './taint-impact-paging';
import type { TaintImpactSummary } from './taint-impact-summary';
import { countsOf, countTaintImpact } from './taint-impact-counts';
import { writeTaintImpactSummaryJson } from './taint-impact-summary-json';
import { writeTaintImpactJson } from './taint-impact-json';
import { rePlaceFromColumns } from './re-placement-columns';
import { taintImpactReplacementBytes } from './taint-impact-replacement-bytes';
import {
  BudgetTally,
  budgetImpact,
  rePlacementImpact,
  type ImpactEviction,
  type PlacementOutcome,
  type RePlaceablePod,
} from './disruption-impact';

/**
 * POST /v1/decisions/taint-impact: what a taint change would do to bound and pending pods, answered from
 * the in-memory snapshot; nothing is written.
 */
@Injectable()
export class TaintImpactService {
  /** Pending pods grouped by scheduling spec, valid while the snapshot has not changed. */
  private pendingGroups: { changeCount: number; groups: Array<PendingGroup<StoredPod>> } | undefined;
  private readonly matchOptions: MatchOptions;

  constructor(
    private readonly snapshots: SnapshotService,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.matchOptions = matchOptionsOf(config);
  }

  /**
   * POST /v1/decisions/taint-impact: `kubectl taint --overwrite` applied in memory to the target
   * nodes at `at`, then the NoExecute rule (A.3) for their bound pods and the filters for pending pods.
   * A removal that matches nothing on a node is ignored on that node and reported in `warnings`
   * (kubectl would refuse the whole command; a what-if over a selector should still answer).
   */
  taintImpact(body: unknown): TaintImpactAnswer {
    const input = parseBody(taintImpactBodySchema, body, 'taint-impact request');
    if (input.summary) {
      throw new AppError('BadRequest', '"summary": true answers with counts (taintImpactSummary), not the lists', [
        {
          field: 'summary',
          type: 'Invalid value',
          message: 'Invalid value: true: the lists and the summary are separate answers',
        },
      ]);
    }
    const cursor = input.continue !== undefined ? decodeTaintImpactCursor(input.continue) : undefined;
    if (cursor && input.limit === undefined) throw continueNeedsLimit();
    const impact = this.computeTaintImpact(input, cursor?.at);
    const disruption = this.disruptionOf(impact, input.replacement === true);
    const placements = disruption.placements;
    // `outcome`: the re-placement of this eviction, when asked for (placements are in impact.evictions' order)
    const present = (e: (typeof impact.evictions)[number], outcome: PlacementOutcome | undefined) => {
      const view: TaintImpactEvictionView = {
        pod: refOf(e.pod),
        node: e.node,
        action: e.action,
        afterSeconds: e.afterSeconds,
        evictAt: e.evictAt,
      };
      if (outcome) {
        view.placement = outcome.placement;
        if (outcome.reason) view.unplacedReason = outcome.reason;
      }
      return view;
    };
    const presentTolerating = (t: (typeof impact.tolerating)[number]) => ({ pod: refOf(t.pod), node: t.node });
    const pendingLists = {
      unschedulablePending: impact.pending.lost.map((pod) => ({ pod: refOf(pod) })).sort(byPod),
      schedulablePending: impact.pending.gained.map((pod) => ({ pod: refOf(pod) })).sort(byPod),
    };
    if (input.limit === undefined) {
      return {
        at: impact.at,
        evictions: impact.evictions.map((e, i) => present(e, placements?.[i])),
        tolerating: impact.tolerating.map(presentTolerating),
        ...pendingLists,
        warnings: impact.warnings,
        ...disruption.reports,
      };
    }
    // Paged: pending pods and warnings come with the first page only; every page keeps the first one's `at`.
    const page = pageTaintImpact(
      impact.evictions,
      impact.tolerating,
      input.limit,
      impact.at,
      cursor,
      (e) => e.pod,
      (t) => t.pod,
    );
    // a page is a contiguous slice of impact.evictions: its placements start where its first eviction is
    const first = placements && page.evictions.length > 0 ? impact.evictions.indexOf(page.evictions[0]) : 0;
    return {
      at: impact.at,
      evictions: page.evictions.map((e, i) => present(e, placements?.[first + i])),
      tolerating: page.tolerating.map(presentTolerating),
      ...(cursor
        ? { unschedulablePending: [], schedulablePending: [], warnings: [], budgets: [] }
        : { ...pendingLists, warnings: impact.warnings, ...disruption.reports }),
      ...(page.continue !== undefined ? { continue: page.continue } : {}),
      remainingItemCount: page.remainingItemCount,
    };
  }

  /**
   * The lists answer as REST JSON bytes written from the pod columns (taint-impact-json.ts), for the
   * whole answer without re-placement; undefined for a page, re-placement or the summary, which the
   * caller answers with `taintImpact` (GraphQL always does: it selects fields from the objects).
   */
  taintImpactJson(body: unknown): Buffer | undefined {
    const input = parseBody(taintImpactBodySchema, body, 'taint-impact request');
    if (input.summary || input.replacement || input.limit !== undefined || input.continue !== undefined)
      return undefined;
    const proposal = this.proposeTaints(input);
    const { snapshot } = proposal;
    const nodes = columnTargets(proposal);
    return writeTaintImpactJson(
      snapshot.podColumns(),
      nodes,
      proposal.at,
      this.matchOptions,
      new BudgetTally(snapshot),
      { ...this.pendingRefs(proposal), warnings: proposal.warnings },
    );
  }

  /**
   * The whole answer with re-placement (`replacement: true`, no page) as the REST bytes, from the pod
   * columns (re-placement-columns.ts, taint-impact-replacement-bytes.ts); undefined otherwise, for
   * the caller to answer with `taintImpact` (pages and GraphQL read the objects).
   */
  taintImpactReplacementBytes(body: unknown): Buffer | undefined {
    const input = parseBody(taintImpactBodySchema, body, 'taint-impact request');
    if (input.summary || !input.replacement || input.limit !== undefined || input.continue !== undefined)
      return undefined;
    const proposal = this.proposeTaints(input);
    const { snapshot } = proposal;
    const nodes = columnTargets(proposal);
    const budgets = new BudgetTally(snapshot);
    const answer = rePlaceFromColumns(snapshot, nodes, proposal.after, proposal.at, this.matchOptions, budgets);
    return taintImpactReplacementBytes(snapshot.podColumns(), nodes, answer, proposal.at, {
      ...this.pendingRefs(proposal),
      warnings: proposal.warnings,
      budgets: budgets.views(),
    });
  }

  /** taint-impact's counts form (`summary: true`): per node, per action and per workload, earliest/latest evictAt. */
  taintImpactSummary(body: unknown): TaintImpactSummary {
    const { counted, at, pending, warnings } = this.countImpact(body);
    return {
      at,
      counts: {
        ...countsOf(counted.total),
        unschedulablePending: pending.unschedulable,
        schedulablePending: pending.schedulable,
      },
      byNode: counted.byNode.map(({ name, tally }) => ({ node: name, ...countsOf(tally) })),
      byWorkload: counted.byWorkload.map(({ namespace, kind, name, tally }) => ({
        namespace,
        kind,
        name,
        ...countsOf(tally),
      })),
      warnings,
    };
  }

  /** The counts form as REST JSON bytes, written from the tallies (taint-impact-summary-json.ts): no Dates. */
  taintImpactSummaryJson(body: unknown): Buffer {
    const { counted, ...rest } = this.countImpact(body);
    return writeTaintImpactSummaryJson(counted, rest);
  }

  private countImpact(body: unknown) {
    const input = parseBody(taintImpactBodySchema, body, 'taint-impact request');
    if (input.limit !== undefined || input.continue !== undefined) {
      throw new AppError('BadRequest', 'the summary is one answer: "limit" and "continue" page the lists only', [
        {
          field: input.limit !== undefined ? 'limit' : 'continue',
          type: 'Invalid value',
          message: 'Invalid value: not with "summary": true',
        },
      ]);
    }
    const proposal = this.proposeTaints(input);
    // counted from the pod columns, packed per node: no view, decision or Date per pod (taint-impact-counts.ts)
    const nodes = proposal.targets.map(({ node, taints }) => ({
      name: node.name,
      pods: proposal.snapshot.boundPodsPacked(node.name),
      taints,
    }));
    const counted = countTaintImpact(proposal.snapshot.podColumns(), nodes, proposal.at, this.matchOptions);
    const pending = this.pendingOf(proposal);
    return {
      counted,
      at: proposal.at,
      pending: { unschedulable: pending.lost.length, schedulable: pending.gained.length },
      warnings: proposal.warnings,
    };
  }

  /** The what-if itself, as the lists and their pages read it: every bound pod of the targets decided. */
  private computeTaintImpact(input: TaintImpactBody, pinnedAt?: Date) {
    const proposal = this.proposeTaints(input, pinnedAt);
    const bound: Array<PodOnTaintedNode<BoundPodView>> = [];
    for (const { node, taints } of proposal.targets) {
      // Pods in (namespace, name) order per node, nodes by name: the answer needs no global sort. Light
      // views (boundAt already defaulted to createdAt), not StoredPods: ~15,000 per request on a pool.
      for (const pod of proposal.snapshot.boundPodViews(node.name).sort(compareRefs))
        bound.push({ pod, node: node.name, taints });
    }
    const partition = partitionTaintImpact(bound, proposal.at, this.matchOptions);
    const { at, warnings, after, snapshot } = proposal;
    const pending = this.pendingOf(proposal);
    return { at, evictions: partition.evictions, tolerating: partition.tolerating, pending, warnings, after, snapshot };
  }

  /**
   * The taint change applied in memory to the target nodes (by name), shared by the lists and the
   * summary: each target's proposed taints, the nodes whose scheduling taints change (as they are and
   * as they would be), and the warnings for removals that match nothing.
   */
  private proposeTaints(input: TaintImpactBody, pinnedAt?: Date) {
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
    const at = pinnedAt ?? (input.at !== undefined ? new Date(input.at) : this.clock.now());
    const snapshot = this.snapshots.snapshot;
    const targetNodes = this.candidateNodes(snapshot, input.nodes, input.all ? undefined : input.labelSelector);

    const warnings: string[] = [];
    const before = new Map<string, SchedulingNode>();
    const after = new Map<string, SchedulingNode>();
    const internTaints = taintInterner();
    // The change's outcome depends on a node's taints only (with timeAdded), and a pool's nodes share
    // them: worked out once per distinct list (500 nodes of a pool, 1 list), and the nodes that share
    // it share the proposed array too, so the NoExecute rule is judged once per (tolerations, list).
    const outcomes = new Map<string, ProposedTaints>();
    const proposed: Array<{ node: SchedulingNode; taints: readonly Taint[] }> = [];
    for (const node of targetNodes) {
      const current = snapshot.nodeTaints(node.name)!;
      const key = taintListKey(current);
      let outcome = outcomes.get(key);
      if (outcome === undefined) {
        const remove: TaintRemoval[] = [];
        const missing: TaintRemoval[] = [];
        for (const removal of changes.remove)
          (current.some((taint) => matchesRemoval(taint, removal)) ? remove : missing).push(removal);
        const applied = applyTaintChanges(
          node.name,
          current,
          { add: changes.add, remove },
          { overwrite: true, now: at },
        );
        const changed = schedulingSignature(applied.taints) !== schedulingSignature(current);
        outcome = { taints: applied.taints, missing, after: changed ? internTaints(applied.taints) : undefined };
        outcomes.set(key, outcome);
      }
      for (const removal of outcome.missing)
        warnings.push(
          `node ${node.name}: taint ${goQuote(taintToString(removal))} not found (kubectl taint would refuse the command; ignored on this node)`,
        );
      if (outcome.after !== undefined) {
        before.set(node.name, node);
        after.set(node.name, { ...node, taints: outcome.after });
      }
      proposed.push({ node, taints: outcome.taints });
    }
    return { at, snapshot, targets: proposed, before, after, warnings };
  }

  /** Pending pods that lose their last feasible node or gain a first one (the grouping is kept per snapshot). */
  private pendingOf(proposal: ReturnType<TaintImpactService['proposeTaints']>) {
    const { snapshot, before, after } = proposal;
    return pendingImpact(this.pendingGroupsOf(snapshot), snapshot.schedulingNodes(), before, after);
  }

  /** The pending pods the change affects as the byte writers take them: references in (namespace, name) order. */
  private pendingRefs(proposal: ReturnType<TaintImpactService['proposeTaints']>) {
    const pending = this.pendingOf(proposal);
    return {
      unschedulablePending: pending.lost.map((pod) => ({ pod: refOf(pod) })).sort(byPod),
      schedulablePending: pending.gained.map((pod) => ({ pod: refOf(pod) })).sort(byPod),
    };
  }

  /**
   * The disruption reports (SEMANTICS B.9.4–B.9.5): budgets always (cheap: per label set, per namespace);
   * re-placement only when asked, since it places every evicted pod in turn.
   */
  private disruptionOf(
    impact: ReturnType<TaintImpactService['computeTaintImpact']>,
    replacement: boolean,
  ): { reports: Pick<TaintImpactAnswer, 'budgets' | 'workloads' | 'stranded'>; placements?: PlacementOutcome[] } {
    // the partition's rows carry what the budgets read (namespace, labels, phase)
    const budgets = budgetImpact(impact.snapshot, impact.evictions);
    if (!replacement) return { reports: { budgets } };
    // what re-placement reads of each pod, not whole StoredPods (no Dates, uid, version per pod)
    const evictions: Array<ImpactEviction<RePlaceablePod>> = impact.evictions.map((e) => ({
      pod: impact.snapshot.rePlaceablePod(e.pod),
      node: e.node,
      action: e.action,
      evictAt: e.evictAt,
    }));
    const placed = rePlacementImpact(impact.snapshot, evictions, impact.after, this.matchOptions);
    return {
      reports: { budgets, workloads: placed.workloads, stranded: placed.stranded },
      placements: placed.placements,
    };
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
    if (labelSelector === undefined) return snapshot.schedulingNodes();
    const matches = compileLabelSelector(labelSelector);
    // A requirement `key=value` (or `key in (value)`) narrows the nodes to look at through the snapshot's
    // label index; the whole selector still decides on each of them.
    const exact = (matches as Partial<LabelMatcher>).requirements?.find(
      (r) => (r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1,
    );
    const nodes = exact ? snapshot.nodesLabelled(exact.key, exact.values[0]) : snapshot.schedulingNodes();
    return nodes.filter((node) => matches(node.labels));
  }

  private pendingGroupsOf(snapshot: InventorySnapshot): Array<PendingGroup<StoredPod>> {
    if (this.pendingGroups?.changeCount !== snapshot.changeCount) {
      const changeCount = snapshot.changeCount;
      this.pendingGroups = { changeCount, groups: groupPendingPods(snapshot.pending(), this.matchOptions) };
    }
    return this.pendingGroups.groups;
  }
}

/**
 * One distinct current taint list under the change: the proposed list, the removals it lacks, and (when
 * the scheduling taints change) the interned list.
 */
interface ProposedTaints {
  taints: readonly Taint[];
  missing: TaintRemoval[];
  after: readonly Taint[] | undefined;
}

/**
 * `taintListKey`'s text per stored taint list (a node's list is replaced, never changed in place, when
 * the node is written): a request over a 500-node pool then builds no string per node (~100 KiB of
 * young garbage per request, measured with the sampling heap profiler) to find the one outcome they share.
 */
const listKeys = new WeakMap<readonly Taint[], string>();

/** Everything applyTaintChanges reads of a node's taints, in order: key, value (absent apart), effect, timeAdded. */
function taintListKey(taints: readonly Taint[]): string {
  let key = listKeys.get(taints);
  if (key === undefined) listKeys.set(taints, (key = taintListText(taints)));
  return key;
}

function taintListText(taints: readonly Taint[]): string {
  let key = '';
  for (const t of taints)
    key += `${t.key}\u0000${t.value === undefined ? '\u0001' : t.value}\u0000${t.effect}\u0000${t.timeAdded === undefined ? 'u' : t.timeAdded === null ? 'n' : t.timeAdded.getTime()}\u0002`;
  return key;
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

function continueNeedsLimit(): AppError {
  return new AppError('BadRequest', '"continue" goes with "limit": pass the same limit as the previous page', [
    { field: 'limit', type: 'Required value', message: 'Required value: with "continue"' },
  ]);
}

/** The target nodes as the column writers read them: name, bound pods' slots in name order, proposed taints. */
function columnTargets(proposal: {
  snapshot: InventorySnapshot;
  targets: ReadonlyArray<{ node: { name: string }; taints: readonly Taint[] }>;
}) {
  return proposal.targets.map(({ node, taints }) => ({
    name: node.name,
    slots: proposal.snapshot.boundSlotsInNameOrder(node.name),
    taints,
  }));
}

function refOf(pod: { namespace: string; name: string }): PodRef {
  return { namespace: pod.namespace, name: pod.name };
}

const compareRefs = (a: PodRef, b: PodRef) =>
  a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
const byPod = (a: { pod: PodRef }, b: { pod: PodRef }) => compareRefs(a.pod, b.pod);
