import {
  decodeTaintImpactCursor,
  pageTaintImpact,
  type TaintImpactCursor,
  type TaintImpactPage,
} from './taint-impact-paging';

const AT = new Date('2030-01-01T00:00:00Z');
const item = (node: string, name: string) => ({ node, pod: { namespace: 'ns', name } });
const E = [item('n1', 'a'), item('n1', 'b'), item('n2', 'a'), item('n3', 'c')];
const T = [item('n1', 'c'), item('n4', 'z')];
const podOf = (i: { pod: { namespace: string; name: string } }) => i.pod;
const names = (xs: Array<{ node: string; pod: { name: string } }>) => xs.map((x) => `${x.node}/${x.pod.name}`);

/** Every page at this limit, in order. */
function walk(limit: number, evictions = E, tolerating = T) {
  type Item = (typeof E)[number];
  const pages: Array<TaintImpactPage<Item, Item>> = [];
  let cursor: TaintImpactCursor | undefined;
  do {
    const page: TaintImpactPage<Item, Item> = pageTaintImpact(evictions, tolerating, limit, AT, cursor, podOf, podOf);
    pages.push(page);
    cursor = page.continue ? decodeTaintImpactCursor(page.continue) : undefined;
  } while (cursor && pages.length < 20);
  return pages;
}

describe('pageTaintImpact', () => {
  it.each([1, 2, 3, 4, 5, 6, 100])(
    'limit %i: every item exactly once, evictions first, counts of what remains',
    (limit) => {
      const pages = walk(limit);
      expect(pages.flatMap((p) => names(p.evictions))).toEqual(names(E));
      expect(pages.flatMap((p) => names(p.tolerating))).toEqual(names(T));
      expect(pages).toHaveLength(Math.ceil((E.length + T.length) / limit));
      pages.forEach((p, i) => {
        expect(p.evictions.length + p.tolerating.length).toBeLessThanOrEqual(limit);
        expect(p.remainingItemCount).toBe(Math.max(0, E.length + T.length - (i + 1) * limit));
        expect(p.continue === undefined).toBe(i === pages.length - 1);
      });
    },
  );

  it.each([
    ['an eviction that went away', [item('n1', 'a'), item('n2', 'a'), item('n3', 'c')], ['n2/a', 'n3/c']],
    ['a new eviction before the cursor', [item('n0', 'x'), ...E], ['n2/a', 'n3/c']],
    ['a new eviction after the cursor', [...E, item('n9', 'y')], ['n2/a', 'n3/c', 'n9/y']],
  ])('resumes after the last item returned (keyset), with %s', (_name, changed, expected) => {
    const first = pageTaintImpact(E, T, 2, AT, undefined, podOf, podOf);
    const next = pageTaintImpact(changed, [], 10, AT, decodeTaintImpactCursor(first.continue!), podOf, podOf);
    expect(names(next.evictions)).toEqual(expected);
  });

  it("keeps the first page's instant in the token", () => {
    const first = pageTaintImpact(E, T, 1, AT, undefined, podOf, podOf);
    expect(decodeTaintImpactCursor(first.continue!).at.toISOString()).toBe(AT.toISOString());
  });

  it.each([
    ['not base64 JSON', '%%%'],
    ["another list's token", Buffer.from('["a","b"]').toString('base64url')],
    ['an unknown list', Buffer.from('["x","n","ns","a","2030-01-01T00:00:00Z"]').toString('base64url')],
    ['a bad instant', Buffer.from('["evictions","n","ns","a","soon"]').toString('base64url')],
  ])('refuses %s with a 400 on continue', (_name, token) => {
    expect(() => decodeTaintImpactCursor(token)).toThrow(
      expect.objectContaining({ kind: 'BadRequest', fieldErrors: [expect.objectContaining({ field: 'continue' })] }),
    );
  });
});
