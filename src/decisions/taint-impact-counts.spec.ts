import { presentTaintImpactSummary } from './rest/present-taint-impact';
import { impactInventory } from './testing/impact-inventory';
import { summarizeTaintImpact } from './testing/taint-impact-summary-reference';

// The summary counted from the pod columns (taint-impact-counts.ts) must answer exactly as the first
// version, which counted the rows of the lists' partition (testing/taint-impact-summary-reference.ts):
// same counts, instants, groups and order, on a generated inventory.
const now = new Date('2026-11-25T12:00:00Z');
const { stored, service, snapshot } = impactInventory(now, 11);

type WhatIf = Parameters<typeof summarizeTaintImpact>[1] extends infer E
  ? { at: Date; evictions: E; tolerating: Parameters<typeof summarizeTaintImpact>[2] } & {
      pending: { lost: unknown[]; gained: unknown[] };
      warnings: string[];
    }
  : never;

function reference(body: Record<string, unknown>) {
  const compute = (service as unknown as { computeTaintImpact(input: unknown): WhatIf }).computeTaintImpact;
  const impact = compute.call(service, body);
  return summarizeTaintImpact(
    impact.at,
    impact.evictions,
    impact.tolerating,
    { unschedulable: impact.pending.lost.length, schedulable: impact.pending.gained.length },
    impact.warnings,
  );
}

const DRAIN = 'maintenance.example.com/drain=true:NoExecute';
const later = (s: number) => new Date(now.getTime() + s * 1000).toISOString();

describe('taint-impact summary from the pod columns against the reference', () => {
  it.each([
    ['the bench body (drain over the search pool)', { taints: [DRAIN], labelSelector: 'pool=search' }],
    ['a batch pool (tolerated for 30 s: EvictAfter)', { taints: [DRAIN], labelSelector: 'pool=batch-a' }],
    ['the same an hour later (expired deadlines)', { taints: [DRAIN], labelSelector: 'pool=batch-a', at: later(3600) }],
    ['the same 20 s later (some expired, some not)', { taints: [DRAIN], all: true, at: later(20) }],
    [
      'not-ready everywhere (300 s tolerations, DaemonSets stay)',
      { taints: ['node.kubernetes.io/not-ready:NoExecute'], all: true },
    ],
    [
      'a removal that matches few nodes (warnings, pending gained)',
      { taints: ['node.kubernetes.io/not-ready:NoExecute-', 'dedicated-'], all: true },
    ],
    ['named nodes', { taints: [DRAIN], nodes: stored.nodes.slice(0, 40).map((n) => n.name) }],
  ])('answers the same for %s', (_, body) => {
    const fast = service.taintImpactSummary(body);
    const ref = reference(body);
    expect(fast.counts.evictNow + fast.counts.evictAfter + fast.counts.tolerating).toBeGreaterThan(0);
    expect(fast).toEqual(ref);
    const text = JSON.stringify(presentTaintImpactSummary(ref));
    expect(JSON.stringify(presentTaintImpactSummary(fast))).toBe(text);
    // the REST bytes, written from the tallies without Dates
    const bytes = service.taintImpactSummaryJson(body);
    expect(bytes.toString()).toBe(text);
    expect(bytes.equals(Buffer.from(text))).toBe(true);
  });

  it('covers every kind of row (EvictNow, EvictAfter, tolerating, pending, warnings)', () => {
    const batch = service.taintImpactSummary({ taints: [DRAIN], all: true, at: later(20) });
    expect(batch.counts.evictNow).toBeGreaterThan(0);
    expect(batch.counts.evictAfter).toBeGreaterThan(0);
    const notReady = service.taintImpactSummary({ taints: ['node.kubernetes.io/not-ready:NoExecute'], all: true });
    expect(notReady.counts.tolerating).toBeGreaterThan(0);
    const removal = service.taintImpactSummary({ taints: ['node.kubernetes.io/not-ready:NoExecute-'], all: true });
    expect(removal.warnings.length).toBeGreaterThan(0);
    expect(batch.byWorkload.some((w) => w.kind === 'Pod')).toBe(true);
  });

  it('keeps workloads apart by namespace when owners are equal, and merges a bare pod with an owner of kind Pod', () => {
    const node = stored.nodes.find((n) => n.labels.pool === 'search')!.name;
    const base = stored.pods.find((p) => p.nodeName === node)!;
    const shared = { kind: 'ReplicaSet', name: 'twin-rs', uid: 'u1', controller: true };
    ['zz-first', 'aa-second', 'zz-first'].forEach((namespace, i) =>
      snapshot.upsertPod({ ...base, namespace, name: `twin-${i}`, owner: shared }),
    );
    snapshot.upsertPod({ ...base, namespace: 'zz-first', name: 'solo', owner: null });
    snapshot.upsertPod({
      ...base,
      namespace: 'zz-first',
      name: 'owned-by-pod',
      owner: { ...shared, kind: 'Pod', name: 'solo' },
    });
    const body = { taints: [DRAIN], nodes: [node] };
    const fast = service.taintImpactSummary(body);
    expect(fast).toEqual(reference(body));
    const twins = fast.byWorkload
      .filter((w) => w.name === 'twin-rs')
      .map((w) => [w.namespace, w.evictNow + w.evictAfter]);
    expect(twins).toEqual([
      ['aa-second', 1],
      ['zz-first', 2],
    ]);
    const solo = fast.byWorkload.filter((w) => w.name === 'solo');
    expect(solo.map((w) => [w.kind, w.evictNow + w.evictAfter])).toEqual([['Pod', 2]]);
    expect(service.taintImpactSummaryJson(body).toString()).toBe(JSON.stringify(presentTaintImpactSummary(fast)));
  });

  it('counts what the nodes hold now after pods leave, move and change their binding (the packed index is dropped)', () => {
    const pool = stored.nodes.filter((n) => n.labels.pool === 'batch-a').map((n) => n.name);
    const body = { taints: [DRAIN], nodes: pool.slice(0, 6), at: later(20) };
    expect(service.taintImpactSummary(body)).toEqual(reference(body)); // the index of these nodes is built
    const onThem = stored.pods.filter((p) => p.nodeName !== null && pool.slice(0, 6).includes(p.nodeName));
    snapshot.removePod(onThem[0].namespace, onThem[0].name);
    snapshot.upsertPod({ ...onThem[1], nodeName: pool[5] === onThem[1].nodeName ? pool[4] : pool[5] });
    snapshot.upsertPod({ ...onThem[2], boundAt: new Date(now.getTime() - 3_600_000) });
    const moved = stored.pods.find((p) => p.nodeName !== null && !pool.slice(0, 6).includes(p.nodeName))!;
    snapshot.upsertPod({ ...moved, nodeName: pool[0] });
    const after = service.taintImpactSummary(body);
    expect(after).toEqual(reference(body));
    expect(service.taintImpactSummaryJson(body).toString()).toBe(JSON.stringify(presentTaintImpactSummary(after)));
  });

  it.each([
    ['a quote and a backslash', 'we"ird\\name'],
    ['a control character', 'tab\there'],
    ['U+2028', 'line\u2028sep'],
    ['an emoji', 'rocket-\u{1F680}'],
    ['a lone surrogate', 'half-\ud800'],
    ['a non-ASCII letter', 'caf\u00e9'],
  ])('writes the same bytes as JSON.stringify for a namespace, an owner and a bare pod named with %s', (_, odd) => {
    const node = stored.nodes.find((n) => n.labels.pool === 'search')!.name;
    const base = stored.pods.find((p) => p.nodeName === node)!;
    const owner = { kind: `Kind${odd}`, name: `owner-${odd}`, uid: 'u-odd', controller: true };
    snapshot.upsertPod({ ...base, namespace: `ns-${odd}`, name: `owned-${odd}`, owner });
    snapshot.upsertPod({ ...base, namespace: `ns-${odd}`, name: `bare-${odd}`, owner: null });
    const body = { taints: [DRAIN], nodes: [node] };
    const summary = service.taintImpactSummary(body);
    expect(summary).toEqual(reference(body));
    expect(summary.byWorkload.some((w) => w.namespace === `ns-${odd}` && w.name === `owner-${odd}`)).toBe(true);
    const text = JSON.stringify(presentTaintImpactSummary(summary));
    expect(service.taintImpactSummaryJson(body).equals(Buffer.from(text))).toBe(true);
  });
});
