import type { ResourceVector, SchedulingNode } from '../types';
import type { FilterReason } from './filter-reason';

/**
 * NodeResourcesFit (pkg/scheduler/framework/plugins/noderesources/fit.go `fitsRequest`), on canonical
 * integer vectors (cpu in millicores, the rest in base units, see resources/quantity.ts).
 */

/** The pod's requests as the filter checks them, compiled once per pod. */
export interface CompiledRequests {
  /** Resources the pod requests a positive amount of, in upstream's check order. */
  names: string[];
  amounts: number[];
  // The same, split for the hot loop: named loads of the three first resources stay monomorphic.
  cpu: number;
  memory: number;
  ephemeralStorage: number;
  scalarNames: string[];
  scalarAmounts: number[];
}

const FIRST_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];

/**
 * Which requested resources the scheduler compares (`schedutil` keeps cpu, memory, ephemeral-storage
 * and the "scalar" resources: extended or prefixed-native names containing `/`, `hugepages-*`,
 * `attachable-volumes-*`; anything else a pod lists is ignored). `pods` is the node's pod count,
 * checked separately.
 */
export function isCheckedResource(resource: string): boolean {
  return (
    FIRST_RESOURCES.includes(resource) ||
    resource.includes('/') ||
    resource.startsWith('hugepages-') ||
    resource.startsWith('attachable-volumes-')
  );
}

/**
 * The pod's positive requests in upstream's order: cpu, memory, ephemeral-storage, then the scalar
 * resources (upstream walks a Go map, in random order; taintwise sorts them by name so reasons are stable).
 */
export function compileRequests(requests: ResourceVector): CompiledRequests {
  const names = Object.keys(requests)
    .filter((resource) => requests[resource] > 0 && isCheckedResource(resource))
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1)); // keys are unique: never equal
  const amounts = names.map((resource) => requests[resource]);
  const scalarNames = names.filter((resource) => !FIRST_RESOURCES.includes(resource));
  return {
    names,
    amounts,
    cpu: names.includes('cpu') ? requests.cpu : 0,
    memory: names.includes('memory') ? requests.memory : 0,
    ephemeralStorage: names.includes('ephemeral-storage') ? requests['ephemeral-storage'] : 0,
    scalarNames,
    scalarAmounts: scalarNames.map((resource) => requests[resource]),
  };
}

function rank(resource: string): number {
  const index = FIRST_RESOURCES.indexOf(resource);
  return index < 0 ? FIRST_RESOURCES.length : index;
}

/** `fitsRequest` wording: `Too many pods` for the pod count, `Insufficient <resource>` otherwise. */
export function insufficientResourceReason(resource: string): FilterReason {
  const message = resource === 'pods' ? 'Too many pods' : `Insufficient ${resource}`;
  return { plugin: 'NodeResourcesFit', message, resource };
}

/**
 * Whether the pod fits: for each requested resource, `request ≤ allocatable − requested` (a resource
 * the node does not list counts as 0 allocatable, so an unknown extended resource never fits), and
 * one more pod must fit under `allocatable.pods`.
 * taintwise choices: a node with `allocatable: null` has no limit at all (API.md), and a node whose
 * allocatable omits `pods` has no pod-count limit (kubelet always reports it; a hand-written
 * inventory that leaves it out would otherwise reject every pod).
 */
export function fitsResources(
  requests: CompiledRequests,
  node: Pick<SchedulingNode, 'allocatable' | 'requested'>,
): boolean {
  const allocatable = node.allocatable;
  if (!allocatable) return true;
  const requested = node.requested;
  const pods = allocatable.pods;
  if (pods !== undefined && (requested.pods ?? 0) + 1 > pods) return false;
  const { cpu, memory, ephemeralStorage, scalarNames, scalarAmounts } = requests;
  if (cpu > 0 && cpu > (allocatable.cpu ?? 0) - (requested.cpu ?? 0)) return false;
  if (memory > 0 && memory > (allocatable.memory ?? 0) - (requested.memory ?? 0)) return false;
  if (
    ephemeralStorage > 0 &&
    ephemeralStorage > (allocatable['ephemeral-storage'] ?? 0) - (requested['ephemeral-storage'] ?? 0)
  ) {
    return false;
  }
  for (let i = 0; i < scalarNames.length; i++) {
    const name = scalarNames[i];
    if (scalarAmounts[i] > (allocatable[name] ?? 0) - (requested[name] ?? 0)) return false;
  }
  return true;
}

/** Every resource the pod does not fit, in check order (`pods` first): the plugin's reasons. */
export function insufficientResources(
  requests: CompiledRequests,
  node: Pick<SchedulingNode, 'allocatable' | 'requested'>,
): string[] {
  const allocatable = node.allocatable;
  if (!allocatable) return [];
  const requested = node.requested;
  const insufficient: string[] = [];
  if (allocatable.pods !== undefined && (requested.pods ?? 0) + 1 > allocatable.pods) insufficient.push('pods');
  requests.names.forEach((name, i) => {
    if (requests.amounts[i] > (allocatable[name] ?? 0) - (requested[name] ?? 0)) insufficient.push(name);
  });
  return insufficient;
}
