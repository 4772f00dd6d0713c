import { parseLabelSelector } from '../domain/label-selector/parse-label-selector';
import { presentTaintImpact } from './rest/present-taint-impact';
import { impactInventory } from './testing/impact-inventory';

// The lists answer written from the pod columns (taint-impact-json.ts) must be the very bytes the REST
// controller sent before: JSON.stringify(presentTaintImpact(taintImpact(body))), budgets included.
const now = new Date('2026-11-25T12:00:00Z');
const { stored, service, budgets, snapshot } = impactInventory(now, 13);

function expectSameAnswer(body: Record<string, unknown>): string {
  const bytes = service.taintImpactJson(body)!;
  const expected = JSON.stringify(presentTaintImpact(service.taintImpact(body)));
  expect(bytes.toString()).toBe(expected); // a readable difference first
  expect(bytes.equals(Buffer.from(expected))).toBe(true); // then the very bytes, and no byte more
  return expected;
}

const DRAIN = 'maintenance.example.com/drain=true:NoExecute';
const later = (s: number) => new Date(now.getTime() + s * 1000).toISOString();

describe('taint-impact lists as JSON text from the pod columns against the objects path', () => {
  it.each([
    ['the bench body (drain over the search pool)', { taints: [DRAIN], labelSelector: 'pool=search' }],
    ['a batch pool (tolerated for 30 s: EvictAfter)', { taints: [DRAIN], labelSelector: 'pool=batch-a' }],
    ['the same an hour later (expired deadlines)', { taints: [DRAIN], labelSelector: 'pool=batch-a', at: later(3600) }],
    ['every node 20 s later (some expired, some not)', { taints: [DRAIN], all: true, at: later(20) }],
    ['not-ready everywhere (DaemonSets tolerate)', { taints: ['node.kubernetes.io/not-ready:NoExecute'], all: true }],
    [
      'removals (warnings, pending pods)',
      { taints: ['node.kubernetes.io/not-ready:NoExecute-', 'dedicated-'], all: true },
    ],
    ['a NoSchedule taint (pending pods lose nodes)', { taints: ['x=y:NoSchedule'], all: true }],
    ['named nodes', { taints: [DRAIN], nodes: stored.nodes.slice(0, 40).map((n) => n.name) }],
  ])('writes the same bytes for %s', (_, body) => {
    expectSameAnswer(body);
  });

  it('covers budgets, EvictAfter, tolerating pods, pending pods that gain a node and warnings', () => {
    expect(budgets.length).toBeGreaterThan(0);
    const all = JSON.parse(service.taintImpactJson({ taints: [DRAIN], all: true, at: later(20) })!.toString());
    expect(all.budgets.length).toBeGreaterThan(0);
    expect(all.evictions.some((e: { action: string }) => e.action === 'EvictAfter')).toBe(true);
    const notReady = JSON.parse(
      service.taintImpactJson({ taints: ['node.kubernetes.io/not-ready:NoExecute'], all: true })!.toString(),
    );
    expect(notReady.tolerating.length).toBeGreaterThan(0);
    const removal = JSON.parse(service.taintImpactJson({ taints: ['dedicated-'], all: true })!.toString());
    expect(removal.schedulablePending.length).toBeGreaterThan(0);
    expect(removal.warnings.length).toBeGreaterThan(0);
  });

  it('keeps each node name order as its pods change (the per-node index of the snapshot)', () => {
    const body = { taints: [DRAIN], labelSelector: 'pool=search' };
    service.taintImpactJson(body); // the order is built
    const bound = stored.pods.filter((p) => p.nodeName !== null && p.phase === 'Running');
    const [moved, removed] = [bound[0], bound[1]];
    const searchNode = JSON.parse(service.taintImpactJson(body)!.toString()).evictions[0].node as string;
    snapshot.upsertPod({ ...moved, name: 'aaa-first', nodeName: searchNode });
    snapshot.upsertPod({ ...moved, name: 'zzz-last', nodeName: searchNode });
    snapshot.removePod(removed.namespace, removed.name);
    expect(expectSameAnswer(body)).toContain('"name":"aaa-first"');
  });

  it('counts a budget per namespace when pods of two namespaces have equal labels (one shared labels object)', () => {
    const node = stored.nodes.find((n) => n.labels.pool === 'search')!.name;
    const base = stored.pods.find((p) => p.nodeName === node)!;
    for (const namespace of ['aa-one', 'bb-two']) {
      snapshot.upsertPod({ ...base, namespace, name: 'p', labels: { app: 'twin' }, phase: 'Running' });
      const spec = { ...budgets[0].spec, selector: { matchLabels: { app: 'twin' } } };
      snapshot.upsertBudget({ ...budgets[0], namespace, name: 'twin-pdb', spec });
    }
    const body = { taints: [DRAIN], nodes: [node] };
    const text = expectSameAnswer(body);
    const twins = JSON.parse(text).budgets.filter((b: { name: string }) => b.name === 'twin-pdb');
    expect(twins.map((b: { namespace: string; evictedTotal: number }) => [b.namespace, b.evictedTotal])).toEqual([
      ['aa-one', 1],
      ['bb-two', 1],
    ]);
  });

  it('writes names that JSON escapes or UTF-8 widens, and seconds beyond 2^31, as JSON.stringify does', () => {
    const node = stored.nodes.find((n) => n.labels.pool === 'batch-a')!.name;
    const base = stored.pods.find((p) => p.nodeName === node)!;
    const drain = { key: 'maintenance.example.com/drain', operator: 'Exists' as const, effect: 'NoExecute' as const };
    const odd: Array<[string, string, number | undefined]> = [
      ['ns-ü', 'quote"back\\slash', undefined], // evicted now
      ['ns-ü', 'ctl\u0001-\u2028-😀-\ud800', 60], // evicted after a minute
      ['plain', 'forever', undefined], // tolerated without seconds: listed as tolerating
      ['plain', 'tolerating-é', undefined],
      ['plain', 'far', 3e9], // afterSeconds past 2^31
      ['plain', 'farther', 8e12], // a deadline past year 9999 (RFC 3339's extended year)
    ];
    for (const [namespace, name, seconds] of odd) {
      const tolerates = name === 'forever' || name === 'tolerating-é' || seconds !== undefined;
      const tolerations = tolerates
        ? [{ ...drain, ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}) }]
        : [];
      snapshot.upsertPod({ ...base, namespace, name, tolerations, phase: 'Running' });
    }
    const text = expectSameAnswer({ taints: [DRAIN], nodes: [node] });
    const answer = JSON.parse(text);
    expect(answer.evictions.some((e: { afterSeconds: number }) => e.afterSeconds > 2 ** 31)).toBe(true);
    expect(answer.tolerating.some((t: { pod: { name: string } }) => t.pod.name === 'tolerating-é')).toBe(true);
    expect(text).toContain('ns-ü');
  });

  it("picks the same nodes through the snapshot label index as by every node's labels", () => {
    const pick = (service as unknown as { candidateNodes: (...a: unknown[]) => Array<{ name: string }> })
      .candidateNodes;
    for (const selector of [
      'pool=search',
      'pool==batch-a',
      'pool in (search)',
      'pool in (search,batch-a)',
      'pool=search,zone!=none',
      'pool!=search',
      '!pool',
      'pool=nothing',
    ]) {
      const matches = parseLabelSelector(selector);
      const names = pick.call(service, snapshot, undefined, selector).map((n) => n.name);
      expect(names).toEqual(
        snapshot
          .schedulingNodes()
          .filter((n) => matches(n.labels))
          .map((n) => n.name),
      );
    }
  });

  it('leaves pages, re-placement and the summary to the objects path', () => {
    for (const extra of [{ limit: 10 }, { replacement: true }, { summary: true }])
      expect(service.taintImpactJson({ taints: [DRAIN], labelSelector: 'pool=search', ...extra })).toBeUndefined();
  });
});
