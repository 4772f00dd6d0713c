import { EventEmitter } from 'node:events';
import { AnswerBuffers, giveBackWhenSent } from './answer-buffers';

const KiB = 1 << 10;
const MiB = 1 << 20;

describe('AnswerBuffers: large answers reuse memory, never one still lent', () => {
  it.each([
    ['a small answer', 10 * KiB, false],
    ['just under the pool size', 64 * KiB - 1, false],
    ['at the pool size', 64 * KiB, true],
    ['a 2.4 MB list', 2_462_680, true],
  ])('%s (%i bytes) gets a Buffer of exactly that length, pooled: %s', (_name, length, pooled) => {
    const pool = new AnswerBuffers();
    const a = pool.take(length);
    expect(a.length).toBe(length);
    pool.giveBack(a);
    expect(pool.bytesFree > 0).toBe(pooled);
    const b = pool.take(length);
    expect(b.buffer === a.buffer).toBe(pooled);
  });

  it('never hands out a buffer that is still lent: two answers in flight have two memories', () => {
    const pool = new AnswerBuffers();
    const first = pool.take(2 * MiB);
    const second = pool.take(2 * MiB);
    expect(second.buffer).not.toBe(first.buffer);
    first.fill(1);
    second.fill(2);
    expect(first.every((b) => b === 1)).toBe(true);
  });

  it('reuses a given-back buffer only for an answer that fits, the smallest that fits first', () => {
    const pool = new AnswerBuffers();
    const big = pool.take(5 * MiB);
    const small = pool.take(1 * MiB);
    pool.giveBack(big);
    pool.giveBack(small);
    expect(pool.take(900 * KiB).buffer).toBe(small.buffer);
    expect(pool.take(3 * MiB).buffer).toBe(big.buffer);
    // nothing left that fits: a new memory
    const fresh = pool.take(3 * MiB);
    expect(fresh.buffer).not.toBe(big.buffer);
    expect(fresh.buffer).not.toBe(small.buffer);
  });

  it('ignores a second give-back of the same buffer (it would otherwise go to two answers)', () => {
    const pool = new AnswerBuffers();
    const a = pool.take(1 * MiB);
    pool.giveBack(a);
    pool.giveBack(a);
    const b = pool.take(1 * MiB);
    const c = pool.take(1 * MiB);
    expect(b.buffer).toBe(a.buffer);
    expect(c.buffer).not.toBe(a.buffer);
  });

  it('ignores a buffer it did not lend', () => {
    const pool = new AnswerBuffers();
    pool.giveBack(Buffer.alloc(1 * MiB));
    expect(pool.bytesFree).toBe(0);
  });

  it('keeps at most maxFreeBytes on the free list', () => {
    const pool = new AnswerBuffers(64 * KiB, 4 * MiB);
    const taken = [pool.take(2 * MiB), pool.take(2 * MiB), pool.take(2 * MiB)];
    for (const t of taken) pool.giveBack(t);
    expect(pool.bytesFree).toBe(4 * MiB);
  });

  it('giveBackWhenSent gives back on the response’s close, not before', () => {
    const pool = new AnswerBuffers();
    const response = new EventEmitter();
    const answer = pool.take(2 * MiB);
    giveBackWhenSent(response, answer, pool);
    // still sending: another answer must get other memory
    expect(pool.take(2 * MiB).buffer).not.toBe(answer.buffer);
    response.emit('close');
    expect(pool.take(2 * MiB).buffer).toBe(answer.buffer);
  });
});
