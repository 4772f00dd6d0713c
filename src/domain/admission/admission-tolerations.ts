import type { PodResources, Toleration } from '../types';
import { addOrUpdateToleration } from '../tolerations/match-toleration';
import {
  TAINT_NODE_DISK_PRESSURE,
  TAINT_NODE_MEMORY_PRESSURE,
  TAINT_NODE_NETWORK_UNAVAILABLE,
  TAINT_NODE_NOT_READY,
  TAINT_NODE_PID_PRESSURE,
  TAINT_NODE_UNREACHABLE,
  TAINT_NODE_UNSCHEDULABLE,
} from '../tolerations/well-known-taints';
import { isQualifiedName } from '../validation/label-names';
import { mergeTolerations } from './merge-tolerations';
import type { PodQosClass } from './pod-qos-class';

/**
 * The DaemonSet controller's tolerations: port of `AddOrUpdateDaemonPodTolerations`
 * (pkg/controller/daemon/util/daemonset_util.go, SEMANTICS B.6.2), in upstream's order, each through
 * add-or-update (identity ignores seconds, so a user's `not-ready Exists NoExecute 60s` becomes forever).
 */
export function addDaemonSetTolerations(tolerations: readonly Toleration[], hostNetwork: boolean): Toleration[] {
  const daemon: Toleration[] = [
    { key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute' },
    { key: TAINT_NODE_DISK_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_NODE_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_NODE_PID_PRESSURE, operator: 'Exists', effect: 'NoSchedule' },
    { key: TAINT_NODE_UNSCHEDULABLE, operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (hostNetwork) daemon.push({ key: TAINT_NODE_NETWORK_UNAVAILABLE, operator: 'Exists', effect: 'NoSchedule' });
  return daemon.reduce<Toleration[]>((list, toleration) => addOrUpdateToleration(list, toleration), [...tolerations]);
}

/**
 * DefaultTolerationSeconds admission (plugin/pkg/admission/defaulttolerationseconds, SEMANTICS B.6.1):
 * appends `not-ready` / `unreachable` `Exists NoExecute` tolerations with the configured seconds unless
 * the pod "already tolerates" them — any toleration whose key is that key or empty and whose effect is
 * NoExecute or empty, whatever its operator, value or seconds (B.8.15).
 */
export function addDefaultTolerationSeconds(
  tolerations: readonly Toleration[],
  notReadySeconds: number,
  unreachableSeconds: number,
): Toleration[] {
  const result = [...tolerations];
  const alreadyTolerates = (key: string) =>
    tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
  if (!alreadyTolerates(TAINT_NODE_NOT_READY)) {
    result.push({
      key: TAINT_NODE_NOT_READY,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: notReadySeconds,
    });
  }
  if (!alreadyTolerates(TAINT_NODE_UNREACHABLE)) {
    result.push({
      key: TAINT_NODE_UNREACHABLE,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: unreachableSeconds,
    });
  }
  return result;
}

/**
 * PodTolerationRestriction's memory-pressure toleration (SEMANTICS B.6.3): pods that are not BestEffort
 * get `memory-pressure Exists NoSchedule`, merged with `mergeTolerations`. Namespace/cluster default
 * tolerations and whitelists of that plugin are not modelled (taintwise has no namespace objects).
 */
export function addMemoryPressureToleration(tolerations: readonly Toleration[], qos: PodQosClass): Toleration[] {
  if (qos === 'BestEffort') return [...tolerations];
  return mergeTolerations(tolerations, [{ key: TAINT_NODE_MEMORY_PRESSURE, operator: 'Exists', effect: 'NoSchedule' }]);
}

/**
 * Whether a resource name is an extended resource: port of `helper.IsExtendedResourceName`
 * (pkg/apis/core/helper/helpers.go, SEMANTICS B.7): it has a `/`, does not contain `kubernetes.io/`
 * (native), is not `requests.`-prefixed, and `requests.<name>` is a qualified name.
 */
export function isExtendedResourceName(name: string): boolean {
  if (!name.includes('/') || name.includes('kubernetes.io/')) return false;
  if (name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/**
 * ExtendedResourceToleration admission (SEMANTICS B.7): for each extended resource the pod requests,
 * in sorted order, add-or-update `{key: <resource>, Exists, NoSchedule}`. Limits count too: API
 * defaulting has copied them into the requests by the time admission runs.
 */
export function addExtendedResourceTolerations(
  tolerations: readonly Toleration[],
  resources: PodResources | null | undefined,
): Toleration[] {
  const names = new Set([...Object.keys(resources?.requests ?? {}), ...Object.keys(resources?.limits ?? {})]);
  return [...names]
    .filter(isExtendedResourceName)
    .sort() // Go's sets.List order; the names are ASCII (they passed IsQualifiedName), so code units = bytes
    .reduce<Toleration[]>(
      (list, name) => addOrUpdateToleration(list, { key: name, operator: 'Exists', effect: 'NoSchedule' }),
      [...tolerations],
    );
}
