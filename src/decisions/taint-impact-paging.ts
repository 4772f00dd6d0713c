import { AppError } from '../kernel/errors/app-error';
import { decodeContinue, encodeContinue } from '../kernel/http/paging';

/** The largest page of taint-impact items (evictions, then tolerating pods). */
export const MAX_TAINT_IMPACT_LIMIT = 5000;

/** Where the next page starts: after this item, and the instant the first page was evaluated at. */
export interface TaintImpactCursor {
  list: 'evictions' | 'tolerating';
  node: string;
  namespace: string;
  name: string;
  at: Date;
}

interface Item {
  node: string;
}

/** The pod of an item: its namespace and name. */
type PodOf<I> = (item: I) => { namespace: string; name: string };

export function encodeTaintImpactCursor(c: TaintImpactCursor): string {
  return encodeContinue([c.list, c.node, c.namespace, c.name, c.at.toISOString()]);
}

export function decodeTaintImpactCursor(token: string): TaintImpactCursor {
  const [list, node, namespace, name, at] = decodeContinue(token, 5)!;
  const instant = new Date(at);
  if ((list !== 'evictions' && list !== 'tolerating') || Number.isNaN(instant.getTime())) {
    throw new AppError(
      'BadRequest',
      'continue token is not valid: pass the value of `continue` from the previous page',
      [{ field: 'continue', type: 'Invalid value', message: 'Invalid value: not a continue token of this list' }],
    );
  }
  return { list, node, namespace, name, at: instant };
}

/** Items are in (node, namespace, name) order: the first index strictly after the cursor's item. */
function after<I extends Item>(
  items: readonly I[],
  podOf: PodOf<I>,
  c: { node: string; namespace: string; name: string },
): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const node = items[mid].node;
    const pod = podOf(items[mid]);
    const cmp =
      node < c.node
        ? -1
        : node > c.node
          ? 1
          : pod.namespace < c.namespace
            ? -1
            : pod.namespace > c.namespace
              ? 1
              : pod.name < c.name
                ? -1
                : pod.name > c.name
                  ? 1
                  : 0;
    if (cmp <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export interface TaintImpactPage<E extends Item, T extends Item> {
  evictions: E[];
  tolerating: T[];
  /** Present when more items follow. */
  continue?: string;
  remainingItemCount: number;
}

/**
 * One page over the evictions, then the tolerating pods, both in (node, pod) order: `limit` items at
 * most, resuming after the cursor's item (`podOf…` name each item's pod; keyset, as the stored lists
 * page: a pod that appears or goes between two pages moves the rest, never repeats or skips one that stayed).
 */
export function pageTaintImpact<E extends Item, T extends Item>(
  evictions: readonly E[],
  tolerating: readonly T[],
  limit: number,
  at: Date,
  cursor: TaintImpactCursor | undefined,
  podOfEviction: PodOf<E>,
  podOfTolerating: PodOf<T>,
): TaintImpactPage<E, T> {
  const eStart = !cursor ? 0 : cursor.list === 'evictions' ? after(evictions, podOfEviction, cursor) : evictions.length;
  const tStart = !cursor || cursor.list === 'evictions' ? 0 : after(tolerating, podOfTolerating, cursor);
  const pageE = evictions.slice(eStart, eStart + limit);
  const pageT = tolerating.slice(tStart, tStart + (limit - pageE.length));
  const remainingItemCount = evictions.length - eStart - pageE.length + (tolerating.length - tStart - pageT.length);
  const page: TaintImpactPage<E, T> = { evictions: pageE, tolerating: pageT, remainingItemCount };
  if (remainingItemCount > 0) {
    const [list, node, pod] = pageT.length
      ? (['tolerating', pageT[pageT.length - 1].node, podOfTolerating(pageT[pageT.length - 1])] as const)
      : (['evictions', pageE[pageE.length - 1].node, podOfEviction(pageE[pageE.length - 1])] as const);
    page.continue = encodeTaintImpactCursor({ list, node, namespace: pod.namespace, name: pod.name, at });
  }
  return page;
}
