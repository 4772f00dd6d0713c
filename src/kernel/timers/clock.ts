/**
 * Time as a dependency (STYLE habit 7): the eviction timers and the services around them read the
 * time from an injected `Clock`, as kube's `TimedWorkerQueue` does, so their tests can run on a
 * `ManualClock` and never sleep.
 */
export interface Clock {
  now(): Date;
}

/** The wall clock. */
export const systemClock: Clock = {
  now: () => new Date(),
};

/**
 * A clock that moves only when told to. Listeners registered with `onChange` run synchronously
 * after every `advance`/`set`, so a timer driven by this clock (the in-process `DelayedJobs`)
 * fires what became due without a real `setTimeout`.
 *
 * @example
 *   const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
 *   clock.advance(1500);
 *   clock.now().toISOString(); // '2026-01-01T00:00:01.500Z'
 */
export class ManualClock implements Clock {
  private current: number;
  private readonly listeners = new Set<() => void>();

  constructor(start: Date | number = Date.UTC(2026, 0, 1)) {
    this.current = toMs(start, 'start');
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Moves the clock forward by `ms` (≥ 0): time never runs backwards on a ManualClock. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`ManualClock.advance: expected ms >= 0, got ${ms}`);
    this.current += ms;
    this.notify();
  }

  /** Jumps to `date`, which must not be earlier than now. */
  set(date: Date | number): void {
    const next = toMs(date, 'date');
    if (next < this.current) {
      throw new RangeError(`ManualClock.set: ${new Date(next).toISOString()} is before ${this.now().toISOString()}`);
    }
    this.current = next;
    this.notify();
  }

  /** Calls `listener` after every change of time; returns the function that unsubscribes it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

function toMs(value: Date | number, name: string): number {
  const ms = value instanceof Date ? value.getTime() : value;
  if (!Number.isFinite(ms)) throw new RangeError(`ManualClock: invalid ${name}`);
  return ms;
}
