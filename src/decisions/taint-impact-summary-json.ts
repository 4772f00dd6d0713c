import type { CountedImpact, Tally } from './taint-impact-counts';

/** What the summary holds besides the counted pods. */
export interface SummaryRest {
  at: Date;
  pending: { unschedulable: number; schedulable: number };
  warnings: string[];
}

/**
 * The summary form as the REST JSON bytes, from the tallies (epoch ms): the bytes of
 * `JSON.stringify(presentTaintImpactSummary(summary))` (taint-impact-counts.spec.ts compares them)
 * without a Date per instant and per row, each formatted again by the presenter (~1,000 rows over the
 * bench's pool, 2 instants each, a handful distinct), nor the presented copy of every row.
 */
export function writeTaintImpactSummaryJson(counted: CountedImpact, rest: SummaryRest): Buffer {
  const instants = new Map<number, string>();
  const instant = (ms: number): string => {
    if (Number.isNaN(ms)) return 'null';
    let text = instants.get(ms);
    if (text === undefined) instants.set(ms, (text = `"${new Date(ms).toISOString()}"`));
    return text;
  };
  // the keys in the order presentTaintImpactSummary's answer has them
  const counts = (t: Tally) =>
    `"evictNow":${t.evictNow},"evictAfter":${t.evictAfter},"tolerating":${t.tolerating}` +
    `,"earliestEvictAt":${instant(t.earliest)},"latestEvictAt":${instant(t.latest)}`;
  const parts: string[] = [
    `{"at":${JSON.stringify(rest.at.toISOString())},"counts":{${counts(counted.total)}` +
      `,"unschedulablePending":${rest.pending.unschedulable},"schedulablePending":${rest.pending.schedulable}}` +
      `,"byNode":[`,
  ];
  counted.byNode.forEach(({ name, tally }, i) =>
    parts.push(`${i === 0 ? '' : ','}{"node":${JSON.stringify(name)},${counts(tally)}}`),
  );
  parts.push('],"byWorkload":[');
  counted.byWorkload.forEach(({ namespace, kind, name, tally }, i) =>
    parts.push(
      `${i === 0 ? '' : ','}{"namespace":${JSON.stringify(namespace)},"kind":${JSON.stringify(kind)}` +
        `,"name":${JSON.stringify(name)},${counts(tally)}}`,
    ),
  );
  parts.push(`],"warnings":${JSON.stringify(rest.warnings)}}`);
  return Buffer.from(parts.join(''));
}
