import fc from 'fast-check';
import { SlotLists } from './slot-lists';

/**
 * SlotLists against the Map<list, Set<slot>> it replaced: any sequence of adds (a slot in no list, as the
 * snapshot adds a pod once), removals (of slots in a list, in none, or never seen) and clears leaves the same
 * lists in the same order (a Set iterates in insertion order).
 */
type Op = { kind: 'add'; list: number; slot: number } | { kind: 'remove'; slot: number } | { kind: 'clear' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('add' as const), list: fc.nat(80), slot: fc.nat(2500) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('remove' as const), slot: fc.nat(3000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clear' as const) }) },
);

function check(lists: SlotLists, model: Map<number, Set<number>>): void {
  for (let list = 0; list <= 90; list++) {
    expect(lists.slots(list)).toEqual([...(model.get(list) ?? [])]);
  }
}

describe('SlotLists', () => {
  it('keeps the lists a Map of insertion-ordered Sets keeps, through adds, removals and clears', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const lists = new SlotLists();
        const model = new Map<number, Set<number>>();
        const listOf = new Map<number, number>();
        for (const o of ops) {
          if (o.kind === 'clear') {
            lists.clear();
            model.clear();
            listOf.clear();
          } else if (o.kind === 'add') {
            if (listOf.has(o.slot)) {
              expect(() => lists.add(o.list, o.slot)).toThrow(/already in list/);
              continue;
            }
            lists.add(o.list, o.slot);
            if (!model.has(o.list)) model.set(o.list, new Set());
            model.get(o.list)!.add(o.slot);
            listOf.set(o.slot, o.list);
          } else {
            const expected = listOf.get(o.slot) ?? -1;
            expect(lists.remove(o.slot)).toBe(expected);
            if (expected !== -1) {
              model.get(expected)!.delete(o.slot);
              listOf.delete(o.slot);
            }
          }
        }
        check(lists, model);
      }),
      { numRuns: 300 },
    );
  });

  it('answers empty lists for ids it never grew to', () => {
    const lists = new SlotLists();
    expect(lists.slots(10_000)).toEqual([]);
    expect(lists.remove(10_000)).toBe(-1);
  });

  it('moves a slot removed and added again to the end of its new list, as Set.delete then add does', () => {
    const lists = new SlotLists();
    for (const slot of [5, 6, 7]) lists.add(0, slot);
    lists.remove(5);
    lists.add(0, 5);
    lists.remove(7);
    lists.add(1, 7);
    expect(lists.slots(0)).toEqual([6, 5]);
    expect(lists.slots(1)).toEqual([7]);
  });
});
