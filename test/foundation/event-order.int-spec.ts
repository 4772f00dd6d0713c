import { EventRepository } from '../../src/kernel/persistence/repositories/event.repository';
import { UnitOfWork } from '../../src/kernel/persistence/unit-of-work';
import type { PendingEvent } from '../../src/kernel/persistence/change-set';
import { eventually, startTestApp, type TestApp } from '../support/test-app';

// Event ids in commit order, where only PostgreSQL can show it: two sessions writing events side by side (PGlite has
// one connection, so its transactions never overlap). A stream resumed after id N must have seen every event below N,
// so a transaction may take event ids only once every transaction that took lower ones has committed.
describe('event ids follow commit order (postgres+redis)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('postgres+redis');
  });
  afterAll(async () => {
    await app?.close();
  });

  const actor = { name: 'event-order-test' };
  const event = (name: string): PendingEvent => ({
    type: 'NodeCreated',
    subjectKind: 'Node',
    subjectName: name,
    data: { name },
  });

  it.each([
    ['one event each (createMany)', 1],
    ['hundreds each (the bulk statement)', 150],
  ])('%s: a second writer waits for the first to commit, then takes higher ids', async (_, count) => {
    const repository = app.app.get(EventRepository);
    const db = app.app.get(UnitOfWork).db;
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstIds: bigint[] = [];
    const first = db.$transaction(async (tx) => {
      firstIds = (await repository.insert(tx, actor, names('first', count).map(event), true)).map((e) => BigInt(e.id));
      await firstHeld;
    });
    await eventually(async () => expect(firstIds).toHaveLength(count), 5000, 10);

    let secondInserted = false;
    const second = db.$transaction(async (tx) => {
      const stored = await repository.insert(tx, actor, names('second', count).map(event), true);
      secondInserted = true;
      return stored.map((e) => BigInt(e.id));
    });
    // The second INSERT waits on the first's lock, not on a row: nothing else could hold it back.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondInserted).toBe(false);

    releaseFirst();
    await first;
    const secondIds = await second;
    expect(secondIds).toHaveLength(count);
    const lastOfFirst = firstIds.reduce((a, b) => (a > b ? a : b));
    for (const id of secondIds) expect(id > lastOfFirst).toBe(true);
  });
});

function names(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `event-order-${prefix}-${i}`);
}
