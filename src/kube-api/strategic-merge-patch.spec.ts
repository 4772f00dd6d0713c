import { applyStrategicMergePatch, StrategicMergePatchError } from './strategic-merge-patch';

// Cases from apimachinery pkg/util/strategicpatch/patch.go semantics with core/v1 merge keys.
describe('applyStrategicMergePatch', () => {
  it.each([
    ['merges maps key by key', { a: 1, b: { c: 2 } }, { b: { d: 3 } }, { a: 1, b: { c: 2, d: 3 } }],
    [
      'null deletes a key',
      { metadata: { labels: { a: '1', b: '2' } } },
      { metadata: { labels: { a: null } } },
      { metadata: { labels: { b: '2' } } },
    ],
    [
      'spec.taints has no patch strategy: replaced whole (kubectl taint)',
      { spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] } },
      { spec: { taints: [{ key: 'b', effect: 'NoExecute' }] } },
      { spec: { taints: [{ key: 'b', effect: 'NoExecute' }] } },
    ],
    [
      'status.conditions merge on type',
      {
        status: {
          conditions: [
            { type: 'Ready', status: 'True' },
            { type: 'DiskPressure', status: 'False' },
          ],
        },
      },
      { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'KubeletDown' }] } },
      {
        status: {
          conditions: [
            { type: 'Ready', status: 'False', reason: 'KubeletDown' },
            { type: 'DiskPressure', status: 'False' },
          ],
        },
      },
    ],
    [
      '$patch: delete removes a keyed element',
      {
        status: {
          conditions: [
            { type: 'Ready', status: 'True' },
            { type: 'X', status: 'True' },
          ],
        },
      },
      { status: { conditions: [{ type: 'X', $patch: 'delete' }] } },
      { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
    ],
    [
      '$patch: replace replaces a map',
      { metadata: { labels: { a: '1', b: '2' } } },
      { metadata: { labels: { c: '3', $patch: 'replace' } } },
      { metadata: { labels: { c: '3' } } },
    ],
    [
      '$setElementOrder orders a merged list',
      { spec: { containers: [{ name: 'a' }, { name: 'b' }] } },
      {
        $setElementOrder: undefined,
        spec: {
          '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }],
          containers: [{ name: 'b', image: 'x' }],
        },
      },
      { spec: { containers: [{ name: 'b', image: 'x' }, { name: 'a' }] } },
    ],
    [
      'finalizers merge as a primitive list; $deleteFromPrimitiveList removes',
      { metadata: { finalizers: ['a', 'b'] } },
      { metadata: { finalizers: ['c'], '$deleteFromPrimitiveList/finalizers': ['a'] } },
      { metadata: { finalizers: ['b', 'c'] } },
    ],
    [
      '$retainKeys keeps only the listed keys',
      { spec: { a: 1, b: 2 } },
      { spec: { $retainKeys: ['b'], b: 3 } },
      { spec: { b: 3 } },
    ],
  ])('%s', (_name, original, patch, expected) => {
    const clean = JSON.parse(JSON.stringify(patch));
    expect(applyStrategicMergePatch(original as never, clean)).toEqual(expected);
  });

  it.each([
    ['an unknown directive', { $foo: 1 }],
    ['an unknown $patch value', { spec: { $patch: 'explode' } }],
    ['a keyed element without its merge key', { status: { conditions: [{ status: 'True' }] } }],
    ['a patch that is not an object', [1]],
  ])('refuses %s', (_name, patch) => {
    expect(() => applyStrategicMergePatch({ status: { conditions: [] } } as never, patch)).toThrow(
      StrategicMergePatchError,
    );
  });

  it('leaves the original untouched', () => {
    const original = { metadata: { labels: { a: '1' } } };
    applyStrategicMergePatch(original as never, { metadata: { labels: { a: null } } });
    expect(original).toEqual({ metadata: { labels: { a: '1' } } });
  });
});
