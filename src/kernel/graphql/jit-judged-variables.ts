/**
 * Whether graphql-jit's compiled coercion alone may judge these variables (src/kernel/graphql/jit-execution.ts),
 * instead of graphql-js checking them first:
 * - at most `limit` values, counting every object, list and leaf: graphql-jit has no error limit and
 *   makes one error per wrong item (~7 µs each), so a large wrong list must meet graphql-js, which stops at
 *   the first;
 * - no empty list anywhere: graphql-jit takes `[]` where an input object is expected as `{}`, which
 *   graphql-js refuses. It is the one difference test/inventory/graphql-jit.e2e-spec.ts found between the
 *   two over the live schema; a non-empty list there is refused by both (its indexes are unknown fields).
 * The walk keeps its own stack (a value nested thousands of levels deep is no stack overflow) and stops
 * as soon as the count passes the limit, so its cost is bounded by `limit`, not by what was sent.
 * @example jitMayJudge({ a: [1, 2] }, 4) === true; jitMayJudge({ a: [1, 2] }, 3) === false
 * @example jitMayJudge({ a: [] }, 9) === false
 */
export function jitMayJudge(value: unknown, limit: number): boolean {
  if (limit < 1) return false;
  const stack: unknown[] = [value];
  let found = 1; // every value is counted when it is found, before it is walked
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === null || typeof next !== 'object') continue;
    if (Array.isArray(next)) {
      if (next.length === 0) return false;
      found += next.length;
      if (found > limit) return false;
      for (const item of next) stack.push(item);
    } else {
      for (const key in next) {
        if (!Object.prototype.hasOwnProperty.call(next, key)) continue;
        if (++found > limit) return false;
        stack.push((next as Record<string, unknown>)[key]);
      }
    }
  }
  return true;
}
