import { anyFeasibleNode } from '../domain/scheduling/any-feasible-node';
import { compilePod, type CompiledPod } from '../domain/scheduling/compile-pod';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { Affinity, ResourceVector, SchedulingNode, Taint, Toleration } from '../domain/types';

/** What of a pending pod the scheduling filters read. */
export interface PendingPodSpec {
  tolerations: Toleration[];
  nodeSelector: Record<string, string>;
  affinity: Affinity | null;
  requests: ResourceVector;
}

/** Pending pods with an identical scheduling spec: one compiled pod answers for all of them. */
export interface PendingGroup<P> {
  compiled: CompiledPod;
  pods: P[];
}

/**
 * Groups pending pods by their scheduling inputs (tolerations, nodeSelector, affinity, requests), so a
 * what-if evaluates each distinct spec once: a Deployment's 300 pending replicas are one group.
 * Specs that differ only by key order land in different groups — slower, never wrong.
 */
export function groupPendingPods<P extends PendingPodSpec>(
  pods: Iterable<P>,
  matchOptions: MatchOptions,
): Array<PendingGroup<P>> {
  const groups = new Map<string, PendingGroup<P>>();
  for (const pod of pods) {
    const key = JSON.stringify([pod.tolerations, pod.nodeSelector, pod.affinity, pod.requests]);
    let group = groups.get(key);
    if (group === undefined) {
      const spec = { tolerations: pod.tolerations, nodeSelector: pod.nodeSelector, affinity: pod.affinity };
      group = { compiled: compilePod({ spec, requests: pod.requests }, matchOptions), pods: [] };
      groups.set(key, group);
    }
    group.pods.push(pod);
  }
  return [...groups.values()];
}

export interface PendingImpact<P> {
  /** Had at least one feasible node before the change and none after. */
  lost: P[];
  /** Had no feasible node before the change and at least one after. */
  gained: P[];
}

/**
 * Which pending pods lose their last feasible node, or gain a first one, when some nodes' taints
 * change. `before` and `after` hold the CHANGED nodes only, by name, as they are and as they would
 * be; every other node of `allNodes` is the same on both sides. So per group: feasibility on the
 * changed nodes before and after (a few hundred checks, the taint verdict computed once per distinct
 * taint list); only when those differ does it matter whether some UNchanged node is feasible, and
 * that scan stops at the first one. Nothing here ranks or explains: it is a yes/no per group.
 */
export function pendingImpact<P>(
  groups: ReadonlyArray<PendingGroup<P>>,
  allNodes: readonly SchedulingNode[],
  before: ReadonlyMap<string, SchedulingNode>,
  after: ReadonlyMap<string, SchedulingNode>,
): PendingImpact<P> {
  const impact: PendingImpact<P> = { lost: [], gained: [] };
  if (before.size === 0 || groups.length === 0) return impact;
  const changedBefore = [...before.values()];
  const changedAfter = [...after.values()];
  const isChanged = (node: SchedulingNode) => before.has(node.name);
  for (const group of groups) {
    const verdicts = new Map<readonly Taint[], boolean>();
    const feasibleBefore = anyFeasibleNode(group.compiled, changedBefore, undefined, verdicts);
    const feasibleAfter = anyFeasibleNode(group.compiled, changedAfter, undefined, verdicts);
    if (feasibleBefore === feasibleAfter) continue;
    if (anyFeasibleNode(group.compiled, allNodes, isChanged, verdicts)) continue;
    (feasibleBefore ? impact.lost : impact.gained).push(...group.pods);
  }
  return impact;
}
