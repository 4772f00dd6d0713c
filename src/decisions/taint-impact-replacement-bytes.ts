import type { PodColumns } from '../kernel/snapshot/pod-store';
import type { TaintImpactAnswer } from './decision-answers';
import type { ReplacementColumns } from './re-placement-columns';

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
 * evictions, so each is encoded once per answer and then copied; names (DNS names: ASCII) are written
 * character by character. No piece joins two of them: (node, placement) pairs are nearly one per placed
 * pod, and encoding a text per pair cost more than the rest of the writer. The size is worked out first
 * so the buffer is allocated once, exactly (V8 counts it as external memory, which paces its full
 * collections).
 */
export function taintImpactReplacementBytes(
  pods: PodColumns,
  nodes: ReadonlyArray<{ name: string }>,
  answer: ReplacementColumns,
  at: Date,
  rest: ReplacementRest,
): Buffer {
  const { count, slot, node, afterSeconds, evictAtMs, placedOn, reason, byName } = answer;
  const opening = new Pieces<number>((id) => `{"pod":{"namespace":${JSON.stringify(pods.namespaceName(id))},"name":`);
  const strandedOpening = new Pieces<number>((id) => `{"namespace":${JSON.stringify(pods.namespaceName(id))},"name":`);
  const nodePiece = new Pieces<number>((n) => `},"node":${JSON.stringify(nodes[n].name)},"action":`);
  const timings = new Timings();
  const reasons = new Reasons();
  const names = new Names();

  // First each eviction's pieces, and the size of everything.
  const timing: Uint8Array[] = new Array(count);
  const unplaced: Array<Uint8Array | undefined> = new Array(count);
  const nameSize = new Int32Array(count);
  const placedSize = new Int32Array(count);
  let size = 0;
  let strandedCount = 0;
  for (let i = 0; i < count; i++) {
    const s = slot[i];
    const namespaceId = pods.namespaceId(s);
    const t = timings.of(evictAtMs[i], afterSeconds[i]);
    const n = names.size(pods.name(s));
    timing[i] = t;
    nameSize[i] = n;
    size += opening.of(namespaceId).length + n + nodePiece.of(node[i]).length + t.length;
    const to = placedOn[i];
    if (to !== null) {
      const p = names.size(to);
      placedSize[i] = p;
      size += PLACED_OPEN.length + p + PLACED_CLOSE.length;
    } else {
      const r = reasons.of(reason[i]!);
      unplaced[i] = r;
      size += r.length + strandedOpening.of(namespaceId).length + n + 1;
      strandedCount++;
    }
  }
  size += Math.max(0, count - 1) + Math.max(0, strandedCount - 1); // the commas between items
  const head = encode(`{"at":${JSON.stringify(at.toISOString())},"evictions":[`);
  const middle = encode(
    `],"tolerating":${JSON.stringify(answer.tolerating)},"unschedulablePending":${JSON.stringify(rest.unschedulablePending)}` +
      `,"schedulablePending":${JSON.stringify(rest.schedulablePending)},"warnings":${JSON.stringify(rest.warnings)}` +
      `,"budgets":${JSON.stringify(rest.budgets)},"workloads":${JSON.stringify(answer.workloads)},"stranded":[`,
  );
  size += head.length + middle.length + 2; // and the closing `]}`

  // Then the bytes.
  const out = Buffer.allocUnsafe(size);
  let pos = put(out, 0, head);
  for (let i = 0; i < count; i++) {
    if (i > 0) out[pos++] = COMMA;
    const s = slot[i];
    pos = put(out, pos, opening.of(pods.namespaceId(s)));
    pos = names.write(out, pos, pods.name(s), nameSize[i]);
    pos = put(out, pos, nodePiece.of(node[i]));
    pos = put(out, pos, timing[i]);
    const r = unplaced[i];
    if (r !== undefined) pos = put(out, pos, r);
    else {
      pos = put(out, pos, PLACED_OPEN);
      pos = names.write(out, pos, placedOn[i]!, placedSize[i]);
      pos = put(out, pos, PLACED_CLOSE);
    }
  }
  pos = put(out, pos, middle);
  let first = true;
  for (let k = 0; k < count; k++) {
    const i = byName[k];
    if (placedOn[i] !== null) continue;
    if (!first) out[pos++] = COMMA;
    first = false;
    const s = slot[i];
    pos = put(out, pos, strandedOpening.of(pods.namespaceId(s)));
    pos = names.write(out, pos, pods.name(s), nameSize[i]);
    out[pos++] = CLOSE_BRACE;
  }
  out[pos++] = CLOSE_BRACKET;
  out[pos++] = CLOSE_BRACE;
  if (pos !== size) throw new Error(`taint-impact bytes: wrote ${pos} of ${size}`);
  return out;
}

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
      byAfter.set(afterSeconds, (bytes = encode(`"${action}","afterSeconds":${afterSeconds},"evictAt":${evictAt}`)));
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
      this.byText.set(reason, (bytes = encode(`,"placement":null,"unplacedReason":${JSON.stringify(reason)}}`)));
    this.lastReason = reason;
    return (this.last = bytes);
  }
}

/** A placed eviction's end: `,"placement":{"node":` + the node's name + `}}`. */
const PLACED_OPEN = encode(',"placement":{"node":');
const PLACED_CLOSE = encode('}}');

const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A piece of JSON text per key, UTF-8 encoded once per answer. */
class Pieces<K> {
  private readonly encoded = new Map<K, Uint8Array>();

  constructor(private readonly text: (key: K) => string) {}

  of(key: K): Uint8Array {
    let bytes = this.encoded.get(key);
    if (bytes === undefined) this.encoded.set(key, (bytes = encode(this.text(key))));
    return bytes;
  }
}

/**
 * Pod names as JSON strings. A name with only printable ASCII other than `"` and `\` (every valid pod
 * name: a DNS subdomain) is its characters in quotes, written one by one; any other is JSON.stringify'd
 * and encoded (kept per name).
 */
class Names {
  private readonly escaped = new Map<string, Uint8Array>();

  /** The name's bytes as a JSON string: its length and the quotes, unless it needs escaping. */
  size(name: string): number {
    if (isPlain(name)) return name.length + 2;
    let bytes = this.escaped.get(name);
    if (bytes === undefined) this.escaped.set(name, (bytes = encode(JSON.stringify(name))));
    return bytes.length;
  }

  /** `size`: what `size` said for this name (a plain name is its length + 2, an escaped one may equal it). */
  write(out: Buffer, pos: number, name: string, size: number): number {
    if (size !== name.length + 2 || (this.escaped.size > 0 && this.escaped.has(name)))
      return put(out, pos, this.escaped.get(name)!);
    out[pos++] = QUOTE;
    for (let k = 0; k < name.length; k++) out[pos++] = name.charCodeAt(k);
    out[pos++] = QUOTE;
    return pos;
  }
}

/** Printable ASCII without `"` and `\`: JSON.stringify leaves it as it is (a loop: cheaper than a RegExp here). */
function isPlain(name: string): boolean {
  for (let k = 0; k < name.length; k++) {
    const c = name.charCodeAt(k);
    if (c < 0x20 || c > 0x7e || c === QUOTE || c === BACKSLASH) return false;
  }
  return true;
}

function encode(text: string): Uint8Array {
  return Buffer.from(text);
}

/** Copies a piece: short ones byte by byte (cheaper than the call into `set`), long ones with `set`. */
function put(out: Buffer, pos: number, piece: Uint8Array): number {
  const n = piece.length;
  if (n > 48) out.set(piece, pos);
  else for (let k = 0; k < n; k++) out[pos + k] = piece[k];
  return pos + n;
}
