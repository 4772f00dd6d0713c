import { FNV_OFFSET, fnv1a } from '../cache/fnv1a';

/**
 * The snapshot's pod names and uids as bytes, and the index from (namespace, name) to slot (issue 16 (2)).
 * Held as strings, with a Map per namespace keyed by the names, they were 300,000 heap objects at 150,000
 * pods, each of which a full collection marks; here they are one byte buffer and a few typed arrays.
 * Names and uids are stored as UTF-8 and read back as new strings (young garbage); the index is open
 * addressing over the slots, keyed by a hash of the name kept per slot.
 */
export class PodKeys {
  private arena = Buffer.alloc(0);
  /** Bytes of `arena` in use, of which `wasted` belong to removed pods (reclaimed by `compact`). */
  private used = 0;
  private wasted = 0;
  private start = new Uint32Array(0);
  private nameBytes = new Uint32Array(0);
  private uidBytes = new Uint32Array(0);
  private hashes = new Int32Array(0);
  private ns = new Int32Array(0);
  private live = new Uint8Array(0);
  /** Highest slot ever set, plus one: the slots `compact` walks. */
  private top = 0;
  /** Open addressing: a slot, EMPTY or REMOVED; its length a power of two at most half full. */
  private table = new Int32Array(0).fill(EMPTY);
  private tableFilled = 0;
  private readonly members = new Map<number, Set<number>>();

  clear(): void {
    this.arena = Buffer.alloc(0);
    this.used = this.wasted = this.top = this.tableFilled = 0;
    this.table = new Int32Array(0);
    this.members.clear();
    this.grow(0);
  }

  /** Makes room for slots below `capacity` (slots keep their keys). */
  grow(capacity: number): void {
    const u32 = (from: Uint32Array) => copyInto(new Uint32Array(capacity), from);
    this.start = u32(this.start);
    this.nameBytes = u32(this.nameBytes);
    this.uidBytes = u32(this.uidBytes);
    this.hashes = copyInto(new Int32Array(capacity), this.hashes);
    this.ns = copyInto(new Int32Array(capacity), this.ns);
    this.live = copyInto(new Uint8Array(capacity), this.live);
  }

  has(slot: number): boolean {
    return this.live[slot] === 1;
  }

  /** The namespace id the slot was keyed with (kept after `remove`, like every column of a freed slot). */
  namespaceId(slot: number): number {
    return this.ns[slot];
  }

  /** The slot of the pod named `name` in namespace `nsId`, if one is held. */
  find(nsId: number, name: string): number | undefined {
    const hash = hashOf(nsId, name);
    const mask = this.table.length - 1;
    if (mask < 0) return undefined;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const slot = this.table[at];
      if (slot === EMPTY) return undefined;
      if (slot !== REMOVED && this.hashes[slot] === hash && this.ns[slot] === nsId && this.nameIs(slot, name))
        return slot;
    }
  }

  /** Keys a free slot (below the capacity given to `grow`); the name must not be held in that namespace. */
  set(slot: number, nsId: number, name: string, uid: string): void {
    const room = 3 * (name.length + uid.length);
    if (this.used + room > this.arena.length) this.makeRoom(room);
    const at = this.used;
    const nameBytes = this.arena.write(name, at, 'utf8');
    const uidBytes = this.arena.write(uid, at + nameBytes, 'utf8');
    this.used += nameBytes + uidBytes;
    this.start[slot] = at;
    this.nameBytes[slot] = nameBytes;
    this.uidBytes[slot] = uidBytes;
    this.hashes[slot] = hashOf(nsId, name);
    this.ns[slot] = nsId;
    this.live[slot] = 1;
    if (slot >= this.top) this.top = slot + 1;
    if (2 * (this.tableFilled + 1) > this.table.length) this.rehash();
    else this.insert(slot);
    let inNamespace = this.members.get(nsId);
    if (!inNamespace) this.members.set(nsId, (inNamespace = new Set()));
    inNamespace.add(slot);
  }

  remove(slot: number): void {
    if (!this.has(slot)) return;
    const mask = this.table.length - 1;
    for (let at = this.hashes[slot] & mask; ; at = (at + 1) & mask) {
      if (this.table[at] === slot) {
        this.table[at] = REMOVED;
        break;
      }
    }
    const inNamespace = this.members.get(this.ns[slot])!;
    inNamespace.delete(slot);
    if (inNamespace.size === 0) this.members.delete(this.ns[slot]);
    this.wasted += this.nameBytes[slot] + this.uidBytes[slot];
    this.live[slot] = 0;
  }

  name(slot: number): string {
    const start = this.start[slot];
    return this.arena.toString('utf8', start, start + this.nameBytes[slot]);
  }

  uid(slot: number): string {
    const start = this.start[slot] + this.nameBytes[slot];
    return this.arena.toString('utf8', start, start + this.uidBytes[slot]);
  }

  /** Slots held in the namespace, in the order they were keyed. */
  slotsIn(nsId: number): Iterable<number> {
    return this.members.get(nsId)?.values() ?? [];
  }

  /** Namespace ids that hold at least one pod. */
  namespaceIds(): number[] {
    return [...this.members.keys()];
  }

  /** Whether the slot's name is `name`: bytes against characters while they are ASCII, else decoded. */
  private nameIs(slot: number, name: string): boolean {
    const length = this.nameBytes[slot];
    if (length < name.length) return false;
    const start = this.start[slot];
    if (length === name.length) {
      for (let i = 0; i < length; i++) {
        const c = name.charCodeAt(i);
        if (c >= 0x80) return this.name(slot) === name;
        if (this.arena[start + i] !== c) return false;
      }
      return true;
    }
    return this.name(slot) === name;
  }

  private insert(slot: number): void {
    const mask = this.table.length - 1;
    let at = this.hashes[slot] & mask;
    while (this.table[at] !== EMPTY && this.table[at] !== REMOVED) at = (at + 1) & mask;
    if (this.table[at] === EMPTY) this.tableFilled++;
    this.table[at] = slot;
  }

  /** A table of every live slot (at most a quarter full), without the removed marks. */
  private rehash(): void {
    let count = 0;
    for (let slot = 0; slot < this.top; slot++) count += this.live[slot];
    let size = 1024;
    while (size < 4 * (count + 1)) size *= 2;
    this.table = new Int32Array(size).fill(EMPTY);
    this.tableFilled = 0;
    for (let slot = 0; slot < this.top; slot++) if (this.live[slot] === 1) this.insert(slot);
  }

  /**
   * At least `room` free bytes, the live keys copied into a new arena without the removed pods' bytes: of the
   * same size when those were half of it or more, else of twice the size (so copies stay amortised).
   */
  private makeRoom(room: number): void {
    const keep = this.used - this.wasted;
    const reclaim = 2 * this.wasted >= this.used;
    const size = Math.max(64 * 1024, reclaim ? 2 * (keep + room) : 2 * (this.arena.length + room));
    const next = Buffer.allocUnsafeSlow(size);
    let at = 0;
    for (let slot = 0; slot < this.top; slot++) {
      if (this.live[slot] !== 1) continue;
      const length = this.nameBytes[slot] + this.uidBytes[slot];
      this.arena.copy(next, at, this.start[slot], this.start[slot] + length);
      this.start[slot] = at;
      at += length;
    }
    this.arena = next;
    this.used = at;
    this.wasted = 0;
  }
}

const EMPTY = -1;
const REMOVED = -2;

/** FNV-1a over the name's UTF-16 units, seeded with the namespace id. */
function hashOf(nsId: number, name: string): number {
  return fnv1a(name, FNV_OFFSET ^ Math.imul(nsId + 1, 0x9e3779b1)) & 0x7fffffff;
}

function copyInto<T extends Uint32Array | Int32Array | Uint8Array>(
  to: T,
  from: { length: number; subarray(begin: number, end: number): ArrayLike<number> },
): T {
  to.set(from.subarray(0, Math.min(from.length, to.length)));
  return to;
}
