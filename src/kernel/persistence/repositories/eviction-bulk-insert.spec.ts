import { randomUUID } from 'node:crypto';
import type { Taint } from '../../../domain/types';
import { taintToJson } from '../../model/taint-json';
import { json } from '../prisma-types';
import { specDatabase } from '../testing/spec-database';
import { compactRows, EvictionRepository, type NewEvictionRow } from './eviction.repository';

jest.setTimeout(120_000);

/**
 * `EvictionRepository.insert` writes any number of rows as one compact JSON document (rows as arrays, taints and
 * reasons as indexes) instead of Prisma's createMany: the rows it stores must be exactly those createMany stores for
 * the same input. Embedded PGlite by default; the PostgreSQL mode with DATABASE_URL (a migrated database).
 */
describe('EvictionRepository.insert: the bulk statement stores what createMany stores', () => {
  const db = specDatabase('eviction-bulk');
  const repo = new EvictionRepository();

  const drain: Taint = {
    key: 'maintenance.example.com/drain',
    value: 'true',
    effect: 'NoExecute',
    timeAdded: new Date('2026-11-25T10:00:00.123Z'),
  };
  const budgets: Taint = { key: 'b', value: '', effect: 'NoExecute', respectBudgets: true };
  const noTime: Taint = { key: 'k', value: 'é "quoted" \\ \u0001', effect: 'NoExecute' };

  // Each case becomes rows that differ only where the case says; the taint lists are shared objects (as the
  // planner passes a node's taints) and fresh copies of them (equal content, other objects).
  const cases: Array<{ name: string; taints: Taint[]; reason: string; timerId: string | null; forecast?: boolean }> = [
    { name: 'one taint, a timer', taints: [drain], reason: 'tolerationSeconds ran out', timerId: 'evict-x-1' },
    { name: 'two taints', taints: [drain, budgets], reason: 'untolerated NoExecute taint b:NoExecute', timerId: null },
    { name: 'no timeAdded, odd text', taints: [noTime], reason: 'reason with "quotes" and ünïcode', timerId: null },
    { name: 'no taints (the Eviction API)', taints: [], reason: 'evicted through the Eviction API', timerId: null },
    { name: 'a forecast', taints: [drain], reason: 'tolerationSeconds ran out', timerId: null, forecast: true },
    { name: 'copied taint objects', taints: [{ ...drain }], reason: 'tolerationSeconds ran out', timerId: 'evict-y-2' },
  ];

  function rowsFor(count: number, tag: string): NewEvictionRow[] {
    return Array.from({ length: count }, (_, i) => {
      const c = cases[i % cases.length];
      return {
        id: randomUUID(),
        podUid: `${tag}-uid-${i}`,
        namespace: `ns-${i % 3}`,
        podName: `${tag}-pod-${i}`,
        nodeName: `${tag}-node-${i % 7}`,
        taints: c.taints,
        evictAt: new Date(Date.UTC(2026, 10, 25, 10, 0, 0, i)),
        reason: c.reason,
        timerId: c.timerId === null ? null : `${c.timerId}-${i}`,
        ...(c.forecast ? { forecast: true } : {}),
      };
    });
  }

  async function stored(tag: string) {
    const rows = await db().prisma.eviction.findMany({
      where: { podName: { startsWith: `${tag}-pod-` } },
      orderBy: { evictAt: 'asc' },
    });
    // Everything but the ids, the tag and the creation time (now(), per transaction).
    return rows.map(({ id: _id, createdAt: _c, podUid, podName, nodeName, ...rest }) => ({
      ...rest,
      podUid: podUid.replace(`${tag}-`, ''),
      podName: podName.replace(`${tag}-`, ''),
      nodeName: nodeName.replace(`${tag}-`, ''),
    }));
  }

  /** The reference: the rows through Prisma's createMany, as `insert` wrote them up to 100 rows until 2026-11-27. */
  async function createMany(
    rows: readonly NewEvictionRow[],
    outcome: { status: 'Scheduled' } | { status: 'Executed'; at: Date },
  ): Promise<void> {
    await db().prisma.eviction.createMany({
      data: rows.map((r) => ({
        id: r.id,
        podUid: r.podUid,
        namespace: r.namespace,
        podName: r.podName,
        nodeName: r.nodeName,
        taints: json(r.taints.map(taintToJson)),
        status: outcome.status,
        evictAt: r.evictAt,
        executedAt: outcome.status === 'Executed' ? outcome.at : null,
        reason: r.reason,
        timerId: r.timerId,
        forecast: r.forecast === true,
      })),
    });
  }

  const outcomes = [
    ['Scheduled', { status: 'Scheduled' } as const],
    ['Executed', { status: 'Executed', at: new Date('2026-11-25T11:00:00.456Z') } as const],
  ] as const;

  it.each(outcomes)(
    '%s rows: 120 in one statement equal the same rows through createMany, 10 at a time',
    async (status, outcome) => {
      // A PostgreSQL database outlives the run: tags unique to it.
      const run = randomUUID().slice(0, 8);
      const bulk = rowsFor(120, `bulk-${status}-${run}`);
      const reference = rowsFor(120, `ref-${status}-${run}`);
      await repo.insert(db().prisma, bulk, outcome);
      for (let i = 0; i < reference.length; i += 10) await createMany(reference.slice(i, i + 10), outcome);
      const viaBulk = await stored(`bulk-${status}-${run}`);
      expect(viaBulk).toHaveLength(120);
      expect(viaBulk).toEqual(await stored(`ref-${status}-${run}`));
    },
  );

  it.each(outcomes)(
    '%s rows: one row, and six (every case once), as createMany stores them',
    async (status, outcome) => {
      const run = randomUUID().slice(0, 8);
      for (const count of [1, 6]) {
        const mine = rowsFor(count, `few${count}-${status}-${run}`);
        const reference = rowsFor(count, `fewref${count}-${status}-${run}`);
        await repo.insert(db().prisma, mine, outcome);
        await createMany(reference, outcome);
        const viaInsert = await stored(`few${count}-${status}-${run}`);
        expect(viaInsert).toHaveLength(count);
        expect(viaInsert).toEqual(await stored(`fewref${count}-${status}-${run}`));
      }
    },
  );

  it('indexes each distinct taint list and reason once', () => {
    const rows = rowsFor(12, 'c');
    const compact = compactRows(rows);
    // Six cases: five taint lists by object identity (the two [drain] lists are the same objects, the copy is not).
    expect(JSON.parse(compact.taints)).toHaveLength(5);
    expect(JSON.parse(compact.reasons)).toEqual([
      'tolerationSeconds ran out',
      'untolerated NoExecute taint b:NoExecute',
      'reason with "quotes" and ünïcode',
      'evicted through the Eviction API',
    ]);
    const first = (JSON.parse(compact.rows) as unknown[][])[0];
    expect(first).toEqual([
      rows[0].id,
      'c-uid-0',
      'ns-0',
      'c-pod-0',
      'c-node-0',
      0,
      '2026-11-25T10:00:00.000Z',
      0,
      'evict-x-1-0',
      false,
    ]);
  });
});
