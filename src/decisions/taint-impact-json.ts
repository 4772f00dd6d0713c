import {
  deadlineMs,
  earliestDeadline,
  noExecuteTolerance,
  type NoExecuteTolerance,
} from '../domain/eviction/decide-eviction';
import type { MatchOptions } from '../domain/tolerations/tolerates-taint';
import type { Taint, Toleration } from '../domain/types';
import type { PodColumns } from '../kernel/snapshot/pod-store';
import type { TaintImpactAnswer } from './decision-answers';
import type { BudgetTally } from './disruption-impact';
import { dateMs } from './taint-impact-counts';

/** A target node of the what-if: its bound pods' slots in (namespace, name) order, and its proposed taints. */
export interface ListedNode {
  name: string;
  slots: Iterable<number>;
  taints: readonly Taint[];
}

/** The parts of the lists answer that are not per bound pod (small: written by JSON.stringify). */
export type TaintImpactRest = Pick<TaintImpactAnswer, 'unschedulablePending' | 'schedulablePending' | 'warnings'>;

/**
 * The whole taint-impact lists answer (no paging, no re-placement) as the REST JSON text, from the
 * snapshot's pod columns: the same text as `JSON.stringify(presentTaintImpact(taintImpact(body)))`
 * (taint-impact-json.spec.ts compares them on a generated inventory), without what that path made per
 * pod over a 500-node pool (~14,000): a view with a Date, a decision with another, the row, and the
 * presented copy of the row. Here one plain row per pod, its instant formatted once per distinct
 * millisecond, then one JSON.stringify (V8's serialiser writes 2.4 MB of plain rows in ~6 ms; writing
 * the text by concatenation was slower: flattening 14,000 pieces cost more than the serialiser).
 * The budgets report is tallied in the same pass (BudgetTally), in budgetImpact's eviction order.
 */
export function writeTaintImpactJson(
  pods: PodColumns,
  nodes: readonly ListedNode[],
  at: Date,
  options: MatchOptions,
  budgets: BudgetTally,
  rest: TaintImpactRest,
): string {
  const atMs = at.getTime();
  const iso = isoWriter();
  const atText = iso(atMs);
  const countBudgets = !budgets.empty;
  const evictions: EvictionRow[] = [];
  const tolerating: ToleratingRow[] = [];
  // One toleration analysis per distinct (taints, tolerations) pair, as partitionTaintImpact memoises.
  const memo = new Map<readonly Taint[], Map<readonly Toleration[], NoExecuteTolerance>>();
  for (const node of nodes) {
    let byTolerations = memo.get(node.taints);
    if (!byTolerations) memo.set(node.taints, (byTolerations = new Map()));
    for (const slot of node.slots) {
      const tolerations = pods.tolerationsOf(slot);
      let tolerance = byTolerations.get(tolerations);
      if (!tolerance)
        byTolerations.set(tolerations, (tolerance = noExecuteTolerance(tolerations, node.taints, options)));
      const namespace = pods.namespaceName(pods.namespaceId(slot));
      const pod = { namespace, name: pods.name(slot) };
      let evictAt = atText;
      let after = 0;
      if (tolerance.untolerated === undefined) {
        const boundAtMs = pods.boundAtMs(slot);
        const index = earliestDeadline(tolerance, boundAtMs);
        if (index < 0) {
          tolerating.push({ pod, node: node.name });
          continue;
        }
        // decideFromTolerance's numbers: the deadline as a Date holds it (whole ms), seconds left rounded up
        const deadline = deadlineMs(tolerance.finite[index], boundAtMs);
        const remainingMs = deadline - atMs;
        if (remainingMs > 0) after = Math.ceil(remainingMs / 1000);
        evictAt = iso(dateMs(deadline));
      }
      const action = after > 0 ? 'EvictAfter' : 'EvictNow';
      evictions.push({ pod, node: node.name, action, afterSeconds: after, evictAt });
      if (countBudgets) budgets.add(namespace, pods.labelsOf(slot), pods.phaseOf(slot), after === 0);
    }
  }
  // the keys in the order taintImpact's answer has them
  return JSON.stringify({
    at: atText,
    evictions,
    tolerating,
    unschedulablePending: rest.unschedulablePending,
    schedulablePending: rest.schedulablePending,
    warnings: rest.warnings,
    budgets: budgets.views(),
  });
}

interface ToleratingRow {
  pod: { namespace: string; name: string };
  node: string;
}

interface EvictionRow extends ToleratingRow {
  action: 'EvictNow' | 'EvictAfter';
  afterSeconds: number;
  evictAt: string;
}

/** RFC 3339 text of an instant (as Date#toJSON), formatted once per distinct millisecond. */
function isoWriter(): (ms: number) => string {
  const formatted = new Map<number, string>();
  return (ms) => {
    let text = formatted.get(ms);
    if (text === undefined) formatted.set(ms, (text = new Date(ms).toISOString()));
    return text;
  };
}
