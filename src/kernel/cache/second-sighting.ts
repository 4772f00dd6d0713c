import { fnv1a } from './fnv1a';

/**
 * Admission for the decision caches: a key is worth remembering once it has been asked before.
 * Remembering every distinct question costs the collector for nothing — under a stream of distinct
 * pods each cached answer and compiled pod outlives the young generation, so every scavenge copies
 * the last few hundred of them (in-process, 5,000 distinct questions over 30,000 pods: scavenges
 * took 319 ms in all with every answer cached, 60 ms without; bench/experiments/decision-gc.ts).
 * A question a client repeats (a Deployment's replicas, a retry) is cached from its second sighting.
 *
 * The keys seen are kept as 31-bit FNV-1a hashes (small integers: nothing for the collector to copy)
 * in two generations of at most `capacity` each; a collision only admits an answer early.
 */
export class SecondSighting {
  private current = new Set<number>();
  private previous = new Set<number>();

  constructor(private readonly capacity = 4096) {}

  /** True when `key` was seen before (within the last one to two generations); records it either way. */
  seenBefore(key: string): boolean {
    return this.hashSeenBefore(fnv1a(key) >>> 1);
  }

  /** `seenBefore` for a key already hashed to 31 bits by the caller (equal keys, equal hashes). */
  hashSeenBefore(hash: number): boolean {
    const h = hash & 0x7fffffff;
    if (this.current.has(h)) return true;
    const seen = this.previous.has(h);
    if (this.current.size >= this.capacity) {
      this.previous = this.current;
      this.current = new Set();
    }
    this.current.add(h);
    return seen;
  }
}
