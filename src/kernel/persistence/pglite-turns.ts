import { setImmediate } from 'node:timers/promises';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The PGlite client Prisma's adapter is given on embedded storage: each statement waits for one turn of the event
 * loop before it runs. PGlite runs in the service's thread and never waits for I/O, so a transaction of many
 * statements (an eviction sweep, a taint over many nodes) ran as one unbroken chain of promise callbacks, and no
 * request was answered and no socket written until it committed: at 1,000 questions a second, a 40 ms sweep of a
 * node's pods left 40 questions waiting (bench/ANALYSIS.md). With a turn before each statement, requests that
 * arrived meanwhile are answered between the statements. PGlite's own lock still runs one transaction at a time,
 * and a transaction's statements keep their order: each is sent after the previous one answered.
 */
export function pgliteTakingTurns(pglite: PGlite): PGlite {
  return new Proxy(pglite, {
    get(target, property) {
      if (property === 'query') return queryAfterATurn(target);
      if (property === 'transaction')
        return (work: (tx: unknown) => Promise<unknown>) =>
          target.transaction((tx) =>
            work(new Proxy(tx, { get: (t, p) => (p === 'query' ? queryAfterATurn(t) : bound(t, p)) })),
          );
      return bound(target, property);
    },
  });
}

function queryAfterATurn(client: { query: (...args: never[]) => Promise<unknown> }) {
  return async (...args: never[]) => {
    await setImmediate();
    return client.query(...args);
  };
}

/** A member of the real object, methods bound to it (PGlite keeps its state in private fields). */
function bound(target: object, property: string | symbol): unknown {
  const value: unknown = Reflect.get(target, property, target);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}
