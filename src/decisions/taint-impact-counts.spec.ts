import { buildStoredInventory } from '../../bench/ceiling';
import { generateInventory } from '../../bench/generate-inventory';
import type { AppConfig } from '../kernel/config/config.schema';
import { InventorySnapshot } from '../kernel/snapshot/inventory-snapshot';
import type { SnapshotService } from '../kernel/snapshot/snapshot.service';
import { presentTaintImpactSummary } from './rest/present-taint-impact';
import { TaintImpactService } from './taint-impact.service';
import { summarizeTaintImpact } from './testing/taint-impact-summary-reference';

// The summary counted from the pod columns (taint-impact-counts.ts) must answer exactly as the first
// version, which counted the rows of the lists' partition (testing/taint-impact-summary-reference.ts):
// same counts, instants, groups and order, on a generated inventory.
const now = new Date('2026-11-25T12:00:00Z');
const inv = generateInventory({ nodes: 600, pods: 18_000, seed: 11, drainSeconds: 30, now });
const stored = buildStoredInventory(inv, now);
// spread the binding times (and leave some unbound-at, counted from createdAt) so deadlines differ per pod
stored.pods.forEach((pod, i) => {
  if (pod.nodeName === null) return;
  if (i % 7 === 0) {
    pod.boundAt = null;
    pod.createdAt = new Date(now.getTime() - (i % 600) * 1000);
  } else pod.boundAt = new Date(now.getTime() - (i % 97) * 1000 - (i % 3) * 0.25);
});
const snapshot = new InventorySnapshot();
snapshot.load(stored.nodes, stored.pods);
const config = { COMPARISON_OPERATORS: true } as AppConfig;
const service = new TaintImpactService({ snapshot } as SnapshotService, config, { now: () => now });

type WhatIf = Parameters<typeof summarizeTaintImpact>[1] extends infer E
  ? { at: Date; evictions: E; tolerating: Parameters<typeof summarizeTaintImpact>[2] } & {
      pending: { lost: unknown[]; gained: unknown[] };
      warnings: string[];
    }
  : never;

function reference(body: Record<string, unknown>) {
  const compute = (service as unknown as { computeTaintImpact(input: unknown): WhatIf }).computeTaintImpact;
  const impact = compute.call(service, body);
  return summarizeTaintImpact(
    impact.at,
    impact.evictions,
    impact.tolerating,
    { unschedulable: impact.pending.lost.length, schedulable: impact.pending.gained.length },
    impact.warnings,
  );
}

const DRAIN = 'maintenance.example.com/drain=true:NoExecute';
const later = (s: number) => new Date(now.getTime() + s * 1000).toISOString();

describe('taint-impact summary from the pod columns against the reference', () => {
  it.each([
    ['the bench body (drain over the search pool)', { taints: [DRAIN], labelSelector: 'pool=search' }],
    ['a batch pool (tolerated for 30 s: EvictAfter)', { taints: [DRAIN], labelSelector: 'pool=batch-a' }],
    ['the same an hour later (expired deadlines)', { taints: [DRAIN], labelSelector: 'pool=batch-a', at: later(3600) }],
    ['the same 20 s later (some expired, some not)', { taints: [DRAIN], all: true, at: later(20) }],
    [
      'not-ready everywhere (300 s tolerations, DaemonSets stay)',
      { taints: ['node.kubernetes.io/not-ready:NoExecute'], all: true },
    ],
    [
      'a removal that matches few nodes (warnings, pending gained)',
      { taints: ['node.kubernetes.io/not-ready:NoExecute-', 'dedicated-'], all: true },
    ],
    ['named nodes', { taints: [DRAIN], nodes: stored.nodes.slice(0, 40).map((n) => n.name) }],
  ])('answers the same for %s', (_, body) => {
    const fast = service.taintImpactSummary(body);
    const ref = reference(body);
    expect(fast.counts.evictNow + fast.counts.evictAfter + fast.counts.tolerating).toBeGreaterThan(0);
    expect(fast).toEqual(ref);
    expect(JSON.stringify(presentTaintImpactSummary(fast))).toBe(JSON.stringify(presentTaintImpactSummary(ref)));
  });

  it('covers every kind of row (EvictNow, EvictAfter, tolerating, pending, warnings)', () => {
    const batch = service.taintImpactSummary({ taints: [DRAIN], all: true, at: later(20) });
    expect(batch.counts.evictNow).toBeGreaterThan(0);
    expect(batch.counts.evictAfter).toBeGreaterThan(0);
    const notReady = service.taintImpactSummary({ taints: ['node.kubernetes.io/not-ready:NoExecute'], all: true });
    expect(notReady.counts.tolerating).toBeGreaterThan(0);
    const removal = service.taintImpactSummary({ taints: ['node.kubernetes.io/not-ready:NoExecute-'], all: true });
    expect(removal.warnings.length).toBeGreaterThan(0);
    expect(batch.byWorkload.some((w) => w.kind === 'Pod')).toBe(true);
  });
});
