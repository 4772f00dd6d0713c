import { buildStoredInventory } from '../../bench/ceiling';
import { generateInventory } from '../../bench/generate-inventory';
import type { StoredPod } from '../kernel/model/stored-objects';
import type { InventorySnapshot } from '../kernel/snapshot/inventory-snapshot';
import { InventorySnapshot as Snapshot } from '../kernel/snapshot/inventory-snapshot';
import type { SnapshotService } from '../kernel/snapshot/snapshot.service';
import type { AppConfig } from '../kernel/config/config.schema';
import { rePlacementImpact, type ImpactEviction } from './disruption-impact';
import { TaintImpactService } from './taint-impact.service';
import { referenceRePlacementImpact } from './testing/re-placement-reference';

// docs/SEMANTICS.md B.9.5: the optimised re-placement (light pod views, one name sort, spec groups by
// object) must answer exactly as the straightforward first version (testing/re-placement-reference.ts):
// same placements, same FitError messages, same workloads and stranded lists, in the same order.
const now = new Date('2026-11-25T12:00:00Z');
const inv = generateInventory({ nodes: 600, pods: 18_000, seed: 7, drainSeconds: 30, now });
const stored = buildStoredInventory(inv, now);
const snapshot = new Snapshot();
snapshot.load(stored.nodes, stored.pods);
const config = { COMPARISON_OPERATORS: true } as AppConfig;
const service = new TaintImpactService({ snapshot } as SnapshotService, config, { now: () => now });
const matchOptions = { comparisonOperators: true };

/** The what-if's evictions and proposed nodes, as TaintImpactService works them out. */
function whatIf(body: Record<string, unknown>) {
  const compute = (service as unknown as { computeTaintImpact(input: unknown): WhatIf }).computeTaintImpact;
  return compute.call(service, { taints: ['maintenance.example.com/drain=true:NoExecute'], ...body });
}
type WhatIf = {
  evictions: Array<{
    pod: Parameters<InventorySnapshot['storedPod']>[0];
    node: string;
    action: 'EvictNow' | 'EvictAfter';
    evictAt: Date;
  }>;
  after: Map<string, never>;
};

function both(
  body: Record<string, unknown>,
  priorityOf: (pod: StoredPod, i: number) => number = (pod) => pod.priority,
) {
  const impact = whatIf(body);
  const evictions: ImpactEviction[] = impact.evictions.map((e, i) => {
    const pod = snapshot.storedPod(e.pod);
    return { pod: { ...pod, priority: priorityOf(pod, i) }, node: e.node, action: e.action, evictAt: e.evictAt };
  });
  const light = impact.evictions.map((e, i) => ({
    ...evictions[i],
    pod: { ...snapshot.rePlaceablePod(e.pod), priority: evictions[i].pod.priority },
  }));
  return {
    count: evictions.length,
    optimised: rePlacementImpact(snapshot, light, impact.after, matchOptions),
    reference: referenceRePlacementImpact(snapshot, evictions, impact.after, matchOptions),
  };
}

describe('re-placement against the reference implementation', () => {
  it.each([
    ['the bench pool', { labelSelector: 'pool=search' }],
    ['the general pool (room elsewhere: nodes fill up)', { labelSelector: 'pool=general' }],
    ['one zone of every pool', { labelSelector: 'topology.kubernetes.io/zone=us-central1-b' }],
  ])('answers the same over %s', (_, body) => {
    const { count, optimised, reference } = both(body);
    expect(count).toBeGreaterThan(1000);
    expect(optimised.placements.filter((p) => p.placement).length).toBeGreaterThan(0);
    expect(optimised).toEqual(reference);
    expect(JSON.stringify(optimised)).toBe(JSON.stringify(reference));
  });

  it('answers the same with mixed priorities (the scheduler order before the names)', () => {
    const { count, optimised, reference } = both({ labelSelector: 'pool=general' }, (_, i) => (i * 7919) % 5);
    expect(count).toBeGreaterThan(1000);
    expect(JSON.stringify(optimised)).toBe(JSON.stringify(reference));
  });

  it('gives the service answer the reference placements, eviction by eviction', () => {
    const body = { labelSelector: 'pool=general' };
    const { reference } = both(body);
    const answer = service.taintImpact({
      taints: ['maintenance.example.com/drain=true:NoExecute'],
      ...body,
      replacement: true,
    });
    expect(answer.evictions.map((e) => [e.placement, e.unplacedReason])).toEqual(
      reference.placements.map((p) => [p.placement, p.reason]),
    );
    expect(answer.workloads).toEqual(reference.workloads);
    expect(answer.stranded).toEqual(reference.stranded);
  });
});
