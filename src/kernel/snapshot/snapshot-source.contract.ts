import { NodeRepository } from '../persistence/repositories/node.repository';
import { PodRepository } from '../persistence/repositories/pod.repository';
import { type Database } from '../persistence/database';
import { loadInventory } from './snapshot-source';

export const t0 = new Date('2026-01-01T00:00:00.000Z');

export async function seed(db: Database): Promise<void> {
  const nodes = new NodeRepository();
  const pods = new PodRepository();
  await nodes.create(db.prisma, {
    name: 'n1',
    labels: { zone: 'a', 'kubernetes.io/hostname': 'n1' },
    unschedulable: true,
    taints: [
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule', timeAdded: t0 },
      { key: 'maintenance', value: '', effect: 'NoExecute', timeAdded: t0 },
    ],
    conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: t0 }],
    allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
  });
  await nodes.create(db.prisma, {
    name: 'n2',
    labels: {},
    unschedulable: false,
    taints: [],
    conditions: [],
    allocatable: null,
  });
  const spec = {
    tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
    nodeSelector: { zone: 'a' },
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
        },
      },
    },
    priority: 5,
    owner: { kind: 'ReplicaSet', name: 'web-1' },
    resources: { requests: { cpu: '100m' } },
    requests: { cpu: 100 },
    hostNetwork: false,
    labels: { app: 'web' },
  };
  await pods.create(db.prisma, {
    namespace: 'default',
    name: 'bound',
    uid: 'u1',
    nodeName: 'n1',
    phase: 'Running',
    boundAt: t0,
    ...spec,
  });
  await pods.create(db.prisma, {
    namespace: 'default',
    name: 'pending',
    uid: 'u2',
    nodeName: null,
    phase: 'Pending',
    boundAt: null,
    ...spec,
    affinity: null,
    owner: null,
  });
  await pods.create(db.prisma, {
    namespace: 'default',
    name: 'done',
    uid: 'u3',
    nodeName: null,
    phase: 'Succeeded',
    boundAt: null,
    ...spec,
  });
  // The fast reader joins a row's fields with \x1f; a value holding one (nothing validates an owner's
  // name) must still come back whole, through the per-row fallback.
  await pods.create(db.prisma, {
    namespace: 'default',
    name: 'odd-owner',
    uid: 'u4',
    nodeName: 'n2',
    phase: 'Running',
    boundAt: new Date('2026-01-02T03:04:05.678Z'),
    ...spec,
    owner: { kind: 'Job', name: 'a\x1fb' },
  });
}

export async function expectSameAsRepositories(db: Database): Promise<void> {
  const fast = await loadInventory(db);
  const viaPrisma = {
    nodes: await new NodeRepository().findAll(db.prisma),
    pods: await new PodRepository().findAllActive(db.prisma),
  };
  const byName = <T extends { name: string }>(a: T[]) => [...a].sort((x, y) => x.name.localeCompare(y.name));
  expect(byName(fast.nodes)).toEqual(byName(viaPrisma.nodes));
  expect(byName(fast.pods)).toEqual(byName(viaPrisma.pods));
  expect(fast.pods.map((p) => p.name).sort()).toEqual(['bound', 'odd-owner', 'pending']);
  expect(fast.pods.find((p) => p.name === 'odd-owner')).toMatchObject({
    owner: { kind: 'Job', name: 'a\x1fb' },
    boundAt: new Date('2026-01-02T03:04:05.678Z'),
  });
  // the repository's plain-SQL reads (a taint mutation's bound pods, a sweep's due pods) agree too,
  // the row that will not split included
  const repo = new PodRepository();
  const bound = byName(viaPrisma.pods).filter((p) => p.nodeName !== null);
  expect(await repo.findActiveOnNodes(db.prisma, ['n1', 'n2'])).toEqual(bound);
  expect(byName(await repo.findByUids(db.prisma, ['u1', 'u3', 'u4']))).toEqual(
    byName([...bound, (await repo.findByKey(db.prisma, 'default', 'done'))!]),
  );
  // identical JSON values are shared, not re-parsed
  const [a, b] = byName(fast.pods).filter((p) => p.name !== 'odd-owner');
  expect(a.tolerations).toBe(b.tolerations);
}
