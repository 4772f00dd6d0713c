import { randomUUID } from 'node:crypto';
import type { PodToPlan } from '../../model/stored-objects';
import { specDatabase } from '../testing/spec-database';
import { PodRepository, type PodWrite } from './pod.repository';

jest.setTimeout(120_000);

/**
 * `findToPlanOnNodes` reads only what the eviction planner decides from; it must answer exactly those fields of the
 * pods `findActiveOnNodes` answers, in the same order. Embedded PGlite by default; PostgreSQL with DATABASE_URL.
 */
describe('PodRepository.findToPlanOnNodes: the planner fields of findActiveOnNodes, in its order', () => {
  const db = specDatabase('pod-plan-rows');
  const repo = new PodRepository();
  // A PostgreSQL database may hold earlier runs' pods: this run's nodes and uids are its own.
  const tag = randomUUID().slice(0, 8);

  const pod = (i: number, over: Partial<PodWrite>): PodWrite => ({
    namespace: `ns-${i % 3}`,
    name: `pod-${tag}-${(i * 7919) % 101}`,
    uid: `plan-${tag}-uid-${i}`,
    labels: { app: `a${i % 4}` },
    nodeName: `plan-${tag}-node-${i % 3}`,
    phase: 'Running',
    boundAt: i % 2 ? new Date(Date.UTC(2026, 10, 25, 9, 0, 0, i)) : null,
    tolerations:
      i % 5 === 0
        ? []
        : [{ key: 'maintenance.example.com/drain', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: i }],
    nodeSelector: {},
    affinity: null,
    priority: 0,
    owner: null,
    resources: { requests: { cpu: '100m' } },
    requests: { cpu: 100 },
    hostNetwork: false,
    ...over,
  });

  it('answers the same pods, fields and order, and reads a row whose text cannot be split whole', async () => {
    const pods = [
      ...Array.from({ length: 60 }, (_, i) => pod(i, {})),
      pod(60, { phase: 'Pending', boundAt: null }),
      pod(61, { phase: 'Succeeded' }), // not active: neither read answers it
      pod(62, { nodeName: `plan-${tag}-node-other` }), // another node
      pod(63, { name: `odd\u001fname-${tag}` }), // the separator in a name: read again whole
      pod(64, { namespace: 'é-namespace', name: 'ünïcode "quoted"' }),
    ];
    await repo.upsertPods(db().prisma, pods, new Date('2026-11-25T10:00:00.000Z'));
    const nodes = [0, 1, 2].map((i) => `plan-${tag}-node-${i}`);
    const whole = await repo.findActiveOnNodes(db().prisma, nodes);
    const toPlan = await repo.findToPlanOnNodes(db().prisma, nodes);
    const fields = (p: PodToPlan): PodToPlan => ({
      namespace: p.namespace,
      name: p.name,
      uid: p.uid,
      nodeName: p.nodeName,
      phase: p.phase,
      boundAt: p.boundAt,
      createdAt: p.createdAt,
      tolerations: p.tolerations,
    });
    expect(whole.length).toBe(63);
    expect(toPlan.map(fields)).toEqual(whole.map(fields));
    const odd = (p: PodToPlan) => p.name === `odd\u001fname-${tag}`;
    expect(toPlan.find(odd)).toEqual(whole.find(odd));
    expect(await repo.findToPlanOnNodes(db().prisma, [])).toEqual([]);
  });
});
