import { splitKey, vanishedKeys } from './relist-diff';

describe('vanishedKeys: what a relist deletes (only the difference is written)', () => {
  it.each<[string, string[], string[], string[]]>([
    ['nothing stored', [], ['a', 'b'], []],
    ['nothing vanished', ['a', 'b'], ['a', 'b', 'c'], []],
    ['one vanished', ['a', 'b', 'c'], ['a', 'c'], ['b']],
    ['everything vanished (an empty cluster)', ['b', 'a'], [], ['a', 'b']],
    ['pods by namespace/name', ['ns1/p', 'ns2/p'], ['ns1/p'], ['ns2/p']],
    ['a same name in another namespace is another pod', ['a/x'], ['b/x'], ['a/x']],
  ])('%s', (_, stored, listed, expected) => {
    expect(vanishedKeys(stored, new Set(listed))).toEqual(expected);
  });
});

describe('splitKey', () => {
  it.each([
    ['kube-system/coredns-1', { namespace: 'kube-system', name: 'coredns-1' }],
    ['default/a.b', { namespace: 'default', name: 'a.b' }],
  ])('%s', (key, expected) => expect(splitKey(key)).toEqual(expected));
});
