/**
 * A pod's effective requests and limits as resource lists, the way
 * k8s.io/component-helpers/resource/helpers.go `PodRequests` / `PodLimits` compute them from the spec:
 * containers summed, init containers as a maximum, restartable init containers (sidecars) added,
 * pod-level resources (`spec.resources`, PodLevelResources) replacing the aggregate for the resources
 * they support, and `spec.overhead` added (to limits only where a non-zero limit exists).
 *
 * The container arithmetic is domain/resources/pod-requests.ts; this file adds limits and pod-level
 * resources, which the importer needs to keep the pod's `resources` as the cluster sees them.
 */
import {
  effectivePodRequests,
  type ContainerResources,
  type PodRequestsError,
} from '../../domain/resources/pod-requests';
import { fromResourceVector, toResourceVector } from '../../domain/resources/quantity';
import type { PodResources, ResourceList, ResourceVector } from '../../domain/types';

export interface PodResourcesInput {
  containers: readonly ContainerResources[];
  initContainers: readonly ContainerResources[];
  overhead?: ResourceList | null;
  /** `spec.resources` (pod-level resources). */
  podLevel?: PodResources | null;
}

export interface ResourceListResult {
  list: ResourceList;
  vector: ResourceVector;
  /** Bad quantities, `field` relative to the pod spec (`containers[0].resources.limits.cpu`). */
  errors: PodRequestsError[];
}

/** helpers.go `IsSupportedPodLevelResource`: cpu, memory and hugepages-*. */
export function isSupportedPodLevelResource(resource: string): boolean {
  return resource === 'cpu' || resource === 'memory' || resource.startsWith('hugepages-');
}

/** Pod-level entries replace the aggregate for supported resources (helpers.go `applyPodLevelResources`). */
function applyPodLevel(
  vector: ResourceVector,
  podLevel: ResourceList | undefined,
  field: string,
  errors: PodRequestsError[],
): void {
  const supported = Object.fromEntries(
    Object.entries(podLevel ?? {}).filter(([resource]) => isSupportedPodLevelResource(resource)),
  );
  const converted = toResourceVector(supported);
  for (const error of converted.errors) errors.push({ field: `${field}.${error.resource}`, ...error });
  Object.assign(vector, converted.vector);
}

/**
 * `PodRequests`: what the scheduler charges the node for the pod.
 * @example effectivePodRequestsList({ containers: [{ resources: { requests: { cpu: '100m' } } }], initContainers: [{
 * resources: { requests: { cpu: '1' } } }] }).list
 *   // { cpu: '1' }
 */
export function effectivePodRequestsList(input: PodResourcesInput): ResourceListResult {
  const { vector, errors } = effectivePodRequests({
    containers: input.containers,
    initContainers: input.initContainers,
  });
  // API defaulting copies a pod-level limit into a missing pod-level request.
  const podLevel = { ...(input.podLevel?.limits ?? {}), ...(input.podLevel?.requests ?? {}) };
  applyPodLevel(vector, podLevel, 'resources.requests', errors);
  const overhead = toResourceVector(input.overhead);
  for (const error of overhead.errors) errors.push({ field: `overhead.${error.resource}`, ...error });
  for (const [resource, amount] of Object.entries(overhead.vector)) vector[resource] = (vector[resource] ?? 0) + amount;
  return { vector, list: formatResourceList(vector), errors };
}

/**
 * `PodLimits`: the same aggregation over limits only (a missing limit is not filled from the request),
 * pod-level limits applied, and overhead added to the resources that have a non-zero limit.
 */
export function effectivePodLimits(input: PodResourcesInput): ResourceListResult {
  const limitsOnly = (containers: readonly ContainerResources[]): ContainerResources[] =>
    containers.map((c) => ({
      restartPolicy: c.restartPolicy,
      resources: { requests: c.resources?.limits ?? undefined },
    }));
  const { vector, errors } = effectivePodRequests({
    containers: limitsOnly(input.containers),
    initContainers: limitsOnly(input.initContainers),
  });
  for (const error of errors) error.field = error.field.replace('.resources.requests.', '.resources.limits.');
  applyPodLevel(vector, input.podLevel?.limits ?? undefined, 'resources.limits', errors);
  const overhead = toResourceVector(input.overhead);
  for (const [resource, amount] of Object.entries(overhead.vector)) {
    if ((vector[resource] ?? 0) !== 0) vector[resource] += amount;
  }
  return { vector, list: formatResourceList(vector), errors };
}

const BINARY_SUFFIXES = ['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const DECIMAL_SUFFIXES = ['k', 'M', 'G', 'T', 'P', 'E'];

/** Byte-sized resources get a suffix when one divides them exactly (`73400320` → `70Mi`). */
function isByteResource(resource: string): boolean {
  return resource === 'memory' || resource === 'ephemeral-storage' || resource.startsWith('hugepages-');
}

/** The largest exact suffix: binary first (`70Mi`), then decimal (`100M`), else the integer. */
export function formatBytes(amount: number): string {
  if (!Number.isSafeInteger(amount) || amount === 0) return String(amount);
  for (const [suffixes, base] of [
    [BINARY_SUFFIXES, 1024],
    [DECIMAL_SUFFIXES, 1000],
  ] as const) {
    let value = amount;
    let index = -1;
    while (value % base === 0 && index < suffixes.length - 1) {
      value /= base;
      index++;
    }
    if (index >= 0) return `${value}${suffixes[index]}`;
  }
  return String(amount);
}

/**
 * A vector back to quantity strings, exactly: cpu as cores or millicores (fromResourceVector), bytes
 * with the largest suffix that divides them, counts as integers.
 * @example formatResourceList({ cpu: 1100, memory: 73400320, 'nvidia.com/gpu': 1 }) // { cpu: '1100m', memory: '70Mi',
 * 'nvidia.com/gpu': '1' }
 */
export function formatResourceList(vector: ResourceVector): ResourceList {
  const list = fromResourceVector(vector);
  for (const [resource, amount] of Object.entries(vector)) {
    if (isByteResource(resource)) list[resource] = formatBytes(amount);
  }
  return list;
}
