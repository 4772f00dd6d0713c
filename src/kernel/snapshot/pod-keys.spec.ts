import fc from 'fast-check';
import { PodKeys } from './pod-keys';

/**
 * PodKeys against a plain Map model: any sequence of keyings and removals (slots reused as the pod store
 * reuses them, names that collide across namespaces, non-ASCII names, enough churn to reclaim the arena and
 * rebuild the index) leaves the same answers to find, name, uid and the per-namespace listings.
 */
interface Held {
  nsId: number;
  name: string;
  uid: string;
}

const NAMES = ['a', 'web-0', 'web-1', 'ü-pod', 'db-日本', 'x'.repeat(253), 'web-00', 'Web-0', ''];

function nameFor(n: number): string {
  return n < NAMES.length ? NAMES[n] : `pod-${n.toString(36)}-${'z'.repeat(n % 7)}`;
}

function check(keys: PodKeys, model: Map<number, Held>, capacity: number): void {
  const bySlotKey = new Map<string, number>();
  for (const [slot, held] of model) bySlotKey.set(`${held.nsId}/${held.name}`, slot);
  for (const [slot, held] of model) {
    expect(keys.has(slot)).toBe(true);
    expect(keys.name(slot)).toBe(held.name);
    expect(keys.uid(slot)).toBe(held.uid);
    expect(keys.find(held.nsId, held.name)).toBe(slot);
  }
  for (let slot = 0; slot < capacity; slot++) if (!model.has(slot)) expect(keys.has(slot)).toBe(false);
  for (let nsId = 0; nsId < 4; nsId++)
    for (let n = 0; n < NAMES.length + 3; n++)
      expect(keys.find(nsId, nameFor(n))).toBe(bySlotKey.get(`${nsId}/${nameFor(n)}`));
  const namespaces = [...new Set([...model.values()].map((h) => h.nsId))].sort();
  expect(keys.namespaceIds().sort()).toEqual(namespaces);
  for (const nsId of namespaces) {
    const expected = [...model].filter(([, h]) => h.nsId === nsId).map(([slot]) => slot);
    expect([...keys.slotsIn(nsId)].sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
  }
}

describe('PodKeys', () => {
  it('answers as a Map of (namespace, name) → slot through any keyings and removals', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), nsId: fc.nat(3), name: fc.nat(NAMES.length + 40) }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const capacity = 512;
        const keys = new PodKeys();
        keys.grow(capacity);
        const model = new Map<number, Held>();
        const free: number[] = [];
        let top = 0;
        ops.forEach((o, i) => {
          if (o.kind === 'set') {
            const name = nameFor(o.name);
            if (keys.find(o.nsId, name) !== undefined) return;
            const slot = free.pop() ?? top++;
            const held = { nsId: o.nsId, name, uid: `uid-${i}-ß` };
            keys.set(slot, held.nsId, held.name, held.uid);
            model.set(slot, held);
          } else if (model.size > 0) {
            const slot = [...model.keys()][o.pick % model.size];
            keys.remove(slot);
            model.delete(slot);
            free.push(slot);
          }
        });
        check(keys, model, capacity);
      }),
      { numRuns: 200, seed: 20261127 },
    );
  });

  it('keeps every key through growth, arena reclaim and index rebuilds at bench size', () => {
    const keys = new PodKeys();
    const model = new Map<number, Held>();
    let capacity = 0;
    const free: number[] = [];
    let top = 0;
    // 20,000 pods keyed, then half removed and re-keyed with longer names three times over: the arena is
    // reclaimed and the index rebuilt more than once.
    const add = (nsId: number, name: string, uid: string) => {
      const slot = free.pop() ?? top++;
      if (slot >= capacity) keys.grow((capacity = Math.max(1024, capacity * 2)));
      keys.set(slot, nsId, name, uid);
      model.set(slot, { nsId, name, uid });
    };
    for (let i = 0; i < 20_000; i++) add(i % 4, `pod-${i}`, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    for (let round = 0; round < 3; round++) {
      for (const [slot, held] of [...model]) {
        if ((slot + round) % 2 !== 0) continue;
        keys.remove(slot);
        model.delete(slot);
        free.push(slot);
        add(held.nsId, `${held.name}-r${round}-${'q'.repeat(round * 20)}`, held.uid);
      }
    }
    expect(model.size).toBe(20_000);
    check(keys, model, capacity);
    keys.clear();
    expect(keys.find(0, 'pod-0')).toBeUndefined();
    expect(keys.namespaceIds()).toEqual([]);
  });
});
