/**
 * Buffers for the large JSON answers (taint-impact's lists: 2.4 MB over a 500-node pool, ~11 MB with
 * re-placement), used again once an answer has been sent.
 *
 * Why: a fresh Buffer per answer is memory outside V8's heap that V8 counts, and every ~64 MB of it
 * allocated since the last full collection starts another one. After a load had grown the heap (the
 * bench's open loop), the 2.4 MB answers brought a full collection every ~27 answers: 8 in 200, against
 * none on a fresh service, and 20-28 ms of CPU per answer instead of 12-15 (bench/ANALYSIS.md).
 *
 * The rule that keeps answers whole: a buffer goes back to the free list only when the response that
 * carried it is closed (`giveBackWhenSent`: the last byte handed to the kernel, or the connection gone),
 * never when the handler returns: until then libuv may still be reading it for a slow client. A buffer
 * never given back is simply collected. Giving one back twice is ignored (it is not lent any more).
 */
export class AnswerBuffers {
  private readonly free: ArrayBuffer[] = [];
  private freeBytes = 0;
  private readonly lent = new WeakSet<ArrayBuffer>();

  /**
   * @param minBytes answers smaller than this get a buffer of their own (Node's small-buffer pool: no
   *   pressure worth saving).
   * @param maxFreeBytes the free list holds at most this many bytes (a few answers' worth).
   */
  constructor(
    readonly minBytes = 64 << 10,
    private readonly maxFreeBytes = 32 << 20,
  ) {}

  /** A Buffer of exactly `length` bytes, its contents undefined: from the free list when one is large enough. */
  take(length: number): Buffer {
    if (length < this.minBytes) return Buffer.allocUnsafe(length);
    let best = -1;
    for (let i = 0; i < this.free.length; i++)
      if (this.free[i].byteLength >= length && (best < 0 || this.free[i].byteLength < this.free[best].byteLength))
        best = i;
    let memory: ArrayBuffer;
    if (best >= 0) {
      memory = this.free[best];
      this.free.splice(best, 1);
      this.freeBytes -= memory.byteLength;
    } else {
      // rounded up to a whole MiB: an answer that grows a little next time still fits
      memory = new ArrayBuffer(Math.ceil(length / (1 << 20)) * (1 << 20));
    }
    this.lent.add(memory);
    return Buffer.from(memory, 0, length);
  }

  /** Back to the free list (only a buffer `take` lent and not given back yet; kept if there is room). */
  giveBack(answer: Uint8Array): void {
    const memory = answer.buffer as ArrayBuffer;
    if (!this.lent.has(memory)) return;
    this.lent.delete(memory);
    if (this.freeBytes + memory.byteLength > this.maxFreeBytes) return;
    this.free.push(memory);
    this.freeBytes += memory.byteLength;
  }

  /** How many bytes wait on the free list (tests, metrics). */
  get bytesFree(): number {
    return this.freeBytes;
  }
}

/** The service's one pool: the answer writers take from it (ScratchBytes.result), the controller gives back. */
export const answerBuffers = new AnswerBuffers();

/** Something that says when it is done with the bytes it was given: Node's ServerResponse ('close'). */
export interface ClosingResponse {
  once(event: 'close', listener: () => void): unknown;
}

/**
 * Gives `answer` back to the pool when `response` closes: after 'finish' (every byte handed to the kernel)
 * or when the connection ended early (libuv is then done with the pending writes). Not before.
 */
export function giveBackWhenSent(response: ClosingResponse, answer: Uint8Array, pool = answerBuffers): void {
  response.once('close', () => pool.giveBack(answer));
}
