import { answerBuffers } from './answer-buffers';
import { maxStringBytes, putBytes, putString } from './json-byte-pieces';

/**
 * A JSON answer's bytes as they are written: a buffer kept between answers (grown to the largest one,
 * dropped past MAX_KEPT), then copied once into a Buffer of the exact size, taken from the answer pool
 * (answer-buffers.ts): a large answer allocates nothing once the pool holds a buffer that fits.
 * The writers run synchronously and copy out before returning, so they share one buffer.
 */
export class ScratchBytes {
  private buffer = scratch;
  private length = 0;

  put(piece: Uint8Array): void {
    this.room(piece.length);
    this.length = putBytes(this.buffer, this.length, piece);
  }

  /** One byte (a comma, a closing bracket). */
  putByte(value: number): void {
    this.room(1);
    this.buffer[this.length++] = value;
  }

  /** How many bytes are written so far: a position `putAgain` can copy from later. */
  get written(): number {
    return this.length;
  }

  /** Copies bytes written earlier, [start, end), to the end: a part of an earlier row a later list repeats. */
  putAgain(start: number, end: number): void {
    this.room(end - start);
    this.buffer.copyWithin(this.length, start, end);
    this.length += end - start;
  }

  /** The UTF-8 bytes of `JSON.stringify(value)` for a string (json-byte-pieces.ts's putString). */
  putString(value: string): void {
    this.room(maxStringBytes(value.length));
    this.length = putString(this.buffer, this.length, value);
  }

  /**
   * The text of a count (a non-negative safe integer, as JSON.stringify writes it), digit by digit:
   * no string per number.
   */
  putCount(n: number): void {
    this.room(16);
    const out = this.buffer;
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    let pos = this.length + digits;
    this.length = pos;
    let rest = n;
    do {
      out[--pos] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    } while (rest > 0);
  }

  /** `,` (unless first), opening, the name as a JSON string, closing, ending. */
  row(first: boolean, opening: Uint8Array, name: string, closing: Uint8Array, ending: Uint8Array): void {
    this.room(1 + opening.length + maxStringBytes(name.length) + closing.length + ending.length);
    const out = this.buffer;
    let pos = this.length;
    if (!first) out[pos++] = 0x2c;
    pos = putBytes(out, pos, opening);
    pos = putString(out, pos, name);
    pos = putBytes(out, pos, closing);
    this.length = putBytes(out, pos, ending);
  }

  /**
   * The answer: the bytes copied into a Buffer of the exact size, from the answer pool (answer-buffers.ts;
   * whoever sends it gives it back with giveBackWhenSent, or lets it be collected).
   */
  result(): Buffer {
    const answer = answerBuffers.take(this.length);
    answer.set(this.buffer.subarray(0, this.length));
    scratch = this.buffer.length <= MAX_KEPT ? this.buffer : new Uint8Array(0);
    return answer;
  }

  private room(size: number): void {
    if (this.length + size <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + size, 1 << 16));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
}

/** The largest scratch buffer kept for the next answer (the bench's pool answer is 2.4 MB). */
const MAX_KEPT = 16 << 20;
let scratch = new Uint8Array(0);
