import { SecondSighting } from './second-sighting';

describe('SecondSighting', () => {
  it.each([
    { name: 'first sighting', keys: ['a'], seen: [false] },
    { name: 'second and later sightings', keys: ['a', 'a', 'a'], seen: [false, true, true] },
    { name: 'distinct keys never', keys: ['a', 'b', 'c'], seen: [false, false, false] },
    { name: 'a key survives one generation change', keys: ['a', 'b', 'c', 'a'], seen: [false, false, false, true] },
    {
      name: 'a key is forgotten after two generations',
      keys: ['a', 'b', 'c', 'd', 'e', 'a'],
      seen: [false, false, false, false, false, false],
    },
  ])('$name', ({ keys, seen }) => {
    const sighting = new SecondSighting(2);
    expect(keys.map((k) => sighting.seenBefore(k))).toEqual(seen);
  });
});
