import { orderByName } from './name-order';

// orderByName must give the order of a comparison sort by (group, name) with `<` on the names.
function reference(group: Int32Array, names: readonly string[]): number[] {
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return names.map((_, i) => i).sort((a, b) => group[a] - group[b] || compare(names[a], names[b]));
}

function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('orderByName', () => {
  it.each([1, 2, 3, 4, 5])('orders like a comparison sort (seed %i)', (seed) => {
    const rand = random(seed);
    const alphabet = ['a', 'b', 'z', '-', '0', '9', 'é', '\u2028', '\ud83d\ude00', '\ud800', 'A', '~'];
    const prefixes = ['', 'web-', 'web-7f9c8d-', 'search-api-6d4f8b9c7-', 'w'];
    const used = new Set<string>();
    const names: string[] = [];
    const groups: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const g = Math.floor(rand() * 4);
      let name: string;
      do {
        name = prefixes[Math.floor(rand() * prefixes.length)];
        const length = Math.floor(rand() * 7);
        for (let k = 0; k < length; k++) name += alphabet[Math.floor(rand() * (rand() < 0.8 ? 6 : alphabet.length))];
      } while (used.has(`${g}/${name}`));
      used.add(`${g}/${name}`);
      names.push(name);
      groups.push(g);
    }
    const group = Int32Array.from(groups);
    expect(Array.from(orderByName(group, 4, names))).toEqual(reference(group, names));
  });

  it('orders prefixes first, empty names, one name and none', () => {
    const names = ['ab', 'a', '', 'abc', 'b', 'a\u0000'];
    const group = new Int32Array(names.length);
    expect(Array.from(orderByName(group, 1, names))).toEqual(reference(group, names));
    expect(Array.from(orderByName(new Int32Array(1), 1, ['x']))).toEqual([0]);
    expect(Array.from(orderByName(new Int32Array(0), 0, []))).toEqual([]);
  });
});
