import { specDatabase } from '../testing/spec-database';
import { NodeRepository } from './node.repository';

jest.setTimeout(120_000);

/**
 * findByNames reads nodes in plain SQL (no Prisma plan to compile on first use); findByName is still Prisma's
 * findUnique, so it is the reference: the same stored node, field for field, in the database's name order.
 */
describe('NodeRepository.findByNames: the nodes Prisma reads, in name order', () => {
  const db = specDatabase('node-by-names');
  const repo = new NodeRepository();
  const run = `n${Date.now()}`;

  beforeAll(async () => {
    const added = new Date('2026-11-27T00:00:00.000Z');
    await repo.create(db().prisma, {
      name: `${run}-b`,
      labels: { 'kubernetes.io/hostname': `${run}-b`, zone: 'a' },
      taints: [
        { key: 'dedicated', value: 'batch', effect: 'NoSchedule', timeAdded: added },
        { key: 'drain', value: '', effect: 'NoExecute', timeAdded: added, respectBudgets: true },
      ],
      unschedulable: true,
      conditions: [
        { type: 'Ready', status: 'False', reason: 'KubeletNotReady', lastTransitionTime: added },
        { type: 'MemoryPressure', status: 'False' },
      ],
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
    });
    await repo.create(db().prisma, {
      name: `${run}-a`,
      labels: {},
      taints: [],
      unschedulable: false,
      conditions: [],
      allocatable: null,
    });
  });

  it('answers what findByName answers for each, sorted by name, and leaves out names that do not exist', async () => {
    const names = [`${run}-b`, `${run}-missing`, `${run}-a`];
    const found = await repo.findByNames(db().prisma, names);
    expect(found.map((n) => n.name)).toEqual([`${run}-a`, `${run}-b`]);
    for (const node of found) expect(node).toEqual(await repo.findByName(db().prisma, node.name));
    expect(found[1].taints.map((t) => [t.key, t.respectBudgets ?? false])).toEqual([
      ['dedicated', false],
      ['drain', true],
    ]);
    expect(found[1].conditions[0].lastTransitionTime).toEqual(new Date('2026-11-27T00:00:00.000Z'));
  });

  it('answers an empty list for no names, and for names of which none exists', async () => {
    expect(await repo.findByNames(db().prisma, [])).toEqual([]);
    expect(await repo.findByNames(db().prisma, [`${run}-none`])).toEqual([]);
  });
});
