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
 * Over a 500-node pool the answer lists ~14,000 evictions in ~11 MB. An eviction is five pieces that
 * repeat across evictions — its namespace's opening, its node's, its (afterSeconds, evictAt)'s, its
 * placement's (the node, or null and the FitError message: ~7 MB of the answer is a few messages) — and
 * its name. Each piece is encoded once per answer, then copied; names (DNS labels: ASCII) are written
 * character by character. The size is worked out first so the buffer is allocated once, exactly (V8
 * counts it as external memory, which paces its full collections).
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
  const tails = new EvictionTails(nodes);
  const names = new Names();

  // First each eviction's pieces, and the size of everything.
  const pieceA: Uint8Array[] = new Array(count);
  const tail: Uint8Array[] = new Array(count);
  const nameSize = new Int32Array(count);
  let size = 0;
  let strandedCount = 0;
  for (let i = 0; i < count; i++) {
    const s = slot[i];
    const namespaceId = pods.namespaceId(s);
    const a = opening.of(namespaceId);
    const to = placedOn[i];
    const t = tails.of(node[i], evictAtMs[i], afterSeconds[i], to, reason[i]);
    const n = names.size(pods.name(s));
    pieceA[i] = a;
    tail[i] = t;
    nameSize[i] = n;
    size += a.length + n + t.length;
    if (to === null) {
      size += strandedOpening.of(namespaceId).length + n + 1;
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
    pos = put(out, pos, pieceA[i]);
    pos = names.write(out, pos, pods.name(slot[i]), nameSize[i]);
    pos = put(out, pos, tail[i]);
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
 * An eviction's bytes after its name, one piece per (node, action and instant, placement):
 * `},"node":…,"action":…,"afterSeconds":…,"evictAt":…,"placement":…` and the reason, if any, and `}`.
 * A pool's stranded pods share a few hundred of them.
 */
class EvictionTails {
  private readonly byNode: Array<Map<number, Map<number, Map<string, Uint8Array>>> | undefined> = [];
  private readonly nodeTexts: string[] = [];
  private readonly timings = new Map<number, Map<number, string>>();
  /** The last reason seen and its text: most evictions in a row share one reason object, no lookup. */
  private lastReason: string | undefined;
  private lastReasonText = '';

  constructor(private readonly nodes: ReadonlyArray<{ name: string }>) {}

  of(node: number, evictAtMs: number, afterSeconds: number, to: string | null, reason: string | undefined): Uint8Array {
    let byTime = this.byNode[node];
    if (byTime === undefined) this.byNode[node] = byTime = new Map();
    let byAfter = byTime.get(evictAtMs);
    if (byAfter === undefined) byTime.set(evictAtMs, (byAfter = new Map()));
    let byOutcome = byAfter.get(afterSeconds);
    if (byOutcome === undefined) byAfter.set(afterSeconds, (byOutcome = new Map()));
    // placed: the node's name (unique); not placed: a NUL (never in a node name) before the reason
    const key = to !== null ? to : this.reasonKey(reason!);
    let bytes = byOutcome.get(key);
    if (bytes === undefined) {
      const placement =
        to !== null
          ? `,"placement":{"node":${JSON.stringify(to)}}}`
          : `,"placement":null,"unplacedReason":${JSON.stringify(reason)}}`;
      byOutcome.set(key, (bytes = encode(this.nodeText(node) + this.timing(evictAtMs, afterSeconds) + placement)));
    }
    return bytes;
  }

  private reasonKey(reason: string): string {
    if (reason !== this.lastReason) {
      this.lastReason = reason;
      this.lastReasonText = `\u0000${reason}`;
    }
    return this.lastReasonText;
  }

  private nodeText(node: number): string {
    let text = this.nodeTexts[node];
    if (text === undefined) this.nodeTexts[node] = text = `},"node":${JSON.stringify(this.nodes[node].name)},"action":`;
    return text;
  }

  private timing(evictAtMs: number, afterSeconds: number): string {
    let byAfter = this.timings.get(evictAtMs);
    if (byAfter === undefined) this.timings.set(evictAtMs, (byAfter = new Map()));
    let text = byAfter.get(afterSeconds);
    if (text === undefined) {
      const action = afterSeconds > 0 ? 'EvictAfter' : 'EvictNow';
      const evictAt = JSON.stringify(new Date(evictAtMs).toISOString());
      byAfter.set(afterSeconds, (text = `"${action}","afterSeconds":${afterSeconds},"evictAt":${evictAt}`));
    }
    return text;
  }
}

const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;

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
    if (PLAIN.test(name)) return name.length + 2;
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

/** Printable ASCII without `"` and `\`: JSON.stringify leaves it as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

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
