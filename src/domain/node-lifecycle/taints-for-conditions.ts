import type { NodeCondition, Taint } from '../types';
import { matchTaint } from '../tolerations/taint-to-string';
import {
  TAINT_NODE_DISK_PRESSURE,
  TAINT_NODE_MEMORY_PRESSURE,
  TAINT_NODE_NETWORK_UNAVAILABLE,
  TAINT_NODE_NOT_READY,
  TAINT_NODE_PID_PRESSURE,
  TAINT_NODE_UNREACHABLE,
  TAINT_NODE_UNSCHEDULABLE,
} from '../tolerations/well-known-taints';

/**
 * Node conditions → the node lifecycle controller's taints (SEMANTICS A.7, B.6.4;
 * pkg/controller/nodelifecycle/node_lifecycle_controller.go).
 *
 * Deliberately not modelled: the per-zone rate-limited NoExecute queue (`--node-eviction-rate`,
 * secondary rate, large-cluster threshold), zone disruption states and the "all zones down: remove
 * every NoExecute taint" rule, `node.kubernetes.io/exclude-disruption`, and the monitor/startup grace
 * periods that turn a silent node's Ready into Unknown. taintwise taints at once, on the conditions it
 * is told about, stamped with the time they were reported; a caller wanting rate limits must add them.
 */

/** `nodeConditionToTaintKeyStatusMap`: condition type → status → NoSchedule taint key. */
const CONDITION_TAINT_KEYS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: TAINT_NODE_NOT_READY, Unknown: TAINT_NODE_UNREACHABLE },
  MemoryPressure: { True: TAINT_NODE_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_NODE_DISK_PRESSURE },
  NetworkUnavailable: { True: TAINT_NODE_NETWORK_UNAVAILABLE },
  PIDPressure: { True: TAINT_NODE_PID_PRESSURE },
};

/** The NoSchedule keys the controller owns (`taintKeyToNodeConditionMap` + unschedulable). */
export const LIFECYCLE_NO_SCHEDULE_KEYS: readonly string[] = [
  TAINT_NODE_NOT_READY,
  TAINT_NODE_UNREACHABLE,
  TAINT_NODE_MEMORY_PRESSURE,
  TAINT_NODE_DISK_PRESSURE,
  TAINT_NODE_NETWORK_UNAVAILABLE,
  TAINT_NODE_PID_PRESSURE,
  TAINT_NODE_UNSCHEDULABLE,
];

/** The NoExecute keys the controller owns; at most one is present at a time. */
export const LIFECYCLE_NO_EXECUTE_KEYS: readonly string[] = [TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE];

/**
 * Whether a taint is one the lifecycle controller manages: a NoSchedule taint with one of its keys, or
 * a not-ready/unreachable NoExecute taint. Anything else on the node (a user's `memory-pressure:NoExecute`
 * included) is never touched.
 */
export function isLifecycleTaint(taint: Pick<Taint, 'key' | 'effect'>): boolean {
  if (taint.effect === 'NoSchedule') return LIFECYCLE_NO_SCHEDULE_KEYS.includes(taint.key);
  if (taint.effect === 'NoExecute') return LIFECYCLE_NO_EXECUTE_KEYS.includes(taint.key);
  return false;
}

/**
 * `doNoScheduleTaintingPass`: the NoSchedule taints the conditions and `unschedulable` call for, in condition order.
 */
function wantedNoScheduleTaints(conditions: readonly NodeCondition[], unschedulable: boolean): Taint[] {
  const keys: string[] = [];
  for (const condition of conditions) {
    const key = CONDITION_TAINT_KEYS[condition.type]?.[condition.status];
    if (key !== undefined && !keys.includes(key)) keys.push(key);
  }
  if (unschedulable) keys.push(TAINT_NODE_UNSCHEDULABLE);
  return keys.map((key) => ({ key, effect: 'NoSchedule' }));
}

/**
 * `processTaintBaseEviction`, without the rate limiter: the NoExecute taint Ready calls for — not-ready
 * for False, unreachable for Unknown (mutually exclusive, swapped at once), none for True. Undefined
 * when there is no Ready condition (or an unknown status): then the NoExecute taints stay as they are,
 * as upstream's switch has no case for it.
 */
function wantedNoExecuteTaints(conditions: readonly NodeCondition[]): Taint[] | undefined {
  const ready = conditions.find((condition) => condition.type === 'Ready');
  switch (ready?.status) {
    case 'False':
      return [{ key: TAINT_NODE_NOT_READY, effect: 'NoExecute' }];
    case 'Unknown':
      return [{ key: TAINT_NODE_UNREACHABLE, effect: 'NoExecute' }];
    case 'True':
      return [];
    default:
      return undefined;
  }
}

/**
 * The node's taint list after the lifecycle controller has reconciled it with these conditions
 * (SEMANTICS A.7, B.6.4). Lifecycle taints no longer called for are removed; new ones are appended
 * (as `SwapNodeControllerTaint` does) with `timeAdded = now`; a lifecycle taint already present is kept
 * as it is, `timeAdded` included, so an unchanged condition never restarts an eviction clock (A.3).
 * Every other taint is untouched and keeps its place.
 * @example taintsForConditions([{ type: 'Ready', status: 'False' }], false, [], now)
 *   // -> [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: now },
 *   //     { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: now }]
 */
export function taintsForConditions(
  conditions: readonly NodeCondition[],
  unschedulable: boolean,
  existingTaints: readonly Taint[],
  now: Date,
): Taint[] {
  const noExecute = wantedNoExecuteTaints(conditions);
  const wanted = [...wantedNoScheduleTaints(conditions, unschedulable), ...(noExecute ?? [])];
  const managed = (taint: Taint) =>
    taint.effect === 'NoExecute' ? noExecute !== undefined && isLifecycleTaint(taint) : isLifecycleTaint(taint);

  const kept = existingTaints.filter((taint) => !managed(taint) || wanted.some((w) => matchTaint(w, taint)));
  const added = wanted
    .filter((w) => !existingTaints.some((taint) => matchTaint(w, taint)))
    .map((w) => ({ ...w, timeAdded: now }));
  return [...kept.map((taint) => ({ ...taint })), ...added];
}
