import type { TaintImpactAnswer } from '../decision-answers';
import type { TaintImpactSummary } from '../taint-impact-summary';

/**
 * The taint-impact answer as REST JSON: times as RFC 3339 strings, formatted once per distinct instant.
 * A pool-wide NoExecute what-if lists thousands of evictions sharing a handful of deadlines, and
 * letting JSON.stringify call `Date#toJSON` on each one doubled the time to serialise the answer.
 */
export function presentTaintImpact(answer: TaintImpactAnswer) {
  const formatted = new Map<number, string>();
  const iso = (date: Date): string => {
    const ms = date.getTime();
    let text = formatted.get(ms);
    if (text === undefined) formatted.set(ms, (text = date.toISOString()));
    return text;
  };
  return {
    ...answer,
    at: iso(answer.at),
    evictions: answer.evictions.map((e) => ({
      pod: e.pod,
      node: e.node,
      action: e.action,
      afterSeconds: e.afterSeconds,
      evictAt: iso(e.evictAt),
      ...(e.placement !== undefined ? { placement: e.placement } : {}),
      ...(e.unplacedReason !== undefined ? { unplacedReason: e.unplacedReason } : {}),
    })),
  };
}

/** The summary form as REST JSON: the same RFC 3339 times, null where no eviction was counted. */
export function presentTaintImpactSummary(summary: TaintImpactSummary) {
  const iso = (date: Date | null) => (date === null ? null : date.toISOString());
  const times = <T extends { earliestEvictAt: Date | null; latestEvictAt: Date | null }>(c: T) => ({
    ...c,
    earliestEvictAt: iso(c.earliestEvictAt),
    latestEvictAt: iso(c.latestEvictAt),
  });
  return {
    at: iso(summary.at),
    counts: times(summary.counts),
    byNode: summary.byNode.map(times),
    byWorkload: summary.byWorkload.map(times),
    warnings: summary.warnings,
  };
}
