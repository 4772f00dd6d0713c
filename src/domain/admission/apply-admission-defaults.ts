import type { PodSpec } from '../types';
import {
  addDaemonSetTolerations,
  addDefaultTolerationSeconds,
  addExtendedResourceTolerations,
  addMemoryPressureToleration,
} from './admission-tolerations';
import { podQosClass } from './pod-qos-class';

/** Each default is switchable (SEMANTICS A.6); all on, 300 s / 300 s, by default. */
export interface AdmissionDefaultsOptions {
  defaultTolerationSeconds: boolean;
  notReadySeconds: number;
  unreachableSeconds: number;
  daemonSetTolerations: boolean;
  memoryPressureToleration: boolean;
  extendedResourceToleration: boolean;
}

export const DEFAULT_ADMISSION_OPTIONS: AdmissionDefaultsOptions = {
  defaultTolerationSeconds: true,
  notReadySeconds: 300,
  unreachableSeconds: 300,
  daemonSetTolerations: true,
  memoryPressureToleration: true,
  extendedResourceToleration: true,
};

/**
 * The tolerations Kubernetes would add to a pod being created or replaced (SEMANTICS A.6, B.6.1-B.6.3, B.7),
 * applied in the order they run in a cluster:
 * 1. DaemonSet controller tolerations, when `owner.kind` is `DaemonSet` — the controller builds the pod
 *    before it ever reaches the API server;
 * 2. then the mutating admission plugins in kube-apiserver's fixed order (`AllOrderedPlugins`,
 *    pkg/kubeapiserver/options/plugins.go): DefaultTolerationSeconds, PodTolerationRestriction
 *    (memory-pressure), ExtendedResourceToleration.
 * The order only decides where the appended entries sit in the list: the tolerations the three
 * plugins add never tolerate the same taint as each other (different keys or effects), so it does not
 * change which toleration is "first" for a taint (A.3). The memory-pressure merge may however drop
 * tolerations made redundant by a broader one, as upstream's `MergeTolerations` does.
 * Returns a new PodSpec; the input is not modified.
 */
export function applyAdmissionDefaults(
  pod: PodSpec,
  options: AdmissionDefaultsOptions = DEFAULT_ADMISSION_OPTIONS,
): PodSpec {
  let tolerations = [...(pod.tolerations ?? [])];
  if (options.daemonSetTolerations && pod.owner?.kind === 'DaemonSet') {
    tolerations = addDaemonSetTolerations(tolerations, pod.hostNetwork === true);
  }
  if (options.defaultTolerationSeconds) {
    tolerations = addDefaultTolerationSeconds(tolerations, options.notReadySeconds, options.unreachableSeconds);
  }
  if (options.memoryPressureToleration) {
    tolerations = addMemoryPressureToleration(tolerations, podQosClass(pod.resources));
  }
  if (options.extendedResourceToleration) {
    tolerations = addExtendedResourceTolerations(tolerations, pod.resources);
  }
  return { ...pod, tolerations: tolerations.map((toleration) => ({ ...toleration })) };
}
