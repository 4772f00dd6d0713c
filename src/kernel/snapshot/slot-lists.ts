/**
 * Slots grouped into lists (the snapshot's bound pods per node), each list in insertion order, as
 * intrusive doubly linked lists in typed arrays: a slot is in at most one list. It replaces a
 * `Map<node, Set<slot>>` whose 5,000 sets and their hash tables (150,000 entries) every full
 * collection traced (issue 16 (2)); here there are five typed arrays, whatever the counts.
 */
export class SlotLists {
  private head = new Int32Array(0);
  private tail = new Int32Array(0);
  private next = new Int32Array(0);
  private prev = new Int32Array(0);
  /** The list a slot is in, -1 for none. */
  private listOf = new Int32Array(0);

  /** Every list emptied. */
  clear(): void {
    this.head.fill(-1);
    this.tail.fill(-1);
    this.listOf.fill(-1);
  }

  /** Appends the slot to the list (it must be in none). */
  add(list: number, slot: number): void {
    this.ensureList(list);
    this.ensureSlot(slot);
    if (this.listOf[slot] !== -1) throw new Error(`slot ${slot} is already in list ${this.listOf[slot]}`);
    const last = this.tail[list];
    this.prev[slot] = last;
    this.next[slot] = -1;
    if (last === -1) this.head[list] = slot;
    else this.next[last] = slot;
    this.tail[list] = slot;
    this.listOf[slot] = list;
  }

  /** Takes the slot out of its list; answers that list, or -1 when it was in none. */
  remove(slot: number): number {
    if (slot >= this.listOf.length) return -1;
    const list = this.listOf[slot];
    if (list === -1) return -1;
    const before = this.prev[slot];
    const after = this.next[slot];
    if (before === -1) this.head[list] = after;
    else this.next[before] = after;
    if (after === -1) this.tail[list] = before;
    else this.prev[after] = before;
    this.listOf[slot] = -1;
    return list;
  }

  /** The list's slots, first added first (a new array). */
  slots(list: number): number[] {
    const out: number[] = [];
    if (list >= this.head.length) return out;
    for (let slot = this.head[list]; slot !== -1; slot = this.next[slot]) out.push(slot);
    return out;
  }

  private ensureList(list: number): void {
    if (list < this.head.length) return;
    const size = Math.max(64, list + 1, this.head.length * 2);
    this.head = grown(this.head, size, -1);
    this.tail = grown(this.tail, size, -1);
  }

  private ensureSlot(slot: number): void {
    if (slot < this.listOf.length) return;
    const size = Math.max(1024, slot + 1, this.listOf.length * 2);
    this.next = grown(this.next, size, -1);
    this.prev = grown(this.prev, size, -1);
    this.listOf = grown(this.listOf, size, -1);
  }
}

function grown(from: Int32Array, size: number, fill: number): Int32Array<ArrayBuffer> {
  const to = new Int32Array(size).fill(fill);
  to.set(from);
  return to;
}
