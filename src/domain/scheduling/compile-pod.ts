import type { PodSpec, ResourceVector, Toleration } from '../types';
import { DEFAULT_MATCH_OPTIONS, type MatchOptions } from '../tolerations/tolerates-taint';
import { effectivePodRequests } from '../resources/pod-requests';
import { toleratesUnschedulable } from './node-unschedulable';
import { filterTolerations, preferNoScheduleTolerations } from './taint-toleration';
import {
  compilePreferredNodeAffinity,
  compileRequiredNodeAffinity,
  nodeAffinityKeys,
  type AffinityKeys,
  type CompiledPreference,
  type NodeMatcher,
} from './node-affinity';
import { compileRequests, type CompiledRequests } from './node-resources-fit';

/**
 * Everything the filter and score plugins need from a pod, worked out once per decision instead of
 * once per node (what upstream's PreFilter/PreScore cycle state holds).
 */
export interface CompiledPod {
  readonly kind: 'CompiledPod';
  readonly matchOptions: MatchOptions;
  /** NodeUnschedulable (B.4.2), decided once: it does not depend on the node. */
  readonly toleratesUnschedulable: boolean;
  /** Tolerations with effect NoSchedule, NoExecute or empty: the only ones the filter can use. */
  readonly filterTolerations: readonly Toleration[];
  /** Tolerations with effect PreferNoSchedule or empty: TaintToleration PreScore's subset. */
  readonly preferTolerations: readonly Toleration[];
  /** nodeSelector AND required node affinity; undefined when the pod constrains nothing. */
  readonly requiredAffinity: NodeMatcher | undefined;
  /** Preferred terms with a positive weight; empty means NodeAffinity scoring is skipped. */
  readonly preferredAffinity: readonly CompiledPreference[];
  /** What the two matchers above read from a node: they are evaluated once per group of nodes agreeing on it. */
  readonly affinityKeys: AffinityKeys;
  readonly requests: CompiledRequests;
}

/** A pod to place: its spec and, optionally, its requests already as a canonical vector. */
export interface PodToPlace {
  spec: PodSpec;
  /** Default: the spec's pod-level `resources` (limits standing in for missing requests). */
  requests?: ResourceVector;
}

/**
 * Compiles a pod for {@link decideFeasibleNodes}. Invalid quantities in `spec.resources` are ignored
 * here (validation reports them); pass `requests` to decide from an already computed vector.
 */
export function compilePod(pod: PodToPlace, matchOptions: MatchOptions = DEFAULT_MATCH_OPTIONS): CompiledPod {
  const { spec } = pod;
  const tolerations = spec.tolerations ?? [];
  const requests = pod.requests ?? effectivePodRequests({ containers: [{ resources: spec.resources }] }).vector;
  return {
    kind: 'CompiledPod',
    matchOptions,
    toleratesUnschedulable: toleratesUnschedulable(tolerations, matchOptions),
    filterTolerations: filterTolerations(tolerations),
    preferTolerations: preferNoScheduleTolerations(tolerations),
    requiredAffinity: compileRequiredNodeAffinity(spec),
    preferredAffinity: compilePreferredNodeAffinity(spec),
    affinityKeys: nodeAffinityKeys(spec),
    requests: compileRequests(requests),
  };
}
