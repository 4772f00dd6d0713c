/**
 * The watch events waiting to be applied, coalesced by object: only an object's last event matters (ADDED then
 * MODIFIED is one upsert, MODIFIED then DELETED one delete, DELETED then ADDED one upsert), so a burst of 1,000
 * events on 100 objects is 100 writes, and `take` hands them out in batches of at most `max` objects, oldest
 * first, for one transaction each. Pure (no I/O, no clock: times are given).
 */
export type MirroredResource = 'nodes' | 'pods' | 'budgets';

export interface PendingChange {
  resource: MirroredResource;
  /** name (nodes) or namespace/name */
  key: string;
  /** upsert: the object as the cluster sent it; delete: gone from the cluster */
  action: 'upsert' | 'delete';
  object: unknown;
  /** when the first event of this object still waiting arrived (for the event → snapshot lag) */
  receivedAt: number;
  /** how many watch events this change stands for */
  events: number;
}

export class EventBatcher {
  private readonly pending = new Map<string, PendingChange>();

  get size(): number {
    return this.pending.size;
  }

  /** One watch event; a later event for the same object replaces the earlier one (keeping its arrival time). */
  add(change: Omit<PendingChange, 'events'>): void {
    const id = `${change.resource}\u0000${change.key}`;
    const before = this.pending.get(id);
    if (before) this.pending.delete(id); // re-inserted at the end: Map order stays arrival order of the last event
    this.pending.set(id, {
      ...change,
      receivedAt: before ? Math.min(before.receivedAt, change.receivedAt) : change.receivedAt,
      events: (before?.events ?? 0) + 1,
    });
  }

  /** Up to `max` changes, oldest first, removed from the queue. */
  take(max: number): PendingChange[] {
    const out: PendingChange[] = [];
    for (const [id, change] of this.pending) {
      if (out.length >= max) break;
      out.push(change);
      this.pending.delete(id);
    }
    return out;
  }

  /** A batch that failed to apply goes back, unless a newer event for the object arrived meanwhile. */
  putBack(changes: readonly PendingChange[]): void {
    const again = new Map<string, PendingChange>();
    for (const c of changes) {
      const id = `${c.resource}\u0000${c.key}`;
      if (!this.pending.has(id)) again.set(id, c);
    }
    const newer = [...this.pending];
    this.pending.clear();
    for (const [id, c] of again) this.pending.set(id, c);
    for (const [id, c] of newer) this.pending.set(id, c);
  }

  /** Drops the waiting changes of a resource (a relist supersedes them). Answers how many were dropped. */
  dropResource(resource: MirroredResource): number {
    let dropped = 0;
    for (const [id, c] of this.pending)
      if (c.resource === resource) {
        this.pending.delete(id);
        dropped += 1;
      }
    return dropped;
  }
}
