import type { ResourceVector, SchedulingNode } from '../types';
import type { CompiledPod } from './compile-pod';
import { decideFeasibleNodes, FeasibleNodesScratch } from './feasible-nodes';
import { fitsResources } from './node-resources-fit';
import { buildNodeTable, chargePodInPlace, nodeIndex, withLabelCachesOf, type NodeTable } from './node-table';

/** One pod to re-place, in the order given (the caller sorts: priority, eviction time, name). */
export interface PodToRePlace {
  compiled: CompiledPod;
  /** The canonical request vector the compiled pod was made from (charged to the chosen node). */
  requests: ResourceVector;
  /**
   * Pods with the same `group` have the same compiled spec and requests (a workload's pods): they share
   * the best node until it fills up.
   */
  group: string;
}

export type RePlacement = { node: string } | { node: null; message: string };

export interface RePlaceOptions {
  /**
   * A table of the same nodes (names and labels; taints and resources may differ), e.g. the snapshot's:
   * its label groups and name index are reused instead of worked out again for this what-if's table.
   */
  sameNodesAs?: NodeTable;
}

/**
 * Where the scheduler would put each pod if it were re-created now, one after another (docs/SEMANTICS.md
 * B.9.5): the pod goes to the first node of feasible-nodes' order (filters NodeUnschedulable,
 * TaintToleration, NodeAffinity, NodeResourcesFit; best score, then name), and its requests are
 * charged to that node before the next pod is placed. No node: `null` with the FitError message.
 *
 * `nodes` are the nodes as they would be after the change (their `requested` without the pods being
 * re-placed); they are copied, never changed. Pods of one group share the best node found by
 * {@link decideFeasibleNodes} and ask again once it can no longer hold the next one, over the nodes that
 * only their resources kept out (`rank`). (Between two asks, another group filling some other node can
 * move the normalised scores by a point: the best node is then the one of the last ask, not of a fresh
 * one.) A pod is only placed on a node that passes every filter
 * at that moment, and charged there before the next.
 */
export function rePlacePods(
  pods: readonly PodToRePlace[],
  nodes: readonly SchedulingNode[],
  options: RePlaceOptions = {},
): RePlacement[] {
  const table = ownTable(nodes, options.sameNodesAs);
  const copied = new Uint8Array(table.count);
  const scratch = new FeasibleNodesScratch();
  const rankings = new Map<string, Ranking>();
  const out: RePlacement[] = [];
  for (const pod of pods) {
    let ranking = rankings.get(pod.group);
    if (ranking === undefined) rankings.set(pod.group, (ranking = rank(pod.compiled, table, scratch)));
    for (;;) {
      const head = ranking.head;
      if (head === undefined) {
        out.push({ node: null, message: ranking.message });
        break;
      }
      if (fits(table, head, pod.compiled)) {
        charge(table, copied, head, pod.requests);
        out.push({ node: table.names[head] });
        break;
      }
      // The best node filled up: rank again over the nodes as they are now.
      rankings.set(pod.group, (ranking = rank(pod.compiled, table, scratch, ranking)));
    }
  }
  return out;
}

interface Ranking {
  /** The first feasible node in feasible-nodes' order, when there is one. */
  head: number | undefined;
  /** The FitError message of the decision (used when no node is left). */
  message: string;
  /**
   * The nodes every filter but NodeResourcesFit lets this group through: taints, labels and
   * `unschedulable` do not change while pods are placed, so ranking again only needs to look at these.
   */
  candidates: Int32Array;
}

/**
 * The group's best node over every node (its first ranking), or over its earlier candidates (ranking
 * again once its best node is full). Both give the same head: a feasible node is always a candidate, and
 * the normalised scores depend on the feasible nodes only. Over the candidates the counts and so the
 * message would be another's: when no node is left the message comes from a decision over every node.
 */
function rank(pod: CompiledPod, table: NodeTable, scratch: FeasibleNodesScratch, previous?: Ranking): Ranking {
  let candidates = previous?.candidates;
  if (candidates !== undefined) {
    const narrowed = decideFeasibleNodes(pod, table, { scratch, limit: 1, candidates });
    const best = narrowed.nodes[0];
    if (best?.feasible) return { head: nodeIndex(table, best.name), message: narrowed.message, candidates };
  }
  const decision = decideFeasibleNodes(pod, table, {
    scratch,
    limit: 1,
    onResourceOnlyCandidates: (rows) => (candidates = rows),
  });
  const best = decision.nodes[0];
  return {
    head: best?.feasible ? nodeIndex(table, best.name) : undefined,
    message: decision.message,
    candidates: candidates!,
  };
}

function fits(table: NodeTable, index: number, pod: CompiledPod): boolean {
  return fitsResources(pod.requests, table.nodes[index]);
}

/**
 * A table over a copy of the node array (the caller's nodes are copied when first charged, see
 * {@link charge}), with `sameNodesAs`' label caches when its nodes have the same names and labels.
 */
function ownTable(nodes: readonly SchedulingNode[], sameNodesAs: NodeTable | undefined): NodeTable {
  const table = buildNodeTable(nodes.slice());
  return sameNodesAs === undefined ? table : withLabelCachesOf(table, sameNodesAs);
}

/**
 * Charges the pod to node `index`, copying the node first if this what-if has not charged it yet, so
 * charging changes nothing the caller holds; a pool leaves a few hundred of 5,000 nodes to copy.
 */
function charge(table: NodeTable, copied: Uint8Array, index: number, requests: ResourceVector): void {
  if (copied[index] === 0) {
    const node = table.nodes[index];
    (table.nodes as SchedulingNode[])[index] = { ...node, requested: { ...node.requested } };
    copied[index] = 1;
  }
  chargePodInPlace(table, index, requests);
}
