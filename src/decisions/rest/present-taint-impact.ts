import type { TaintImpactAnswer } from '../decision-answers';

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
    })),
  };
}
