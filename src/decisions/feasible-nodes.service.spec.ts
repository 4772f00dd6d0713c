import type { Principal } from '../kernel/auth/roles';
import type { AppConfig } from '../kernel/config/config.schema';
import { applyAdmissionDefaults } from '../domain/admission/apply-admission-defaults';
import { decideFeasibleNodes } from '../domain/scheduling/feasible-nodes';
import type { StoredNode, StoredPod } from '../kernel/model/stored-objects';
import type { PodService } from '../inventory/pod.service';
import { Metrics } from '../kernel/observability/metrics';
import { InventorySnapshot } from '../kernel/snapshot/inventory-snapshot';
import type { SnapshotService } from '../kernel/snapshot/snapshot.service';
import { FeasibleNodesService } from './feasible-nodes.service';

const at = new Date('2026-01-01T00:00:00Z');
const node = (name: string, over: Partial<StoredNode> = {}): StoredNode => ({
  name,
  labels: { zone: 'a' },
  taints: [],
  unschedulable: false,
  conditions: [],
  allocatable: { cpu: '1', memory: '8Gi', pods: '110' },
  resourceVersion: '1',
  createdAt: at,
  updatedAt: at,
  ...over,
});
const pod = (name: string, over: Partial<StoredPod> = {}): StoredPod => ({
  namespace: 'default',
  name,
  uid: `uid-${name}`,
  labels: {},
  nodeName: null,
  phase: 'Pending',
  boundAt: null,
  tolerations: [],
  nodeSelector: {},
  affinity: null,
  priority: 0,
  owner: null,
  resources: { requests: { cpu: '600m' } },
  requests: { cpu: 600 },
  hostNetwork: false,
  resourceVersion: '1',
  createdAt: at,
  updatedAt: at,
  ...over,
});
const admin: Principal = { name: 'a', role: 'admin', anonymous: false };
const viewer: Principal = { name: 'v', role: 'viewer', anonymous: false };

function setUp() {
  const snapshot = new InventorySnapshot();
  snapshot.load(
    [
      node('n1'),
      node('n2', { labels: { zone: 'b' } }),
      node('n3', { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] }),
      node('n4', { unschedulable: true }),
    ],
    [pod('bound', { nodeName: 'n1', phase: 'Running' })],
  );
  const metrics = new Metrics();
  const pods = {
    admit: (spec) => applyAdmissionDefaults(spec),
    get: () => Promise.reject(new Error('not in the snapshot')),
  } as Pick<PodService, 'admit' | 'get'>;
  const config = {
    COMPARISON_OPERATORS: true,
    REDACT_TAINTS: false,
    REDACT_TAINTS_BELOW_ROLE: 'operator',
  } as AppConfig;
  const service = new FeasibleNodesService({ snapshot } as SnapshotService, pods as PodService, config, metrics);
  const counts = async () => {
    const values = (await metrics.decisionCache.get()).values;
    return {
      hit: values.find((v) => v.labels.result === 'hit')?.value,
      miss: values.find((v) => v.labels.result === 'miss')?.value,
    };
  };
  return { snapshot, service, counts };
}

const body = { pod: { tolerations: [], resources: { requests: { cpu: '500m' } } }, limit: 10 };

describe('FeasibleNodesService decision cache', () => {
  it('answers a repeated question from the cache from its third asking, the same JSON text, counted as hit/miss', async () => {
    const { service, counts } = setUp();
    expect(await counts()).toEqual({ hit: 0, miss: 0 });
    const first = await service.feasibleNodesJson(body, admin);
    // Asked once, nothing was remembered; the second asking computes again and remembers it.
    const second = await service.feasibleNodesJson(JSON.parse(JSON.stringify(body)), admin);
    expect(second).toBe(first);
    expect(await counts()).toEqual({ hit: 0, miss: 2 });
    expect(await service.feasibleNodesJson(body, admin)).toBe(first);
    // The same question with its keys in another order.
    expect(
      await service.feasibleNodesJson(
        { limit: 10, pod: { resources: { requests: { cpu: '500m' } }, tolerations: [] } },
        admin,
      ),
    ).toBe(first);
    expect(await counts()).toEqual({ hit: 2, miss: 2 });
    expect(JSON.parse(first)).toEqual(await service.feasibleNodes(body, admin));
    expect(JSON.parse(first).message).toBe(
      '1/4 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {gpu: true}, 1 node(s) were unschedulable.',
    );
  });

  it('any snapshot change invalidates: the next answer is computed again and sees the change', async () => {
    const { snapshot, service, counts } = setUp();
    const before = JSON.parse(await service.feasibleNodesJson(body, admin));
    expect(before.feasibleCount).toBe(1);
    snapshot.removePod('default', 'bound');
    const after = JSON.parse(await service.feasibleNodesJson(body, admin));
    expect(after.feasibleCount).toBe(2);
    snapshot.upsertNode(node('n2', { labels: { zone: 'b' }, unschedulable: true }));
    expect(JSON.parse(await service.feasibleNodesJson(body, admin)).feasibleCount).toBe(1);
    expect(await counts()).toEqual({ hit: 0, miss: 3 });
  });

  it('keys on everything the answer depends on: redaction, limit, candidates, the pod', async () => {
    const { service, counts } = setUp();
    const full = await service.feasibleNodes(body, admin);
    const redacted = await service.feasibleNodes(body, viewer);
    expect(redacted.message).toContain('untolerated taint(s)');
    expect(full.message).toContain('{gpu: true}');
    expect((await service.feasibleNodes({ ...body, limit: 1 }, admin)).nodes).toHaveLength(1);
    expect(
      (await service.feasibleNodes({ ...body, nodeNames: ['n3', 'n2', 'n3'] }, admin)).nodes.map((n) => n.name),
    ).toEqual(['n2', 'n3']);
    expect((await service.feasibleNodes({ ...body, labelSelector: 'zone=b' }, admin)).totalNodes).toBe(1);
    expect(
      (await service.feasibleNodes({ ...body, pod: { ...body.pod, nodeSelector: { zone: 'b' } } }, admin))
        .feasibleCount,
    ).toBe(1);
    expect(
      (await service.feasibleNodes({ ...body, pod: { ...body.pod, resources: { requests: { cpu: '2' } } } }, admin))
        .feasibleCount,
    ).toBe(0);
    expect(await counts()).toEqual({ hit: 0, miss: 7 });
    // ['n3', 'n2', 'n3'] above is the same candidate set: this is its second asking (remembered), then a hit.
    expect(await service.feasibleNodes({ ...body, nodeNames: ['n2', 'n3'] }, admin)).toEqual(
      await service.feasibleNodes({ ...body, nodeNames: ['n3', 'n2'] }, admin),
    );
    expect(await counts()).toEqual({ hit: 1, miss: 8 });
  });

  it('a stored pod bound to a node does not count its own requests twice, cached or not', async () => {
    const { snapshot, service } = setUp();
    const answer = await service.feasibleNodes({ podRef: { namespace: 'default', name: 'bound' } }, admin);
    expect(answer.nodes.find((n) => n.name === 'n1')?.feasible).toBe(true);
    expect(await service.feasibleNodes({ podRef: { namespace: 'default', name: 'bound' } }, admin)).toEqual(answer);
    expect(await service.feasibleNodes({ podRef: { namespace: 'default', name: 'bound' } }, admin)).toEqual(answer);
    // The inline twin of the stored pod, unbound, sees n1 as full.
    const inline = await service.feasibleNodes(
      { pod: { tolerations: [], resources: { requests: { cpu: '600m' } } } },
      admin,
    );
    expect(inline.nodes.find((n) => n.name === 'n1')?.feasible).toBe(false);
    // The snapshot itself is untouched.
    expect(snapshot.schedulingNode('n1')?.requested.cpu).toBe(600);
  });

  it("gives the same answers as deciding over the snapshot's nodes directly", async () => {
    const { snapshot, service } = setUp();
    for (const cpu of ['100m', '500m', '1']) {
      const spec = { tolerations: [], resources: { requests: { cpu } } };
      const admitted = applyAdmissionDefaults(spec);
      const direct = decideFeasibleNodes(
        { spec: admitted, requests: { cpu: cpu === '1' ? 1000 : parseInt(cpu, 10) } },
        snapshot.schedulingNodes(),
        { limit: 100 },
      );
      expect(await service.feasibleNodes({ pod: spec }, admin)).toEqual(JSON.parse(JSON.stringify(direct)));
    }
  });

  it('errors are not cached: an invalid body fails every time, a missing node is a 404 every time', async () => {
    const { service } = setUp();
    const invalid = { pod: { tolerations: [{ operator: 'Exists', value: 'x' }] } };
    await expect(service.feasibleNodes(invalid, admin)).rejects.toMatchObject({ kind: 'Invalid' });
    await expect(service.feasibleNodes(invalid, admin)).rejects.toMatchObject({ kind: 'Invalid' });
    await expect(service.feasibleNodes({ pod: {}, bogus: 1 }, admin)).rejects.toMatchObject({ kind: 'BadRequest' });
    await expect(service.feasibleNodes({ pod: {}, nodeNames: ['nope'] }, admin)).rejects.toMatchObject({
      kind: 'NotFound',
    });
    await expect(service.feasibleNodes({ pod: {}, nodeNames: ['nope'] }, admin)).rejects.toMatchObject({
      kind: 'NotFound',
    });
  });
});
