import { EventBatcher, type PendingChange } from './event-batcher';

type Event = [resource: PendingChange['resource'], key: string, action: PendingChange['action'], at: number];

function batcherWith(events: Event[]): EventBatcher {
  const b = new EventBatcher();
  for (const [resource, key, action, receivedAt] of events)
    b.add({ resource, key, action, object: { key, at: receivedAt }, receivedAt });
  return b;
}

describe('EventBatcher: watch events coalesced per object, handed out in bounded batches', () => {
  it.each<[string, Event[], Array<[string, PendingChange['action'], number, number]>]>([
    ['one event', [['nodes', 'n1', 'upsert', 1]], [['n1', 'upsert', 1, 1]]],
    [
      'ADDED then MODIFIED: one upsert, first arrival kept for the lag',
      [
        ['nodes', 'n1', 'upsert', 1],
        ['nodes', 'n1', 'upsert', 2],
      ],
      [['n1', 'upsert', 1, 2]],
    ],
    [
      'MODIFIED then DELETED: one delete',
      [
        ['pods', 'ns/p', 'upsert', 1],
        ['pods', 'ns/p', 'delete', 2],
      ],
      [['ns/p', 'delete', 1, 2]],
    ],
    [
      'DELETED then ADDED (re-created): one upsert',
      [
        ['pods', 'ns/p', 'delete', 1],
        ['pods', 'ns/p', 'upsert', 2],
      ],
      [['ns/p', 'upsert', 1, 2]],
    ],
    [
      'order of the last event of each object',
      [
        ['nodes', 'a', 'upsert', 1],
        ['nodes', 'b', 'upsert', 2],
        ['nodes', 'a', 'upsert', 3],
      ],
      [
        ['b', 'upsert', 2, 1],
        ['a', 'upsert', 1, 2],
      ],
    ],
    [
      'the same name in two resources stays two objects',
      [
        ['nodes', 'x', 'upsert', 1],
        ['budgets', 'x', 'delete', 2],
      ],
      [
        ['x', 'upsert', 1, 1],
        ['x', 'delete', 2, 1],
      ],
    ],
  ])('%s', (_, events, expected) => {
    const taken = batcherWith(events).take(100);
    expect(taken.map((c) => [c.key, c.action, c.receivedAt, c.events])).toEqual(expected);
  });

  it('a burst of 1,000 events on 1,000 objects is 1 batch of at most max', () => {
    const b = new EventBatcher();
    for (let i = 0; i < 1000; i++)
      b.add({ resource: 'pods', key: `ns/p${i}`, action: 'upsert', object: {}, receivedAt: i });
    expect(b.take(1000)).toHaveLength(1000);
    expect(b.size).toBe(0);
  });

  it('splits a backlog into batches of max, oldest first', () => {
    const b = new EventBatcher();
    for (let i = 0; i < 2500; i++)
      b.add({ resource: 'pods', key: `ns/p${i}`, action: 'upsert', object: {}, receivedAt: i });
    const sizes: number[] = [];
    const firsts: number[] = [];
    while (b.size > 0) {
      const batch = b.take(1000);
      sizes.push(batch.length);
      firsts.push(batch[0].receivedAt);
    }
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(firsts).toEqual([0, 1000, 2000]);
  });

  it('a failed batch goes back before newer events, unless the object has a newer event', () => {
    const b = batcherWith([
      ['nodes', 'a', 'upsert', 1],
      ['nodes', 'b', 'upsert', 2],
    ]);
    const failed = b.take(10);
    b.add({ resource: 'nodes', key: 'b', action: 'delete', object: {}, receivedAt: 3 });
    b.add({ resource: 'nodes', key: 'c', action: 'upsert', object: {}, receivedAt: 4 });
    b.putBack(failed);
    expect(b.take(10).map((c) => [c.key, c.action])).toEqual([
      ['a', 'upsert'],
      ['b', 'delete'],
      ['c', 'upsert'],
    ]);
  });

  it('a relist drops the waiting changes of its resource only', () => {
    const b = batcherWith([
      ['nodes', 'a', 'upsert', 1],
      ['pods', 'ns/p', 'upsert', 2],
      ['nodes', 'b', 'delete', 3],
    ]);
    expect(b.dropResource('nodes')).toBe(2);
    expect(b.take(10).map((c) => c.key)).toEqual(['ns/p']);
  });
});
