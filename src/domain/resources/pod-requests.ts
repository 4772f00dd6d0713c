import type { PodResources, ResourceList, ResourceVector } from '../types';
import { toResourceVector } from './quantity';

/** The part of a Kubernetes container the request arithmetic reads. */
export interface ContainerResources {
  resources?: PodResources | null;
  /** `Always` on an init container makes it a restartable sidecar (KEP-753). */
  restartPolicy?: string | null;
}

export interface PodRequestsInput {
  containers?: readonly ContainerResources[] | null;
  initContainers?: readonly ContainerResources[] | null;
  /** `spec.overhead` (RuntimeClass pod overhead), added on top. */
  overhead?: ResourceList | null;
}

export interface PodRequestsError {
  /** Where the bad quantity is: `containers[0].resources.requests.cpu`, `overhead.memory`. */
  field: string;
  resource: string;
  value: string;
}

export interface PodRequestsResult {
  vector: ResourceVector;
  errors: PodRequestsError[];
}

/**
 * The requests the scheduler charges a pod: port of `PodRequests` / `AggregateContainerRequests`
 * (k8s.io/component-helpers/resource/helpers.go).
 * - the app containers' requests are summed;
 * - each regular init container runs alone (after the sidecars started before it), so the pod needs
 *   at least `sidecars before it + that init container`: the result is the max of that and the sum;
 * - restartable init containers (`restartPolicy: Always`, sidecars) keep running, so they add to the sum;
 * - `overhead` is added last.
 * A limit without a request counts as the request, because API defaulting copies limits into
 * requests before the pod is stored (`SetDefaults_Container`).
 * @example effectivePodRequests({ containers: [{ resources: { requests: { cpu: '100m' } } }, { resources: { limits: {
 * cpu: '1' } } }] }).vector
 *   // { cpu: 1100 }
 */
export function effectivePodRequests(input: PodRequestsInput): PodRequestsResult {
  const errors: PodRequestsError[] = [];
  const sum: ResourceVector = {};
  (input.containers ?? []).forEach((container, i) => {
    addInto(sum, containerRequests(container, `containers[${i}]`, errors));
  });

  const sidecarsSoFar: ResourceVector = {};
  const initMax: ResourceVector = {};
  (input.initContainers ?? []).forEach((container, i) => {
    const requests = containerRequests(container, `initContainers[${i}]`, errors);
    if (container.restartPolicy === 'Always') {
      addInto(sum, requests);
      addInto(sidecarsSoFar, requests);
      maxInto(initMax, sidecarsSoFar);
    } else {
      const whileRunning: ResourceVector = { ...sidecarsSoFar };
      addInto(whileRunning, requests);
      maxInto(initMax, whileRunning);
    }
  });
  maxInto(sum, initMax);

  const overhead = toResourceVector(input.overhead);
  for (const error of overhead.errors) errors.push({ field: `overhead.${error.resource}`, ...error });
  addInto(sum, overhead.vector);
  return { vector: sum, errors };
}

/** requests, with each limit standing in for a missing request of the same resource. */
function containerRequests(container: ContainerResources, field: string, errors: PodRequestsError[]): ResourceVector {
  const requests = container.resources?.requests ?? {};
  const limits = container.resources?.limits ?? {};
  const effective: ResourceList = { ...limits, ...requests };
  const { vector, errors: quantityErrors } = toResourceVector(effective);
  for (const error of quantityErrors) {
    const list = Object.hasOwn(requests, error.resource) ? 'requests' : 'limits';
    errors.push({ field: `${field}.resources.${list}.${error.resource}`, ...error });
  }
  return vector;
}

function addInto(target: ResourceVector, source: ResourceVector): void {
  for (const [resource, amount] of Object.entries(source)) target[resource] = (target[resource] ?? 0) + amount;
}

function maxInto(target: ResourceVector, source: ResourceVector): void {
  for (const [resource, amount] of Object.entries(source)) {
    if (!Object.hasOwn(target, resource) || amount > target[resource]) target[resource] = amount;
  }
}
