import { planSweepGroups, type DueOnNode } from './due-sweep-plan';

const nodes = (count: number, rows: number | ((i: number) => number), prefix = 'n'): DueOnNode[] =>
  Array.from({ length: count }, (_, i) => ({
    nodeName: `${prefix}-${String(i).padStart(4, '0')}`,
    rows: typeof rows === 'number' ? rows : rows(i),
  }));

const rowsOf = (due: readonly DueOnNode[], group: readonly string[]) =>
  group.reduce((sum, name) => sum + due.find((n) => n.nodeName === name)!.rows, 0);

describe('planSweepGroups', () => {
  it.each<[string, DueOnNode[], number, number, number[]]>([
    // [case, due, batch, parallel, rows per group]
    ['nothing due', [], 5000, 2, []],
    ['one row', nodes(1, 1), 5000, 2, [1]],
    ['the bench burst: 100 nodes × 100 rows, two at a time', nodes(100, 100), 5000, 2, [5000, 5000]],
    ['the same burst, one at a time (PGlite)', nodes(100, 100), 5000, 1, [5000, 5000]],
    ['under one batch, two at a time: still split in two', nodes(30, 100), 5000, 2, [1500, 1500]],
    ['a little over two batches: four even groups', nodes(103, 100), 5000, 2, [2600, 2500, 2600, 2600]],
    ['uneven nodes', nodes(10, (i) => (i + 1) * 100), 5000, 2, [2800, 2700]],
    ['one node over a batch stays whole', [{ nodeName: 'big', rows: 12_000 }], 5000, 2, [12_000]],
  ])('%s', (_, due, batch, parallel, expected) => {
    const groups = planSweepGroups(due, batch, parallel);
    expect(groups.map((g) => rowsOf(due, g))).toEqual(expected);
    // every node once, in the order given (the lock order), and groups are runs of consecutive nodes
    expect(groups.flat()).toEqual(due.map((n) => n.nodeName));
  });

  it('keeps every group near or under the batch, whatever the spread of rows over nodes', () => {
    for (let seed = 1; seed <= 50; seed++) {
      let state = seed;
      const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 400;
      const due = nodes(200, () => 1 + Math.floor(random()));
      const biggest = Math.max(...due.map((n) => n.rows));
      for (const parallel of [1, 2, 4]) {
        const groups = planSweepGroups(due, 5000, parallel);
        expect(groups.flat()).toEqual(due.map((n) => n.nodeName));
        expect(groups.length % parallel === 0 || groups.length < parallel).toBe(true);
        // a group takes at most its even share plus one node (the node whose middle falls in its share)
        const total = due.reduce((s, n) => s + n.rows, 0);
        const count = Math.ceil(Math.ceil(total / 5000) / parallel) * parallel;
        for (const group of groups) expect(rowsOf(due, group)).toBeLessThanOrEqual(total / count + biggest);
      }
    }
  });
});
