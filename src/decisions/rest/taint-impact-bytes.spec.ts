import { buildStoredInventory } from '../../../bench/ceiling';
import { generateInventory } from '../../../bench/generate-inventory';
import type { AppConfig } from '../../kernel/config/config.schema';
import { InventorySnapshot } from '../../kernel/snapshot/inventory-snapshot';
import type { SnapshotService } from '../../kernel/snapshot/snapshot.service';
import type { TaintImpactAnswer } from '../decision-answers';
import { TaintImpactService } from '../taint-impact.service';
import { presentTaintImpact } from './present-taint-impact';
import { taintImpactBytes } from './taint-impact-bytes';

// The REST answer must stay byte for byte what Fastify sent for the presented object: its JSON text,
// UTF-8 encoded.
const expected = (answer: TaintImpactAnswer) => Buffer.from(JSON.stringify(presentTaintImpact(answer)));

describe('taintImpactBytes', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  const inv = generateInventory({ nodes: 300, pods: 9_000, seed: 11, drainSeconds: 30, now });
  const stored = buildStoredInventory(inv, now);
  const snapshot = new InventorySnapshot();
  snapshot.load(stored.nodes, stored.pods);
  const service = new TaintImpactService({ snapshot } as SnapshotService, { COMPARISON_OPERATORS: true } as AppConfig, {
    now: () => now,
  });
  const drain = { taints: ['maintenance.example.com/drain=true:NoExecute'] };

  it.each([
    [
      're-placement over a pool (stranded pods share FitError messages)',
      { labelSelector: 'pool=search', replacement: true },
      1,
    ],
    ['re-placement with room elsewhere', { labelSelector: 'pool=general', replacement: true }, 0],
    ['no re-placement', { labelSelector: 'pool=search' }, 0],
    ['a first page', { labelSelector: 'pool=general', replacement: true, limit: 50 }, 0],
    ['nothing evicted', { nodes: [] }, 0],
  ])('writes the presented JSON: %s', (_, body, minStranded) => {
    const answer = service.taintImpact({ ...drain, ...body });
    expect(answer.evictions.filter((e) => e.unplacedReason).length).toBeGreaterThanOrEqual(minStranded * 100);
    expect(taintImpactBytes(answer).equals(expected(answer))).toBe(true);
  });

  it('writes the presented JSON of a later page', () => {
    const first = service.taintImpact({ ...drain, labelSelector: 'pool=general', replacement: true, limit: 40 });
    const next = service.taintImpact({
      ...drain,
      labelSelector: 'pool=general',
      replacement: true,
      limit: 40,
      continue: first.continue,
    });
    expect(next.continue).toBeDefined();
    expect(taintImpactBytes(next).equals(expected(next))).toBe(true);
  });

  it('escapes and encodes as JSON.stringify and UTF-8 do (quotes, controls, non-ASCII, lone surrogates)', () => {
    const odd = 'n\u00f6de "\\ \n\t\u0001 \u2028 \ud83d\ude80 \ud800 end';
    const answer: TaintImpactAnswer = {
      at: new Date('2026-01-02T03:04:05.678Z'),
      evictions: [
        {
          pod: { namespace: odd, name: `p-${odd}` },
          node: odd,
          action: 'EvictAfter',
          afterSeconds: 0.5,
          evictAt: new Date('2026-01-02T03:04:06.178Z'),
          placement: null,
          unplacedReason: `0/3 nodes are available: ${odd}`,
        },
        {
          pod: { namespace: 'a', name: 'b' },
          node: 'n1',
          action: 'EvictNow',
          afterSeconds: 0,
          evictAt: new Date('2026-01-02T03:04:05.678Z'),
          placement: { node: odd },
        },
        {
          pod: { namespace: 'a', name: 'c' },
          node: 'n1',
          action: 'EvictNow',
          afterSeconds: -0,
          evictAt: new Date('2026-01-02T03:04:05.678Z'),
        },
      ],
      tolerating: [{ pod: { namespace: odd, name: 'x' }, node: odd }],
      unschedulablePending: [],
      schedulablePending: [{ pod: { namespace: 'a', name: odd } }],
      warnings: [odd],
      budgets: [],
      workloads: undefined,
      stranded: [{ namespace: odd, name: `p-${odd}` }],
    };
    expect(taintImpactBytes(answer).equals(expected(answer))).toBe(true);
    expect(taintImpactBytes({ ...answer, evictions: [] }).equals(expected({ ...answer, evictions: [] }))).toBe(true);
  });
});
