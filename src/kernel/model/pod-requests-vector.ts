import { toResourceVector } from '../../domain/resources/quantity';
import type { PodResources, ResourceVector } from '../../domain/types';

/**
 * The canonical request vector NodeResourcesFit reads. A resource with a limit and no request
 * counts its limit, as API defaulting copies limits into requests before admission.
 */
export function requestsVector(resources: PodResources): ResourceVector {
  const requests = toResourceVector(resources.requests ?? {}).vector;
  const limits = toResourceVector(resources.limits ?? {}).vector;
  for (const [name, amount] of Object.entries(limits)) if (!(name in requests)) requests[name] = amount;
  return requests;
}
