import { randomUUID } from 'node:crypto';
import type { StoredPod } from '../../model/stored-objects';
import { specDatabase } from '../testing/spec-database';
import { PodRepository, type PodWrite } from './pod.repository';

jest.setTimeout(120_000);

/**
 * The pod reads that come back as one text value (`podsWhere`: every pod's text joined by the record separator, with
 * their count) answer what Prisma's own read of each pod answers, in the order the rows would have come in; a field
 * holding a separator (record or field) costs a second read, never a pod. Embedded PGlite by default; PostgreSQL
 * with DATABASE_URL.
 */
describe('PodRepository reads of many pods in one value', () => {
  const db = specDatabase('pod-aggregate-reads');
  const repo = new PodRepository();
  // A PostgreSQL database may hold earlier runs' pods: this run's nodes, namespaces and uids are its own.
  const tag = randomUUID().slice(0, 8);
  const node = (i: number) => `agg-${tag}-node-${i % 3}`;

  const pod = (i: number, over: Partial<PodWrite> = {}): PodWrite => ({
    namespace: `agg-${tag}-ns-${i % 4}`,
    name: `pod-${(i * 7919) % 211}`,
    uid: `agg-${tag}-uid-${i}`,
    labels: { app: `a${i % 5}` },
    nodeName: node(i),
    phase: 'Running',
    boundAt: new Date(Date.UTC(2026, 10, 25, 9, 0, 0, i)),
    tolerations: i % 2 ? [] : [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: i }],
    nodeSelector: {},
    affinity: null,
    priority: i,
    owner: i % 3 ? { kind: 'ReplicaSet', name: `rs-${i % 7}` } : null,
    resources: { requests: { cpu: '100m' } },
    requests: { cpu: 100 },
    hostNetwork: false,
    ...over,
  });

  const odd = [
    pod(100, { name: `record\u001esep-${tag}` }), // more pieces than pods: read again row by row
    pod(101, { name: `field\u001fsep-${tag}` }), // a row that will not split: read again by id
    pod(102, { owner: { kind: 'ReplicaSet', name: 'both\u001e\u001f' } }),
    pod(103, { namespace: `agg-${tag}-é`, name: 'ünïcode "quoted" \\ back' }),
  ];
  const plain = Array.from({ length: 80 }, (_, i) => pod(i));
  const gone = pod(104, { phase: 'Succeeded' });

  beforeAll(async () => {
    await repo.upsertPods(db().prisma, [...plain, ...odd, gone], new Date('2026-11-25T10:00:00.000Z'));
  });

  /** Each pod as Prisma's own read (findByKey) answers it. */
  const oneByOne = async (pods: readonly StoredPod[]) =>
    Promise.all(pods.map(async (p) => (await repo.findByKey(db().prisma, p.namespace, p.name))!));
  /** The keys in the order the database sorts them (its collation), read without the one-value path. */
  const sortedKeys = async (where: string, params: unknown[]) =>
    (
      await db().prisma.$queryRawUnsafe<Array<{ namespace: string; name: string }>>(
        `SELECT namespace, name FROM pods WHERE ${where} ORDER BY namespace, name`,
        ...params,
      )
    ).map((r) => `${r.namespace}/${r.name}`);
  const keys = (pods: ReadonlyArray<{ namespace: string; name: string }>) =>
    pods.map((p) => `${p.namespace}/${p.name}`);

  it('findByUids: every pod asked for, whole, separators in its fields or not', async () => {
    for (const asked of [plain, odd, [...odd, ...plain.slice(0, 10)], [odd[0]]]) {
      const read = await repo.findByUids(
        db().prisma,
        asked.map((p) => p.uid),
      );
      expect(read.map((p) => p.uid).sort()).toEqual(asked.map((p) => p.uid).sort());
      expect(read).toEqual(await oneByOne(read));
    }
    expect(await repo.findByUids(db().prisma, [`agg-${tag}-nobody`])).toEqual([]);
  });

  it('findActiveOnNodes: the active pods of the nodes in (namespace, name) order, the odd ones included', async () => {
    const nodes = [0, 1, 2].map(node);
    const read = await repo.findActiveOnNodes(db().prisma, nodes);
    expect(keys(read)).toEqual(
      await sortedKeys(`node_name = ANY($1::text[]) AND phase IN ('Pending', 'Running')`, [nodes]),
    );
    expect(read).toHaveLength(plain.length + odd.length);
    expect(read).toEqual(await oneByOne(read));
  });

  it('findToPlanOnNodes: the same pods as findActiveOnNodes, in its order, with the fields the planner reads', async () => {
    const nodes = [0, 1, 2].map(node);
    const whole = await repo.findActiveOnNodes(db().prisma, nodes);
    const toPlan = await repo.findToPlanOnNodes(db().prisma, nodes);
    expect(keys(toPlan)).toEqual(keys(whole));
    expect(toPlan.map((p) => [p.uid, p.nodeName, p.phase, p.boundAt, p.createdAt, p.tolerations])).toEqual(
      whole.map((p) => [p.uid, p.nodeName, p.phase, p.boundAt, p.createdAt, p.tolerations]),
    );
  });

  it('list: pages of any size put together are the whole list in order, each page in order', async () => {
    const namespaces = [0, 1, 2, 3].map((i) => `agg-${tag}-ns-${i}`);
    for (const namespace of namespaces) {
      const whole = await repo.list(db().prisma, { namespace }, 1000);
      expect(keys(whole)).toEqual(await sortedKeys('namespace = $1', [namespace]));
      const paged: StoredPod[] = [];
      for (let page = await repo.list(db().prisma, { namespace }, 7); page.length > 0;) {
        paged.push(...page);
        const last = page[page.length - 1];
        page = await repo.list(db().prisma, { namespace }, 7, { namespace: last.namespace, name: last.name });
      }
      expect(keys(paged)).toEqual(keys(whole));
    }
    const withRecordSep = await repo.list(db().prisma, { namespace: odd[0].namespace }, 1000);
    expect(withRecordSep.map((p) => p.name)).toContain(odd[0].name);
  });
});
