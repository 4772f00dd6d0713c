import type { SchedulingNode, Taint } from '../types';
import { DEFAULT_MATCH_OPTIONS, type MatchOptions } from '../tolerations/tolerates-taint';
import { compilePod, type CompiledPod, type PodToPlace } from './compile-pod';
import type { FilterReason } from './filter-reason';
import { fitErrorMessage } from './fit-error-message';
import { NODE_AFFINITY_MESSAGE, NODE_AFFINITY_REASON, preferredAffinityWeight } from './node-affinity';
import { fitsResources, insufficientResourceReason, insufficientResources } from './node-resources-fit';
import { UNSCHEDULABLE_MESSAGE, UNSCHEDULABLE_REASON } from './node-unschedulable';
import { MAX_NODE_SCORE, normalizeScore, totalScore } from './normalize-score';
import { countIntolerablePreferNoSchedule, firstUntoleratedFilterTaint, untoleratedTaintReason } from './taint-toleration';

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
}

/** What a node's taint list means for this pod; identical lists share one verdict per call. */
interface TaintVerdict {
  untolerated: Taint | undefined;
  /** The TaintToleration reason, when `untolerated` is set. */
  reason: FilterReason | undefined;
  preferCount: number;
  /** Nodes with this taint list whose first failure is TaintToleration (for the message). */
  firstFailures: number;
}

// One bit per filter plugin, lowest bit = earliest plugin (B.4.3 order).
const UNSCHEDULABLE = 1;
const TAINT = 2;
const AFFINITY = 4;
const RESOURCES = 8;

/**
 * Runs the filter plugins (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit, in
 * upstream order, B.4.3) and, over the feasible nodes only, the TaintToleration and NodeAffinity score
 * plugins, for one pod against candidate nodes. Pure: the answer depends on the arguments only.
 *
 * Built for thousands of nodes per request: the pod is compiled once (pass a {@link CompiledPod} to
 * reuse it); the taint verdict is computed once per distinct taint ARRAY (the snapshot interns
 * identical taint lists, so a `Map` keyed by the array object collapses 5,000 nodes to a handful of
 * verdicts; un-interned arrays are still correct, only slower); the per-node loop writes into reused
 * typed arrays and allocates nothing; the message is counted with integers; nodes are ordered by a
 * counting sort on the integer score (0..100) that keeps input order within a score, the input being
 * sorted by name (checked on the way; if it is not, indexes are sorted by name once); answer objects
 * are built only for the nodes `limit` keeps.
 * @example decideFeasibleNodes({ spec: { tolerations: [] } }, nodes, { limit: 100 }).message
 *   // '3/5 nodes are available: 2 node(s) had untolerated taint {dedicated: gpu}.'
 */
export function decideFeasibleNodes(
  pod: CompiledPod | PodToPlace,
  nodes: readonly SchedulingNode[],
  options: FeasibleNodesOptions = {},
): FeasibleNodesDecision {
  const compiled = isCompiled(pod) ? pod : compilePod(pod, options.matchOptions ?? DEFAULT_MATCH_OPTIONS);
  const redact = options.redactTaints ?? false;
  const { filterTolerations, preferTolerations, matchOptions, requiredAffinity, preferredAffinity, requests } = compiled;
  const scoresAffinity = preferredAffinity.length > 0;

  const noTaints: TaintVerdict = { untolerated: undefined, reason: undefined, preferCount: 0, firstFailures: 0 };
  const verdicts = new Map<readonly Taint[], TaintVerdict>();
  const verdictOf = (taints: readonly Taint[]): TaintVerdict => {
    if (taints.length === 0) return noTaints;
    let verdict = verdicts.get(taints);
    if (verdict === undefined) {
      const untolerated = firstUntoleratedFilterTaint(taints, filterTolerations, matchOptions);
      verdict = {
        untolerated,
        reason: untolerated ? untoleratedTaintReason(untolerated, redact) : undefined,
        preferCount: countIntolerablePreferNoSchedule(taints, preferTolerations, matchOptions),
        firstFailures: 0,
      };
      verdicts.set(taints, verdict);
    }
    return verdict;
  };

  const count = nodes.length;
  const { failures, taintRaw, affinityRaw, scores, ranked } = scratchFor(count);
  const checkUnschedulable = !compiled.toleratesUnschedulable;
  // First-failure counters for the message, kept as integers in the loop and named at the end.
  let unschedulableFirst = 0;
  let affinityFirst = 0;
  let tooManyPodsFirst = 0;
  const insufficientFirst = new Int32Array(requests.names.length);
  let feasibleCount = 0;
  let maxTaintRaw = 0;
  let maxAffinityRaw = 0;
  let sortedByName = true;
  let previousName = '';

  for (let i = 0; i < count; i++) {
    const node = nodes[i];
    if (node.name < previousName) sortedByName = false;
    previousName = node.name;

    let failed = 0;
    if (checkUnschedulable && node.unschedulable) failed |= UNSCHEDULABLE;
    const verdict = verdictOf(node.taints);
    if (verdict.untolerated !== undefined) failed |= TAINT;
    if (requiredAffinity !== undefined && !requiredAffinity(node)) failed |= AFFINITY;
    if (!fitsResources(requests, node)) failed |= RESOURCES;

    failures[i] = failed;
    if (failed === 0) {
      feasibleCount++;
      const taintScore = verdict.preferCount;
      taintRaw[i] = taintScore;
      if (taintScore > maxTaintRaw) maxTaintRaw = taintScore;
      const weight = scoresAffinity ? preferredAffinityWeight(preferredAffinity, node) : 0;
      affinityRaw[i] = weight;
      if (weight > maxAffinityRaw) maxAffinityRaw = weight;
      continue;
    }
    // The aggregate message counts each node once, by its first failing plugin (A.2, B.4.3).
    if (failed & UNSCHEDULABLE) unschedulableFirst++;
    else if (failed & TAINT) verdict.firstFailures++;
    else if (failed & AFFINITY) affinityFirst++;
    else countInsufficient(node);
  }

  function countInsufficient(node: SchedulingNode): void {
    const allocatable = node.allocatable!; // RESOURCES only fails with an allocatable
    const requested = node.requested;
    if (allocatable.pods !== undefined && (requested.pods ?? 0) + 1 > allocatable.pods) tooManyPodsFirst++;
    for (let r = 0; r < requests.names.length; r++) {
      const name = requests.names[r];
      if (requests.amounts[r] > (allocatable[name] ?? 0) - (requested[name] ?? 0)) insufficientFirst[r]++;
    }
  }

  const reasonCounts = new Map<string, number>();
  const countReason = (message: string, times: number) => {
    if (times > 0) reasonCounts.set(message, (reasonCounts.get(message) ?? 0) + times);
  };
  countReason(UNSCHEDULABLE_MESSAGE, unschedulableFirst);
  for (const verdict of verdicts.values()) if (verdict.reason) countReason(verdict.reason.message, verdict.firstFailures);
  countReason(NODE_AFFINITY_MESSAGE, affinityFirst);
  countReason(insufficientResourceReason('pods').message, tooManyPodsFirst);
  requests.names.forEach((name, r) => countReason(insufficientResourceReason(name).message, insufficientFirst[r]));

  // Scores of feasible nodes, and a counting sort by score (descending), stable in name order.
  const order = sortedByName ? undefined : nameOrder(nodes);
  const at = (position: number) => (order === undefined ? position : order[position]);
  const bucketStart = new Int32Array(MAX_NODE_SCORE + 2);
  for (let i = 0; i < count; i++) {
    if (failures[i] !== 0) continue;
    const score = totalScore(
      normalizeScore(taintRaw[i], maxTaintRaw, true),
      normalizeScore(affinityRaw[i], maxAffinityRaw, false),
      scoresAffinity,
    );
    scores[i] = score;
    bucketStart[MAX_NODE_SCORE - score + 1]++;
  }
  for (let b = 1; b < bucketStart.length; b++) bucketStart[b] += bucketStart[b - 1];

  const limit = Number.isNaN(options.limit) ? count : Math.max(0, Math.min(options.limit ?? count, count));
  const answer: Array<FeasibleNode | InfeasibleNode> = [];
  if (limit > 0 && feasibleCount > 0) {
    for (let p = 0; p < count; p++) {
      const i = at(p);
      if (failures[i] === 0) ranked[bucketStart[MAX_NODE_SCORE - scores[i]]++] = i;
    }
    for (let r = 0; r < feasibleCount && answer.length < limit; r++) {
      const i = ranked[r];
      answer.push({
        name: nodes[i].name,
        feasible: true,
        score: scores[i],
        scores: {
          TaintToleration: normalizeScore(taintRaw[i], maxTaintRaw, true),
          NodeAffinity: normalizeScore(affinityRaw[i], maxAffinityRaw, false),
        },
      });
    }
  }
  // Reason objects are shared by the nodes of one answer (read-only): one per distinct reason.
  const unschedulableReason = { ...UNSCHEDULABLE_REASON };
  const affinityReason = { ...NODE_AFFINITY_REASON };
  const resourceReasons = new Map<string, FilterReason>();
  const resourceReason = (resource: string) => {
    let reason = resourceReasons.get(resource);
    if (reason === undefined) resourceReasons.set(resource, (reason = insufficientResourceReason(resource)));
    return reason;
  };
  for (let p = 0; p < count && answer.length < limit; p++) {
    const i = at(p);
    const failed = failures[i];
    if (failed === 0) continue;
    const node = nodes[i];
    const reasons: FilterReason[] = [];
    if (failed & UNSCHEDULABLE) reasons.push(unschedulableReason);
    if (failed & TAINT) reasons.push(verdictOf(node.taints).reason!);
    if (failed & AFFINITY) reasons.push(affinityReason);
    if (failed & RESOURCES) for (const resource of insufficientResources(requests, node)) reasons.push(resourceReason(resource));
    answer.push({ name: node.name, feasible: false, reasons });
  }

  return { totalNodes: count, feasibleCount, message: fitErrorMessage(feasibleCount, count, reasonCounts), nodes: answer };
}

/**
 * Per-node working arrays, reused from call to call (allocating and zeroing ~100 kB of typed arrays
 * per request showed up in profiles). Safe because a call runs to completion without yielding and
 * every slot it reads is written first in that same call; nothing of them escapes into the answer.
 */
let scratch = allocateScratch(1024);

function allocateScratch(capacity: number) {
  return {
    capacity,
    failures: new Uint8Array(capacity),
    taintRaw: new Int32Array(capacity),
    affinityRaw: new Float64Array(capacity),
    scores: new Uint8Array(capacity),
    ranked: new Int32Array(capacity),
  };
}

function scratchFor(count: number) {
  if (scratch.capacity < count) scratch = allocateScratch(Math.max(count, scratch.capacity * 2));
  return scratch;
}

function isCompiled(pod: CompiledPod | PodToPlace): pod is CompiledPod {
  return (pod as CompiledPod).kind === 'CompiledPod';
}

/** Node indexes in name order (code-unit order, as Go compares the ASCII names). */
function nameOrder(nodes: readonly SchedulingNode[]): Int32Array {
  const order = Int32Array.from(nodes.keys());
  return order.sort((a, b) => {
    const x = nodes[a].name;
    const y = nodes[b].name;
    return x < y ? -1 : x > y ? 1 : a - b;
  });
}
