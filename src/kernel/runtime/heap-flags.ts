import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags the service sets on itself, at the very start of main.ts (before any other module allocates): they
 * belong with the code, not with every command line that starts it (npm start, the Dockerfile, a bench).
 *
 * `--no-allocation-site-pretenuring`: V8 watches how many objects of each allocation site survive a minor
 * collection and, past a threshold, allocates that site's objects straight in the old generation. Under a burst (a
 * closed-loop load: requests queue, so their objects live across a collection) the request path's sites were
 * judged long-lived; afterwards, at a steady 1,000 questions a second, the requests' objects went straight to the
 * old generation, which filled in seconds: 8-9 major collections in a minute, each marking the inventory's 1.4
 * million objects on the 2 cores the requests need (open loop p99 19-48 ms, max 75-134 ms; without the flag no
 * major collection, p99 3-5 ms: bench/ANALYSIS.md, session of 2026-11-27 04:31). The long-lived objects are
 * allocated once, at start-up, and copying them through the young generation did not slow it down.
 *
 * A flag given on the command line wins (`node --allocation-site-pretenuring dist/main.js` runs with V8's default).
 */
export const HEAP_FLAGS: readonly string[] = ['--no-allocation-site-pretenuring'];

/** The flags to set: each of HEAP_FLAGS whose option the command line (`execArgv`) does not name itself. */
export function heapFlagsToSet(execArgv: readonly string[]): string[] {
  const option = (flag: string) => flag.replace(/^--(no-)?/, '').replace(/_/g, '-');
  const named = new Set(execArgv.filter((a) => a.startsWith('--')).map((a) => option(a.split('=')[0])));
  return HEAP_FLAGS.filter((flag) => !named.has(option(flag)));
}

export function applyHeapFlags(execArgv: readonly string[] = process.execArgv): string[] {
  const flags = heapFlagsToSet(execArgv);
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}
