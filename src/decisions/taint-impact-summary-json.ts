import { encoded } from './json-byte-pieces';
import { ScratchBytes } from './scratch-bytes';
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
 *
 * Written straight into bytes (ScratchBytes): the keys are pieces encoded once, the counts written digit
 * by digit, each distinct instant encoded once per answer, the names copied as json-byte-pieces.ts does.
 * Building the ~175 KB as template strings, a `JSON.stringify` per name, a join and an encoding was
 * ~1.7 ms of a ~7 ms answer (load 4.6), and ~1,000 strings of garbage per answer.
 */
export function writeTaintImpactSummaryJson(counted: CountedImpact, rest: SummaryRest): Buffer {
  const out = new ScratchBytes();
  const instants = new Map<number, Uint8Array>();
  const instant = (ms: number): Uint8Array => {
    if (Number.isNaN(ms)) return NULL;
    let bytes = instants.get(ms);
    if (bytes === undefined) instants.set(ms, (bytes = encoded(`"${new Date(ms).toISOString()}"`)));
    return bytes;
  };
  // the keys in the order presentTaintImpactSummary's answer has them
  const counts = (t: Tally, opening: Uint8Array) => {
    out.put(opening);
    out.putCount(t.evictNow);
    out.put(EVICT_AFTER);
    out.putCount(t.evictAfter);
    out.put(TOLERATING);
    out.putCount(t.tolerating);
    out.put(EARLIEST);
    out.put(instant(t.earliest));
    out.put(LATEST);
    out.put(instant(t.latest));
  };
  out.put(encoded(`{"at":${JSON.stringify(rest.at.toISOString())},"counts":{`));
  counts(counted.total, EVICT_NOW);
  out.put(UNSCHEDULABLE);
  out.putCount(rest.pending.unschedulable);
  out.put(SCHEDULABLE);
  out.putCount(rest.pending.schedulable);
  out.put(BY_NODE);
  counted.byNode.forEach(({ name, tally }, i) => {
    out.put(i === 0 ? NODE : NEXT_NODE);
    out.putString(name);
    counts(tally, NEXT_EVICT_NOW);
    out.put(CLOSE);
  });
  out.put(BY_WORKLOAD);
  counted.byWorkload.forEach(({ namespace, kind, name, tally }, i) => {
    out.put(i === 0 ? NAMESPACE : NEXT_NAMESPACE);
    out.putString(namespace);
    out.put(KIND);
    out.putString(kind);
    out.put(NAME);
    out.putString(name);
    counts(tally, NEXT_EVICT_NOW);
    out.put(CLOSE);
  });
  out.put(encoded(`],"warnings":${JSON.stringify(rest.warnings)}}`));
  return out.result();
}

const NULL = encoded('null');
const EVICT_NOW = encoded('"evictNow":');
const NEXT_EVICT_NOW = encoded(',"evictNow":');
const EVICT_AFTER = encoded(',"evictAfter":');
const TOLERATING = encoded(',"tolerating":');
const EARLIEST = encoded(',"earliestEvictAt":');
const LATEST = encoded(',"latestEvictAt":');
const UNSCHEDULABLE = encoded(',"unschedulablePending":');
const SCHEDULABLE = encoded(',"schedulablePending":');
const BY_NODE = encoded('},"byNode":[');
const NODE = encoded('{"node":');
const NEXT_NODE = encoded(',{"node":');
const BY_WORKLOAD = encoded('],"byWorkload":[');
const NAMESPACE = encoded('{"namespace":');
const NEXT_NAMESPACE = encoded(',{"namespace":');
const KIND = encoded(',"kind":');
const NAME = encoded(',"name":');
const CLOSE = encoded('}');
