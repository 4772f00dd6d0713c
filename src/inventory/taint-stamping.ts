import type { Taint } from '../domain/types';

/**
 * Server-set `timeAdded` (API.md "Taint"): a taint new to the node is stamped `now`; a taint kept
 * with the same key, effect and value keeps its original time, so re-sending a node never restarts
 * its eviction clocks. A changed value is a new taint. Import keeps the cluster's own times.
 */
export function stampTaints(
  next: readonly Taint[],
  previous: readonly Taint[],
  now: Date,
  keepGiven: boolean,
): Taint[] {
  const before = new Map(previous.map((t) => [`${t.key}\u0000${t.effect}`, t]));
  return next.map((t) => {
    const old = before.get(`${t.key}\u0000${t.effect}`);
    const value = t.value ?? '';
    if (keepGiven && t.timeAdded) return { key: t.key, value, effect: t.effect, timeAdded: t.timeAdded };
    if (old && (old.value ?? '') === value && old.timeAdded)
      return { key: t.key, value, effect: t.effect, timeAdded: old.timeAdded };
    return { key: t.key, value, effect: t.effect, timeAdded: now };
  });
}
