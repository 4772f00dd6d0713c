import type { SchedulingNode, Taint } from '../types';
import { DEFAULT_MATCH_OPTIONS, type MatchOptions } from '../tolerations/tolerates-taint';
import { compilePod, type CompiledPod, type PodToPlace } from './compile-pod';
import type { FilterReason } from './filter-reason';
import { fitErrorMessage } from './fit-error-message';
import { NODE_AFFINITY_MESSAGE, NODE_AFFINITY_REASON, preferredAffinityWeight } from './node-affinity';
import { insufficientResourceReason } from './node-resources-fit';
import { isNodeTable, nodeTableOf, projectLabels, resourceFree, type NodeTable } from './node-table';
import { UNSCHEDULABLE_MESSAGE, UNSCHEDULABLE_REASON } from './node-unschedulable';
import { MAX_NODE_SCORE, normalizeScore, totalScore } from './normalize-score';
import {
  countIntolerablePreferNoSchedule,
  firstUntoleratedFilterTaint,
  untoleratedTaintReason,
} from './taint-toleration';

export interface FeasibleNode {
  name: string;
  feasible: true;
  /** Weighted total of the normalised plugin scores, 0..100 (see normalize-score.ts `totalScore`). */
  score: number;
  scores: { TaintToleration: number; NodeAffinity: number };
}

export interface InfeasibleNode {
  name: string;
  feasible: false;
  /**
   * Every failing check, in plugin order (SEMANTICS A.2); TaintToleration names the first untolerated
   * taint. Equal reasons are the same object within one answer: read-only.
   */
  reasons: FilterReason[];
}

/** The `/v1/decisions/feasible-nodes` answer (API.md). */
export interface FeasibleNodesDecision {
  totalNodes: number;
  feasibleCount: number;
  message: string;
  /** Feasible nodes first, best score first then by name; then the infeasible ones by name. Capped by `limit`. */
  nodes: Array<FeasibleNode | InfeasibleNode>;
}

export interface FeasibleNodesOptions {
  /** Used when the pod is not compiled yet; a CompiledPod keeps the options it was compiled with. */
  matchOptions?: MatchOptions;
  /** Upstream's redacted taint wording and no `taint` field (A.2). */
  redactTaints?: boolean;
  /** Caps `nodes` only, never the counts or the message. Default: no cap. */
  limit?: number;
  /**
   * With a {@link NodeTable}: the candidate nodes, as increasing row indexes of the table (so in name
   * order). Default: every node of the table.
   */
  candidates?: Int32Array;
  /**
   * Working arrays to reuse across calls (one per caller that decides often: allocating and zeroing
   * ~100 kB of typed arrays per request showed up in profiles). Default: fresh ones for this call.
   */
  scratch?: FeasibleNodesScratch;
  /**
   * Called with the nodes that every filter but NodeResourcesFit lets through, as increasing row indexes
   * of the table: what `candidates` can be narrowed to while only the nodes' resources change (the
   * feasible nodes, and so the normalised scores and the order, stay the same; the counts and the
   * message do not).
   */
  onResourceOnlyCandidates?: (rows: Int32Array) => void;
}

/** What a node's taint list means for this pod; computed once per taint class per call. */
interface TaintVerdict {
  untolerated: Taint | undefined;
  /** The TaintToleration reason, when `untolerated` is set. */
  reason: FilterReason | undefined;
  preferCount: number;
}

// One bit per filter plugin, lowest bit = earliest plugin (B.4.3 order).
const UNSCHEDULABLE = 1;
const TAINT = 2;
const AFFINITY = 4;
const RESOURCES = 8;

// Per-group NodeAffinity state within one call.
const UNKNOWN = 0;
const MATCHES = 1;
const DOES_NOT_MATCH = 2;

/**
 * Runs the filter plugins (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit, in
 * upstream order, B.4.3) and, over the feasible nodes only, the TaintToleration and NodeAffinity score
 * plugins, for one pod against candidate nodes. Pure: the answer depends on the arguments only.
 *
 * Built for thousands of nodes per request, over a {@link NodeTable} (pass one, or a node array: the
 * table the snapshot attached to it is used, else one is built): the pod is compiled once (pass a
 * {@link CompiledPod} to reuse it); the taint verdict is computed once per taint class; the required
 * affinity and the preferred-affinity weight once per group of nodes agreeing on the label keys the
 * pod reads (`projectLabels`); the per-node loop reads typed arrays only and allocates nothing; the
 * message is counted with integers; nodes are ordered by a counting sort on the integer score (0..100)
 * that keeps name order within a score; answer objects are built only for the nodes `limit` keeps.
 * @example decideFeasibleNodes({ spec: { tolerations: [] } }, nodes, { limit: 100 }).message
 *   // '3/5 nodes are available: 2 node(s) had untolerated taint {dedicated: gpu}.'
 */
export function decideFeasibleNodes(
  pod: CompiledPod | PodToPlace,
  nodes: readonly SchedulingNode[] | NodeTable,
  options: FeasibleNodesOptions = {},
): FeasibleNodesDecision {
  const compiled = isCompiled(pod) ? pod : compilePod(pod, options.matchOptions ?? DEFAULT_MATCH_OPTIONS);
  const table = isNodeTable(nodes) ? nodes : nodeTableOf(nodes);
  const redact = options.redactTaints ?? false;
  const { requiredAffinity, preferredAffinity, requests } = compiled;
  const scoresAffinity = preferredAffinity.length > 0;
  const candidates = options.candidates;
  const count = candidates === undefined ? table.count : candidates.length;

  const { tooManyPods, unschedulable, taintClassOf } = table;

  const taintClassCount = table.taintClasses.length;
  const { verdicts, taintFails, taintPrefer } = judgeTaintClasses(table, compiled, candidates, redact);
  const taintFirst = new Int32Array(taintClassCount);

  // NodeAffinity, once per group (in use) of nodes that look the same to the pod's matchers.
  const usesLabels = requiredAffinity !== undefined || scoresAffinity;
  const projection = usesLabels ? projectLabels(table, compiled.affinityKeys) : undefined;
  const labelClassOf = projection?.classOf;
  const scratch = options.scratch ?? new FeasibleNodesScratch();
  const { affinityState, affinityWeight } = scratch.forGroups(projection?.classCount ?? 0);
  if (projection !== undefined) judgeLabelGroups(projection, compiled, candidates, { affinityState, affinityWeight });

  // NodeResourcesFit: one free-amount column per requested resource, in check order.
  const resourceCount = requests.names.length;
  const amounts = Float64Array.from(requests.amounts);
  const freeColumns = requests.names.map((resource) => resourceFree(table, resource));
  // The first three checks unrolled for the loop; an absent one compares -Infinity (never more).
  const amount0 = resourceCount > 0 ? amounts[0] : -Infinity;
  const amount1 = resourceCount > 1 ? amounts[1] : -Infinity;
  const amount2 = resourceCount > 2 ? amounts[2] : -Infinity;
  const free0 = resourceCount > 0 ? freeColumns[0] : table.cpuFree;
  const free1 = resourceCount > 1 ? freeColumns[1] : table.cpuFree;
  const free2 = resourceCount > 2 ? freeColumns[2] : table.cpuFree;

  const { failures, feasible, scores, ranked } = scratch.forNodes(count);
  const checkUnschedulable = !compiled.toleratesUnschedulable;
  // First-failure counters for the message, kept as integers in the loop and named at the end.
  let unschedulableFirst = 0;
  let affinityFirst = 0;
  let tooManyPodsFirst = 0;
  const insufficientFirst = new Int32Array(resourceCount);
  let feasibleCount = 0;
  let maxTaintRaw = 0;
  let maxAffinityRaw = 0;

  for (let p = 0; p < count; p++) {
    const i = candidates === undefined ? p : candidates[p];
    let failed = 0;
    if (checkUnschedulable && unschedulable[i] === 1) failed |= UNSCHEDULABLE;
    const taintClass = taintClassOf[i];
    if (taintFails[taintClass] === 1) failed |= TAINT;
    const labelClass = labelClassOf === undefined ? 0 : labelClassOf[i];
    if (labelClassOf !== undefined && affinityState[labelClass] !== MATCHES) failed |= AFFINITY;
    if (tooManyPods[i] === 1 || amount0 > free0[i] || amount1 > free1[i] || amount2 > free2[i]) failed |= RESOURCES;
    else {
      for (let r = 3; r < resourceCount; r++) {
        if (amounts[r] > freeColumns[r][i]) {
          failed |= RESOURCES;
          break;
        }
      }
    }

    failures[p] = failed;
    if (failed === 0) {
      feasible[feasibleCount++] = p;
      const taintScore = taintPrefer[taintClass];
      if (taintScore > maxTaintRaw) maxTaintRaw = taintScore;
      if (scoresAffinity && affinityWeight[labelClass] > maxAffinityRaw) maxAffinityRaw = affinityWeight[labelClass];
      continue;
    }
    // The aggregate message counts each node once, by its first failing plugin (A.2, B.4.3).
    if (failed & UNSCHEDULABLE) unschedulableFirst++;
    else if (failed & TAINT) taintFirst[taintClass]++;
    else if (failed & AFFINITY) affinityFirst++;
    else {
      if (tooManyPods[i] === 1) tooManyPodsFirst++;
      for (let r = 0; r < resourceCount; r++) if (amounts[r] > freeColumns[r][i]) insufficientFirst[r]++;
    }
  }

  if (options.onResourceOnlyCandidates !== undefined) {
    let kept = 0;
    for (let p = 0; p < count; p++) if ((failures[p] & ~RESOURCES) === 0) kept++;
    const rows = new Int32Array(kept);
    kept = 0;
    for (let p = 0; p < count; p++)
      if ((failures[p] & ~RESOURCES) === 0) rows[kept++] = candidates === undefined ? p : candidates[p];
    options.onResourceOnlyCandidates(rows);
  }

  const reasonCounts = countFirstFailures(verdicts, requests.names, {
    unschedulable: unschedulableFirst,
    taint: taintFirst,
    affinity: affinityFirst,
    tooManyPods: tooManyPodsFirst,
    insufficient: insufficientFirst,
  });

  // Normalised scores (DefaultNormalizeScore over the feasible nodes) depend on the classes only.
  const taintScoreOf = new Uint8Array(taintClassCount);
  for (let c = 0; c < taintClassCount; c++) taintScoreOf[c] = normalizeScore(taintPrefer[c], maxTaintRaw, true);
  const affinityScoreOf = scoresAffinity
    ? classScores(affinityWeight, projection!.classCount, maxAffinityRaw)
    : undefined;
  const scoreAt = (p: number): number => {
    const i = candidates === undefined ? p : candidates[p];
    if (affinityScoreOf === undefined) return taintScoreOf[taintClassOf[i]];
    return TOTAL_SCORE[taintScoreOf[taintClassOf[i]] * (MAX_NODE_SCORE + 1) + affinityScoreOf[labelClassOf![i]]];
  };

  // The best `limit` feasible nodes (rankBest), then the infeasible ones in name order with every reason.
  const limit = Number.isNaN(options.limit) ? count : Math.max(0, Math.min(options.limit ?? count, count));
  const names = table.names;
  const answer: Array<FeasibleNode | InfeasibleNode> = [];
  const shown = Math.min(limit, feasibleCount);
  if (shown > 0) {
    for (let k = 0; k < feasibleCount; k++) scores[k] = scoreAt(feasible[k]);
    rankBest(feasible, scores, feasibleCount, shown, ranked);
    for (let r = 0; r < shown; r++) {
      const i = candidates === undefined ? ranked[r] : candidates[ranked[r]];
      const taintScore = taintScoreOf[taintClassOf[i]];
      const affinityScore = affinityScoreOf === undefined ? 0 : affinityScoreOf[labelClassOf![i]];
      answer.push({
        name: names[i],
        feasible: true,
        score:
          affinityScoreOf === undefined ? taintScore : TOTAL_SCORE[taintScore * (MAX_NODE_SCORE + 1) + affinityScore],
        scores: { TaintToleration: taintScore, NodeAffinity: affinityScore },
      });
    }
  }
  const context = { table, candidates, verdicts, requests, amounts, freeColumns };
  explainInfeasible(failures, count, limit, context, answer);

  return {
    totalNodes: count,
    feasibleCount,
    message: fitErrorMessage(feasibleCount, count, reasonCounts),
    nodes: answer,
  };
}

/** `totalScore(t, a, true)` for every pair of normalised scores, t·101 + a. */
const TOTAL_SCORE = (() => {
  const table = new Uint8Array((MAX_NODE_SCORE + 1) * (MAX_NODE_SCORE + 1));
  for (let t = 0; t <= MAX_NODE_SCORE; t++) {
    for (let a = 0; a <= MAX_NODE_SCORE; a++) table[t * (MAX_NODE_SCORE + 1) + a] = totalScore(t, a, true);
  }
  return table;
})();

/** The NodeAffinity score of each group: DefaultNormalizeScore of its raw weight. */
function classScores(weights: Float64Array, classCount: number, maxRaw: number): Uint8Array {
  const normalised = new Uint8Array(classCount);
  for (let c = 0; c < classCount; c++) normalised[c] = normalizeScore(weights[c], maxRaw, false);
  return normalised;
}

function isCompiled(pod: CompiledPod | PodToPlace): pod is CompiledPod {
  return (pod as CompiledPod).kind === 'CompiledPod';
}

/**
 * Per-node and per-group working arrays of {@link decideFeasibleNodes}, grown on demand. Reusing one is
 * safe because a call runs to completion without yielding and writes every slot it reads first; nothing
 * of them escapes into the answer. Not shared between concurrent callers in other threads.
 */
export class FeasibleNodesScratch {
  private nodes = allocateNodeArrays(0);
  private groups = allocateGroupArrays(0);

  /** Arrays for `count` nodes (contents undefined: the caller writes before reading). */
  forNodes(count: number): ReturnType<typeof allocateNodeArrays> {
    if (this.nodes.capacity < count) this.nodes = allocateNodeArrays(Math.max(count, this.nodes.capacity * 2, 1024));
    return this.nodes;
  }

  /** Arrays for `count` node-affinity groups, their states reset to unknown. */
  forGroups(count: number): ReturnType<typeof allocateGroupArrays> {
    if (this.groups.capacity < count) this.groups = allocateGroupArrays(Math.max(count, this.groups.capacity * 2, 256));
    this.groups.affinityState.fill(UNKNOWN, 0, count);
    return this.groups;
  }
}

function allocateNodeArrays(capacity: number) {
  return {
    capacity,
    failures: new Uint8Array(capacity),
    /** Positions of the feasible nodes, in name order. */
    feasible: new Int32Array(capacity),
    /** Score of `feasible[k]`. */
    scores: new Uint8Array(capacity),
    ranked: new Int32Array(capacity),
  };
}

function allocateGroupArrays(capacity: number) {
  return { capacity, affinityState: new Uint8Array(capacity), affinityWeight: new Float64Array(capacity) };
}

/** TaintToleration, once per taint class in use (class 0: no taints): the verdict, fails, and prefer count. */
function judgeTaintClasses(
  table: NodeTable,
  compiled: CompiledPod,
  candidates: Int32Array | undefined,
  redact: boolean,
) {
  const { filterTolerations, preferTolerations, matchOptions } = compiled;
  const classCount = table.taintClasses.length;
  const verdicts: Array<TaintVerdict | undefined> = new Array(classCount);
  const taintFails = new Uint8Array(classCount);
  const taintPrefer = new Int32Array(classCount);
  const judge = (taintClass: number) => {
    const taints = table.taintClasses[taintClass];
    const untolerated = firstUntoleratedFilterTaint(taints, filterTolerations, matchOptions);
    const verdict: TaintVerdict = {
      untolerated,
      reason: untolerated ? untoleratedTaintReason(untolerated, redact) : undefined,
      preferCount: countIntolerablePreferNoSchedule(taints, preferTolerations, matchOptions),
    };
    verdicts[taintClass] = verdict;
    taintFails[taintClass] = untolerated === undefined ? 0 : 1;
    taintPrefer[taintClass] = verdict.preferCount;
  };
  if (candidates === undefined) for (let c = 0; c < classCount; c++) judge(c);
  else for (const i of candidates) if (verdicts[table.taintClassOf[i]] === undefined) judge(table.taintClassOf[i]);
  return { verdicts, taintFails, taintPrefer };
}

/** NodeAffinity, once per group (in use) of nodes that look the same to the pod's matchers. */
function judgeLabelGroups(
  projection: NonNullable<ReturnType<typeof projectLabels>>,
  compiled: CompiledPod,
  candidates: Int32Array | undefined,
  out: { affinityState: Uint8Array; affinityWeight: Float64Array },
): void {
  const { requiredAffinity, preferredAffinity } = compiled;
  const judge = (labelClass: number) => {
    const representative = projection.representatives[labelClass];
    out.affinityWeight[labelClass] =
      preferredAffinity.length > 0 ? preferredAffinityWeight(preferredAffinity, representative) : 0;
    out.affinityState[labelClass] =
      requiredAffinity === undefined || requiredAffinity(representative) ? MATCHES : DOES_NOT_MATCH;
  };
  const classOf = projection.classOf;
  if (candidates === undefined) for (let c = 0; c < projection.classCount; c++) judge(c);
  else for (const i of candidates) if (out.affinityState[classOf[i]] === UNKNOWN) judge(classOf[i]);
}

/** The aggregate message's counts: each node once, by its first failing plugin (A.2, B.4.3). */
function countFirstFailures(
  verdicts: ReadonlyArray<TaintVerdict | undefined>,
  resources: readonly string[],
  first: { unschedulable: number; taint: Int32Array; affinity: number; tooManyPods: number; insufficient: Int32Array },
): Map<string, number> {
  const counts = new Map<string, number>();
  const count = (message: string, times: number) => {
    if (times > 0) counts.set(message, (counts.get(message) ?? 0) + times);
  };
  count(UNSCHEDULABLE_MESSAGE, first.unschedulable);
  verdicts.forEach((verdict, c) => {
    if (verdict?.reason) count(verdict.reason.message, first.taint[c]);
  });
  count(NODE_AFFINITY_MESSAGE, first.affinity);
  count(insufficientResourceReason('pods').message, first.tooManyPods);
  resources.forEach((name, r) => count(insufficientResourceReason(name).message, first.insufficient[r]));
  return counts;
}

/**
 * The best `shown` of the feasible positions by score (descending), in name order within a score, into
 * `ranked`: count the scores, find the lowest score that makes it into the answer, then place positions in
 * name order, stopping once every place is taken (a counting sort that skips what the answer does not show).
 */
function rankBest(
  feasible: Int32Array,
  scores: Uint8Array,
  feasibleCount: number,
  shown: number,
  ranked: Int32Array,
): void {
  const perScore = new Int32Array(MAX_NODE_SCORE + 1);
  for (let k = 0; k < feasibleCount; k++) perScore[scores[k]]++;
  // places: scores above `lowest` all get theirs; `lowest` gets what is left, first names first
  const start = new Int32Array(MAX_NODE_SCORE + 1);
  let lowest = MAX_NODE_SCORE;
  let taken = 0;
  for (let score = MAX_NODE_SCORE; score >= 0; score--) {
    start[score] = taken;
    taken += perScore[score];
    lowest = score;
    if (taken >= shown) break;
  }
  const end = start[lowest] + Math.min(perScore[lowest], shown - start[lowest]);
  let placed = 0;
  for (let k = 0; k < feasibleCount && placed < shown; k++) {
    const score = scores[k];
    if (score < lowest || (score === lowest && start[lowest] === end)) continue;
    ranked[start[score]++] = feasible[k];
    placed++;
  }
}

/** The infeasible candidates in name order, each with every failing check, until the answer holds `limit`. */
function explainInfeasible(
  failures: Uint8Array,
  count: number,
  limit: number,
  context: {
    table: NodeTable;
    candidates: Int32Array | undefined;
    verdicts: ReadonlyArray<TaintVerdict | undefined>;
    requests: CompiledPod['requests'];
    amounts: Float64Array;
    freeColumns: ReadonlyArray<ArrayLike<number>>;
  },
  answer: Array<FeasibleNode | InfeasibleNode>,
): void {
  const { table, candidates, verdicts, requests, amounts, freeColumns } = context;
  const { names, taintClassOf, tooManyPods } = table;
  const resourceCount = requests.names.length;
  // reason objects are shared by the nodes of one answer (read-only): one per distinct reason
  const unschedulableReason = { ...UNSCHEDULABLE_REASON };
  const affinityReason = { ...NODE_AFFINITY_REASON };
  const resourceReasons = new Map<string, FilterReason>();
  const resourceReason = (resource: string) => {
    let reason = resourceReasons.get(resource);
    if (reason === undefined) resourceReasons.set(resource, (reason = insufficientResourceReason(resource)));
    return reason;
  };
  for (let p = 0; p < count && answer.length < limit; p++) {
    const failed = failures[p];
    if (failed === 0) continue;
    const i = candidates === undefined ? p : candidates[p];
    const reasons: FilterReason[] = [];
    if (failed & UNSCHEDULABLE) reasons.push(unschedulableReason);
    if (failed & TAINT) reasons.push(verdicts[taintClassOf[i]]!.reason!);
    if (failed & AFFINITY) reasons.push(affinityReason);
    if (failed & RESOURCES) {
      // insufficientResources' order: the pod count first, then the requests in check order.
      if (tooManyPods[i] === 1) reasons.push(resourceReason('pods'));
      for (let r = 0; r < resourceCount; r++)
        if (amounts[r] > freeColumns[r][i]) reasons.push(resourceReason(requests.names[r]));
    }
    answer.push({ name: names[i], feasible: false, reasons });
  }
}
