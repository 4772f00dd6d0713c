import type { SchedulingNode, Taint } from '../types';
import type { CompiledPod } from './compile-pod';
import { fitsResources } from './node-resources-fit';
import { firstUntoleratedFilterTaint } from './taint-toleration';

/**
 * Whether a compiled pod passes every filter plugin on one node (B.4.3: NodeUnschedulable,
 * TaintToleration, NodeAffinity, NodeResourcesFit) — the yes/no half of {@link decideFeasibleNodes},
 * without reasons or scores. `taintVerdicts` caches the TaintToleration verdict per taint ARRAY (the
 * snapshot interns identical lists), so share one map across the nodes of one pod; never across pods.
 * @example passesFilters(compilePod({ spec: { tolerations: [] } }), { name: 'n1', labels: {}, taints: [],
 * unschedulable: false, allocatable: null, requested: {} }, new Map()) === true
 */
export function passesFilters(
  pod: CompiledPod,
  node: SchedulingNode,
  taintVerdicts: Map<readonly Taint[], boolean>,
): boolean {
  if (node.unschedulable && !pod.toleratesUnschedulable) return false;
  if (node.taints.length > 0) {
    let tolerated = taintVerdicts.get(node.taints);
    if (tolerated === undefined) {
      tolerated = firstUntoleratedFilterTaint(node.taints, pod.filterTolerations, pod.matchOptions) === undefined;
      taintVerdicts.set(node.taints, tolerated);
    }
    if (!tolerated) return false;
  }
  if (pod.requiredAffinity !== undefined && !pod.requiredAffinity(node)) return false;
  return fitsResources(pod.requests, node);
}

/**
 * Whether ANY of the nodes is feasible for the pod, stopping at the first one that is: what a
 * what-if needs to know about a pending pod ("does it still have somewhere to go?") without ranking
 * thousands of nodes. `skip` leaves nodes out (e.g. the ones a proposed change is about).
 * Agrees with `decideFeasibleNodes(pod, nodes).feasibleCount > 0` (checked in the spec).
 * @example anyFeasibleNode(compilePod({ spec: { tolerations: [] } }), [cordonedNode, plainNode]) === true
 */
export function anyFeasibleNode(
  pod: CompiledPod,
  nodes: Iterable<SchedulingNode>,
  skip?: (node: SchedulingNode) => boolean,
  taintVerdicts: Map<readonly Taint[], boolean> = new Map(),
): boolean {
  for (const node of nodes) {
    if (skip !== undefined && skip(node)) continue;
    if (passesFilters(pod, node, taintVerdicts)) return true;
  }
  return false;
}
