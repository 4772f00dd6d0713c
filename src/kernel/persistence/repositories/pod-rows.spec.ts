import { collectGarbageNow } from '../../runtime/full-collection';
import { JsonInterner, ownString, podsFromTexts } from './pod-rows';

// A real full collection on demand (Jest does not pass --expose-gc).
const gc = (): void => void collectGarbageNow();

/** A POD_TEXT value (20 fields joined by \x1f) whose first field pads the row to ~`bytes`. */
function rowText(i: number, bytes: number): string {
  const fields = [
    String(i).padStart(bytes, '0'),
    'payments',
    `checkout-worker-7d9f8c6b5-${i}`,
    `1f80da7b-5529-4f12-8fad-${String(i).padStart(12, '0')}`,
    'gke-prod-general-560b8cab-cw6z',
    'Running',
    '1794205181000',
    '[{"key": "node.kubernetes.io/not-ready", "effect": "NoExecute", "operator": "Exists", "tolerationSeconds": 300}]',
    '{}',
    '',
    '0',
    'ReplicaSet',
    'checkout-worker-7d9f8c6b5',
    '{"requests": {"cpu": "100m"}}',
    '{"cpu": 100}',
    'false',
    String(1000 + i),
    '1794205180000',
    '1794205181000',
    '{"app": "checkout"}',
  ];
  return fields.join('\x1f');
}

describe('ownString', () => {
  it.each([
    ['a short string', 'payments'],
    ['a long one', 'checkout-worker-7d9f8c6b5-x8k2p'],
    ['a lone surrogate (a UTF-8 Buffer would replace it)', 'ab\ud800cd-very-long-name-here'],
    ['astral characters', '💥-pod-with-a-long-name-é'],
    ['the empty string', ''],
  ])('%s is returned equal', (_what, text) => {
    const sliced = `${'x'.repeat(100)}${text}`.slice(100);
    expect(ownString(sliced)).toBe(text);
  });
});

describe('podsFromTexts keeps no row text alive', () => {
  it('20,000 pods read from 4 KB rows hold a fraction of the rows once the texts are dropped', async () => {
    const rows = 20_000;
    const json = new JsonInterner();
    gc();
    const before = process.memoryUsage().heapUsed;
    // The texts live only inside this call, as a page of query results does in the snapshot loader.
    const pods = await podsFromTexts(
      Array.from({ length: rows }, (_, i) => rowText(i, 4096)),
      json,
      () => Promise.reject(new Error('every row is readable')),
    );
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    expect(pods).toHaveLength(rows);
    expect(pods[7]).toMatchObject({ name: 'checkout-worker-7d9f8c6b5-7', namespace: 'payments', phase: 'Running' });
    // The rows were ~80 MB; slices of them (name, uid, node name) would keep all of it.
    expect(grown).toBeLessThan(25 * 2 ** 20);
  });
});
