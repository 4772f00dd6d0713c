import type { PodResources } from '../types';
import { canonicalAmount } from '../resources/quantity';

export type PodQosClass = 'BestEffort' | 'Burstable' | 'Guaranteed';

/** Only cpu and memory decide QoS (`isSupportedQoSComputeResource`, pkg/apis/core/helper/qos). */
const QOS_RESOURCES = ['cpu', 'memory'] as const;

/**
 * The pod's QoS class (SEMANTICS A.6), as `GetPodQOS` computes it on an admitted pod:
 * - BestEffort: no cpu or memory request or limit above zero (other resources, e.g. GPUs, do not count);
 * - Guaranteed: cpu and memory both have a limit, and every cpu/memory request equals its limit;
 * - Burstable: anything else.
 * A limit without a request counts as a request of the same amount, because API defaulting copies
 * limits into missing requests before admission runs (so `limits: {cpu: 1, memory: 1Gi}` is Guaranteed).
 * Quantities compare by value (`1` == `1000m`); an unparseable quantity compares as text.
 * @example podQosClass({ requests: { cpu: '100m' } }) === 'Burstable'
 */
export function podQosClass(resources: PodResources | null | undefined): PodQosClass {
  const limits = positiveAmounts(resources?.limits);
  // Defaulting copies a limit only into an absent request; an explicit request (even 0) stays.
  const requests = positiveAmounts({ ...resources?.limits, ...resources?.requests });
  if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return 'BestEffort';
  const hasAllLimits = QOS_RESOURCES.every((name) => name in limits);
  const requestsMatchLimits = Object.entries(requests).every(([name, amount]) => limits[name] === amount);
  return hasAllLimits && requestsMatchLimits && Object.keys(requests).length === Object.keys(limits).length
    ? 'Guaranteed'
    : 'Burstable';
}

/** cpu/memory entries with a value above zero, each as a comparable amount. */
function positiveAmounts(list: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of QOS_RESOURCES) {
    const raw = list?.[name];
    if (raw === undefined) continue;
    const amount = canonicalAmount(name, String(raw));
    if (amount === undefined) out[name] = `text:${String(raw)}`;
    else if (amount > 0) out[name] = `n:${amount}`;
  }
  return out;
}
