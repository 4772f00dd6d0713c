/**
 * A generated inventory (bench/generate-inventory.ts) in an InventorySnapshot, budgets included, with the
 * binding times spread (and some pods without one, counted from createdAt) so that NoExecute deadlines
 * differ from pod to pod; and a TaintImpactService over it. For the specs that compare taint-impact's
 * fast paths with the computation they replace. Tests only.
 */
import { buildStoredInventory } from '../../../bench/ceiling';
import { generateInventory } from '../../../bench/generate-inventory';
import type { AppConfig } from '../../kernel/config/config.schema';
import { InventorySnapshot } from '../../kernel/snapshot/inventory-snapshot';
import type { SnapshotService } from '../../kernel/snapshot/snapshot.service';
import { TaintImpactService } from '../taint-impact.service';

export function impactInventory(now: Date, seed: number) {
  const inv = generateInventory({ nodes: 600, pods: 18_000, seed, drainSeconds: 30, now });
  const stored = buildStoredInventory(inv, now);
  stored.pods.forEach((pod, i) => {
    if (pod.nodeName === null) return;
    if (i % 7 === 0) {
      pod.boundAt = null;
      pod.createdAt = new Date(now.getTime() - (i % 600) * 1000);
    } else pod.boundAt = new Date(now.getTime() - (i % 97) * 1000 - (i % 3) * 0.25);
  });
  const { budgets } = stored;
  const snapshot = new InventorySnapshot();
  snapshot.load(stored.nodes, stored.pods, budgets);
  const config = { COMPARISON_OPERATORS: true } as AppConfig;
  const service = new TaintImpactService({ snapshot } as SnapshotService, config, { now: () => now });
  return { stored, snapshot, service, budgets };
}
