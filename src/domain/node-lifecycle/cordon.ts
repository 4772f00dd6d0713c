import type { Taint } from '../types';
import { TAINT_NODE_UNSCHEDULABLE } from '../tolerations/well-known-taints';

/**
 * `kubectl cordon`: the node's taints once `spec.unschedulable` is true — the lifecycle controller adds
 * `node.kubernetes.io/unschedulable:NoSchedule` (SEMANTICS A.7, B.6.4) stamped `now`; an existing one
 * is kept with its `timeAdded`. Other taints are untouched.
 */
export function cordonTaints(taints: readonly Taint[], now: Date): Taint[] {
  const copy = taints.map((taint) => ({ ...taint }));
  if (taints.some(isUnschedulableTaint)) return copy;
  return [...copy, { key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule', timeAdded: now }];
}

/** `kubectl uncordon`: the node's taints without `node.kubernetes.io/unschedulable:NoSchedule`. */
export function uncordonTaints(taints: readonly Taint[]): Taint[] {
  return taints.filter((taint) => !isUnschedulableTaint(taint)).map((taint) => ({ ...taint }));
}

function isUnschedulableTaint(taint: Taint): boolean {
  return taint.key === TAINT_NODE_UNSCHEDULABLE && taint.effect === 'NoSchedule';
}
