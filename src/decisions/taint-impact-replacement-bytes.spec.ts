import { taintImpactBytes } from './rest/taint-impact-bytes';
import { impactInventory } from './testing/impact-inventory';

// The re-placement answer written from the pod columns (re-placement-columns.ts and
// taint-impact-replacement-bytes.ts) must be the very bytes the REST controller sent before:
// taintImpactBytes(taintImpact(body)), which taint-impact-bytes.spec.ts holds to
// Buffer.from(JSON.stringify(presentTaintImpact(answer))) and re-placement.spec.ts to the reference.
const now = new Date('2026-11-25T12:00:00Z');
const { stored, service, snapshot } = impactInventory(now, 21);

const DRAIN = 'maintenance.example.com/drain=true:NoExecute';
const later = (s: number) => new Date(now.getTime() + s * 1000).toISOString();

function same(body: Record<string, unknown>) {
  const request = { ...body, replacement: true };
  const columns = service.taintImpactReplacementBytes(request)!;
  const objects = taintImpactBytes(service.taintImpact(request));
  expect(columns.toString()).toBe(objects.toString());
  expect(columns.equals(objects)).toBe(true);
  return JSON.parse(columns.toString());
}

describe('taint-impact with re-placement as bytes from the pod columns against the objects path', () => {
  it.each([
    ['the bench body (drain over the search pool)', { taints: [DRAIN], labelSelector: 'pool=search' }],
    ['the general pool (room elsewhere: nodes fill up)', { taints: [DRAIN], labelSelector: 'pool=general' }],
    ['a batch pool (tolerated for 30 s: EvictAfter)', { taints: [DRAIN], labelSelector: 'pool=batch-a' }],
    ['the same an hour later (expired deadlines)', { taints: [DRAIN], labelSelector: 'pool=batch-a', at: later(3600) }],
    [
      'one zone 20 s later (some expired, some not)',
      { taints: [DRAIN], labelSelector: 'topology.kubernetes.io/zone=us-central1-b', at: later(20) },
    ],
    ['not-ready everywhere (DaemonSets tolerate)', { taints: ['node.kubernetes.io/not-ready:NoExecute'], all: true }],
    [
      'removals (warnings, pending pods, nothing evicted)',
      { taints: ['node.kubernetes.io/not-ready:NoExecute-', 'dedicated-'], all: true },
    ],
    ['named nodes', { taints: [DRAIN], nodes: stored.nodes.slice(0, 40).map((n) => n.name) }],
  ])('sends the same bytes for %s', (_, body) => {
    same(body);
  });

  it('covers placements, stranded pods, DaemonSet pods, EvictAfter, tolerating pods, budgets and warnings', () => {
    const general = same({ taints: [DRAIN], labelSelector: 'pool=general' });
    expect(general.evictions.some((e: { placement: unknown }) => e.placement !== null)).toBe(true);
    expect(general.stranded.length).toBeGreaterThan(0);
    expect(general.budgets.length).toBeGreaterThan(0);
    expect(general.evictions.some((e: { unplacedReason?: string }) => e.unplacedReason?.startsWith('DaemonSet'))).toBe(
      true,
    );
    const batch = same({ taints: [DRAIN], labelSelector: 'pool=batch-a' });
    expect(batch.evictions.some((e: { action: string }) => e.action === 'EvictAfter')).toBe(true);
    const notReady = same({ taints: ['node.kubernetes.io/not-ready:NoExecute'], all: true });
    expect(notReady.tolerating.length).toBeGreaterThan(0);
    const removal = same({ taints: ['dedicated-'], all: true });
    expect(removal.warnings.length).toBeGreaterThan(0);
  });

  it('orders by priority before the names, and escapes names and namespaces that need it', () => {
    const node = stored.nodes.find((n) => n.labels.pool === 'general')!.name;
    const on = stored.pods.filter((p) => p.nodeName === node && p.owner?.kind !== 'DaemonSet');
    on.forEach((pod, i) => snapshot.upsertPod({ ...pod, priority: (i * 7919) % 5 }));
    snapshot.upsertPod({ ...on[0], name: 'quote"back\\slash-é-\u2028' });
    snapshot.upsertPod({ ...on[0], namespace: 'ns-"q"', name: 'zz' });
    const answer = same({ taints: [DRAIN], nodes: [node] });
    expect(answer.evictions.map((e: { pod: { name: string } }) => e.pod.name)).toContain('quote"back\\slash-é-\u2028');
    same({ taints: [DRAIN], labelSelector: 'pool=general' });
  });

  it('keeps the name order as pods come and go (the snapshot ranks each namespace once until a pod is added)', () => {
    const body = { taints: [DRAIN], labelSelector: 'pool=search' };
    const before = same(body); // the ranks are built
    const node = before.evictions[0].node as string;
    const [first, second] = before.evictions.map((e: { pod: { namespace: string; name: string } }) => e.pod);
    const pod = snapshot.pod(first.namespace, first.name)!;
    snapshot.removePod(second.namespace, second.name);
    const afterRemoval = same(body);
    expect(afterRemoval.evictions.length).toBe(before.evictions.length - 1);
    for (const name of ['aaa-first', 'zzz-last', `${first.name}-0`])
      snapshot.upsertPod({ ...pod, name, nodeName: node });
    const afterAdding = same(body);
    expect(afterAdding.stranded.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['aaa-first', 'zzz-last', `${first.name}-0`]),
    );
  });

  it('leaves pages, the lists without re-placement and the summary to the other paths', () => {
    for (const extra of [{ limit: 10, replacement: true }, {}, { summary: true }])
      expect(
        service.taintImpactReplacementBytes({ taints: [DRAIN], labelSelector: 'pool=search', ...extra }),
      ).toBeUndefined();
  });
});
