import type { TaintImpactAnswer, TaintImpactEvictionView } from '../decision-answers';
import { JsonBytes } from './json-bytes';

/**
 * The taint-impact answer as REST sends it: the UTF-8 bytes of `JSON.stringify(presentTaintImpact(answer))`
 * (taint-impact-bytes.spec.ts compares the two), written without the presented copy.
 *
 * A re-placement answer over a pool lists ~14,000 evictions and is ~11 MB, ~70 % of it a few FitError
 * messages (~750 bytes, one per spec group) repeated as `unplacedReason` on every stranded pod; node
 * names, namespaces, actions and deadlines repeat too. Each distinct value is escaped (and a reason
 * encoded) once, then copied: the bytes still go out, the escaping and encoding do not run per eviction.
 * Measured on the bench's answer: 23-27 ms for JSON.stringify of the presented answer and ~50 ms more
 * to encode it, against 25-36 ms for these bytes (CPU, load 7-10).
 */
export function taintImpactBytes(answer: TaintImpactAnswer): Buffer {
  const json = new JsonTexts();
  // The texts first, then one buffer of their size (exact for ASCII text; JsonBytes grows otherwise).
  const parts: Array<string | EvictionTexts> = [];
  let size = 1;
  let separator = '{';
  // the answer's own keys in their order, as the presenter's `{ ...answer, at, evictions }` keeps them
  for (const key of Object.keys(answer) as Array<keyof TaintImpactAnswer>) {
    let part: string | EvictionTexts;
    if (key === 'evictions') {
      parts.push(`${separator}"evictions":`);
      part = evictionTexts(answer.evictions, json);
      size += part.size + 13;
    } else {
      const text = key === 'at' ? json.instant(answer.at) : JSON.stringify(answer[key]);
      if (text === undefined) continue; // as JSON.stringify leaves out a property without a JSON form
      part = `${separator}${JSON.stringify(key)}:${text}`;
      size += part.length;
    }
    parts.push(part);
    separator = ',';
  }
  const out = new JsonBytes(size + 1);
  for (const part of parts) {
    if (typeof part === 'string') out.text(part);
    else writeEvictions(part, out);
  }
  out.text(separator === '{' ? '{}' : '}');
  return out.result();
}

/** The eviction list as texts up to each reason, and each reason's closing bytes. */
interface EvictionTexts {
  heads: string[];
  tails: Array<Buffer | undefined>;
  /** Their bytes when the heads are ASCII. */
  size: number;
}

/** In presentTaintImpact's key order: pod, node, action, afterSeconds, evictAt, placement, unplacedReason. */
function evictionTexts(evictions: readonly TaintImpactEvictionView[], json: JsonTexts): EvictionTexts {
  const heads: string[] = new Array(evictions.length);
  const tails: Array<Buffer | undefined> = new Array(evictions.length);
  let size = 2;
  for (let i = 0; i < evictions.length; i++) {
    const e = evictions[i];
    let head =
      `${i === 0 ? '' : ','}{"pod":{"namespace":${json.string(e.pod.namespace)},"name":${JSON.stringify(e.pod.name)}}` +
      `,"node":${json.string(e.node)},"action":${json.string(e.action)}` +
      `,"afterSeconds":${json.number(e.afterSeconds)},"evictAt":${json.instant(e.evictAt)}`;
    if (e.placement !== undefined)
      head += `,"placement":${e.placement === null ? 'null' : `{"node":${json.string(e.placement.node)}}`}`;
    if (e.unplacedReason !== undefined) {
      const tail = json.reasonTail(e.unplacedReason);
      tails[i] = tail;
      size += tail.length;
    } else head += '}';
    heads[i] = head;
    size += head.length;
  }
  return { heads, tails, size };
}

function writeEvictions({ heads, tails }: EvictionTexts, out: JsonBytes): void {
  out.text('[');
  for (let i = 0; i < heads.length; i++) {
    out.text(heads[i]);
    const tail = tails[i];
    if (tail !== undefined) out.bytes(tail);
  }
  out.text(']');
}

/** JSON texts of the values an answer repeats, each worked out once per answer. */
class JsonTexts {
  private readonly strings = new Map<string, string>();
  private readonly numbers = new Map<number, string>();
  private readonly instants = new Map<number, string>();
  private readonly reasons = new Map<string, Buffer>();

  /** A string many evictions share (a namespace, a node, an action). */
  string(value: string): string {
    let text = this.strings.get(value);
    if (text === undefined) this.strings.set(value, (text = JSON.stringify(value)));
    return text;
  }

  number(value: number): string {
    let text = this.numbers.get(value);
    if (text === undefined) this.numbers.set(value, (text = JSON.stringify(value)));
    return text;
  }

  /** A time as presentTaintImpact writes it: RFC 3339 (`toISOString`). */
  instant(date: Date): string {
    const ms = date.getTime();
    let text = this.instants.get(ms);
    if (text === undefined) this.instants.set(ms, (text = JSON.stringify(date.toISOString())));
    return text;
  }

  /** `,"unplacedReason":<reason>}` as UTF-8, the end of an eviction that was not re-placed. */
  reasonTail(reason: string): Buffer {
    let bytes = this.reasons.get(reason);
    if (bytes === undefined)
      this.reasons.set(reason, (bytes = Buffer.from(`,"unplacedReason":${JSON.stringify(reason)}}`)));
    return bytes;
  }
}
