import type { PodColumns } from '../kernel/snapshot/pod-store';
import type { TaintImpactAnswer } from './decision-answers';
import { encoded } from './json-byte-pieces';
import type { ReplacementColumns } from './re-placement-columns';
import { ScratchBytes } from './scratch-bytes';

/** The parts of the re-placement answer that are not per eviction or per stranded pod (small: JSON.stringify). */
export type ReplacementRest = Pick<
  TaintImpactAnswer,
  'unschedulablePending' | 'schedulablePending' | 'warnings' | 'budgets'
>;

/**
 * The whole taint-impact answer with re-placement, as REST sends it: the UTF-8 bytes of
 * `JSON.stringify(presentTaintImpact(taintImpact(body)))` (taint-impact-replacement-bytes.spec.ts compares
 * them), written from the columns of re-placement-columns.ts with no view, row or text per eviction.
 *
 * Over a 500-node pool the answer lists ~14,000 evictions in ~11 MB. An eviction is its namespace's
 * opening, its name, its node's piece, its (afterSeconds, evictAt)'s piece and its placement: the node's
 * name, or null and the reason (~7 MB of the answer is a few FitError messages). The pieces repeat across
 * evictions, so each is encoded once per answer and copied; names are copied character by character. No
 * piece joins two of them: (node, placement) pairs are nearly one per placed pod, and encoding a text per
 * pair cost more than the rest of the writer.
 *
 * Each pod name is read once. The names sit scattered over the old generation, and reading them again
 * for the `stranded` list cost as much as writing the evictions: a stranded entry is instead copied from
 * its eviction's bytes (`{"namespace":…,"name":"…"` is the eviction's opening after `{"pod":`).
 */
export function taintImpactReplacementBytes(
  pods: PodColumns,
  nodes: ReadonlyArray<{ name: string }>,
  answer: ReplacementColumns,
  at: Date,
  rest: ReplacementRest,
): Buffer {
  const { count, slot, node, afterSeconds, evictAtMs, placedOn, reason, byName } = answer;
  const opening = new Pieces<number>(
    (id) => `${POD_KEY}{"namespace":${JSON.stringify(pods.namespaceName(id))},"name":`,
  );
  const nodePiece = new Pieces<number>((n) => `},"node":${JSON.stringify(nodes[n].name)},"action":`);
  const timings = new Timings();
  const reasons = new Reasons();
  const out = new ScratchBytes();
  // where each stranded pod's `{"namespace":…,"name":"…"` was written
  const strandedFrom = new Int32Array(count);
  const strandedTo = new Int32Array(count);

  out.put(encoded(`{"at":${JSON.stringify(at.toISOString())},"evictions":[`));
  for (let i = 0; i < count; i++) {
    if (i > 0) out.putByte(COMMA);
    const s = slot[i];
    const from = out.written + POD_KEY.length;
    out.put(opening.of(pods.namespaceId(s)));
    out.putString(pods.name(s));
    const nameEnd = out.written;
    out.put(nodePiece.of(node[i]));
    out.put(timings.of(evictAtMs[i], afterSeconds[i]));
    const to = placedOn[i];
    if (to === null) {
      out.put(reasons.of(reason[i]!));
      strandedFrom[i] = from;
      strandedTo[i] = nameEnd;
    } else {
      out.put(PLACED_OPEN);
      out.putString(to);
      out.put(PLACED_CLOSE);
    }
  }
  out.put(
    encoded(
      `],"tolerating":${JSON.stringify(answer.tolerating)},"unschedulablePending":${JSON.stringify(rest.unschedulablePending)}` +
        `,"schedulablePending":${JSON.stringify(rest.schedulablePending)},"warnings":${JSON.stringify(rest.warnings)}` +
        `,"budgets":${JSON.stringify(rest.budgets)},"workloads":${JSON.stringify(answer.workloads)},"stranded":[`,
    ),
  );
  let first = true;
  for (let k = 0; k < count; k++) {
    const i = byName[k];
    if (placedOn[i] !== null) continue;
    if (!first) out.putByte(COMMA);
    first = false;
    out.putAgain(strandedFrom[i], strandedTo[i]);
    out.putByte(CLOSE_BRACE);
  }
  out.putByte(CLOSE_BRACKET);
  out.putByte(CLOSE_BRACE);
  return out.result();
}

/** What an eviction's opening has before the `{"namespace":…` that a stranded entry repeats. */
const POD_KEY = '{"pod":';
const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** A placed eviction's end: `,"placement":{"node":` + the node's name + `}}`. */
const PLACED_OPEN = encoded(',"placement":{"node":');
const PLACED_CLOSE = encoded('}}');

/**
 * `"EvictNow"` or `"EvictAfter"` with afterSeconds and evictAt, per (evictAt, afterSeconds). A drain has one
 * or a few; the last one is kept at hand, so most evictions need no lookup (evictAt is no small integer: a
 * Map keyed by it boxes a number per lookup).
 */
class Timings {
  private readonly byInstant = new Map<number, Map<number, Uint8Array>>();
  private lastAt = NaN;
  private lastAfter = NaN;
  private last: Uint8Array | undefined;

  of(evictAtMs: number, afterSeconds: number): Uint8Array {
    if (evictAtMs === this.lastAt && afterSeconds === this.lastAfter) return this.last!;
    let byAfter = this.byInstant.get(evictAtMs);
    if (byAfter === undefined) this.byInstant.set(evictAtMs, (byAfter = new Map()));
    let bytes = byAfter.get(afterSeconds);
    if (bytes === undefined) {
      const action = afterSeconds > 0 ? 'EvictAfter' : 'EvictNow';
      const evictAt = JSON.stringify(new Date(evictAtMs).toISOString());
      byAfter.set(afterSeconds, (bytes = encoded(`"${action}","afterSeconds":${afterSeconds},"evictAt":${evictAt}`)));
    }
    this.lastAt = evictAtMs;
    this.lastAfter = afterSeconds;
    return (this.last = bytes);
  }
}

/**
 * An unplaced eviction's end, `,"placement":null,"unplacedReason":…}`, per reason: a FitError message per
 * group of alike pods, or why DaemonSet and static pods stay. Runs of evictions share one reason object,
 * so the last one is kept at hand.
 */
class Reasons {
  private readonly byText = new Map<string, Uint8Array>();
  private lastReason: string | undefined;
  private last: Uint8Array | undefined;

  of(reason: string): Uint8Array {
    if (reason === this.lastReason) return this.last!;
    let bytes = this.byText.get(reason);
    if (bytes === undefined)
      this.byText.set(reason, (bytes = encoded(`,"placement":null,"unplacedReason":${JSON.stringify(reason)}}`)));
    this.lastReason = reason;
    return (this.last = bytes);
  }
}

/** A piece of JSON text per key, UTF-8 encoded once per answer. */
class Pieces<K> {
  private readonly encoded = new Map<K, Uint8Array>();

  constructor(private readonly text: (key: K) => string) {}

  of(key: K): Uint8Array {
    let bytes = this.encoded.get(key);
    if (bytes === undefined) this.encoded.set(key, (bytes = encoded(this.text(key))));
    return bytes;
  }
}
