import type { Taint, Toleration } from '../types';
import { toleratesTaint, type MatchOptions } from '../tolerations/tolerates-taint';
import type { FilterReason } from './filter-reason';

/** The taint a cordoned node behaves as if it had, for the NodeUnschedulable plugin (SEMANTICS B.4.2). */
export const UNSCHEDULABLE_TAINT: Taint = Object.freeze({
  key: 'node.kubernetes.io/unschedulable',
  effect: 'NoSchedule',
});

/** `ErrReasonUnschedulable` of pkg/scheduler/framework/plugins/nodeunschedulable. */
export const UNSCHEDULABLE_MESSAGE = 'node(s) were unschedulable';

export const UNSCHEDULABLE_REASON: FilterReason = Object.freeze({
  plugin: 'NodeUnschedulable',
  message: UNSCHEDULABLE_MESSAGE,
});

/**
 * Whether the pod may land on a node with `spec.unschedulable: true`: it must tolerate the synthetic
 * `node.kubernetes.io/unschedulable:NoSchedule` taint (B.4.2) — `Exists`, or `Equal` with an empty
 * value, with effect NoSchedule or empty. Decided once per pod, not per node.
 * @example toleratesUnschedulable([{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists' }], options) === true
 */
export function toleratesUnschedulable(tolerations: readonly Toleration[], options: MatchOptions): boolean {
  return tolerations.some((toleration) => toleratesTaint(toleration, UNSCHEDULABLE_TAINT, options));
}
