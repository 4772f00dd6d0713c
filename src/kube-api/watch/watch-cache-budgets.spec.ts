import { Subject } from 'rxjs';
import type { EventBus } from '../../kernel/events/event-bus';
import type { StoredBudget } from '../../kernel/model/stored-budget';
import type { StoredPod } from '../../kernel/model/stored-objects';
import type { Database } from '../../kernel/persistence/database';
import { BudgetIndex } from '../../kernel/snapshot/budget-index';
import type { PodStore } from '../../kernel/snapshot/pod-store';
import type { AppliedChanges, SnapshotService } from '../../kernel/snapshot/snapshot.service';
import { KubeVersions } from './kube-versions';
import { WatchCache } from './watch-cache';

// The budgets MODIFIED with the pods that moved: each budget once, in the order its first moved pod selects it
// (budgets of one pod by name), whatever labels objects the pods share (the cache looks them up once per labels
// object and namespace).
const at = new Date('2026-11-25T00:00:00Z');
const budget = (namespace: string, name: string, matchLabels: Record<string, string>): StoredBudget => ({
  namespace,
  name,
  uid: `${namespace}-${name}`,
  labels: {},
  spec: { minAvailable: 1, selector: { matchLabels } } as StoredBudget['spec'],
  generation: 1,
  resourceVersion: '1',
  createdAt: at,
  updatedAt: at,
});
const pod = (namespace: string, name: string, labels: Record<string, string>, phase = 'Evicted'): StoredPod =>
  ({
    namespace,
    name,
    labels,
    phase,
    resourceVersion: '2',
    createdAt: at,
    updatedAt: new Date(at.getTime() + 1),
  }) as StoredPod;

const budgets = [
  budget('shop', 'web', { app: 'web' }),
  budget('shop', 'all-web', { tier: 'front' }),
  budget('shop', 'db', { app: 'db' }),
  budget('blog', 'web', { app: 'web' }),
  budget('blog', 'retired', { app: 'gone' }),
];
const web = { app: 'web', tier: 'front' };
const db = { app: 'db' };

const cases: Array<{ name: string; pods: StoredPod[]; deleted?: StoredPod[] }> = [
  { name: 'no pod', pods: [] },
  { name: 'one labels object over many pods', pods: [1, 2, 3].map((i) => pod('shop', `web-${i}`, web)) },
  {
    name: 'equal labels in distinct objects',
    pods: [pod('shop', 'web-1', { ...web }), pod('shop', 'web-2', { ...web }), pod('shop', 'db-1', { ...db })],
  },
  {
    name: 'one labels object in two namespaces',
    pods: [pod('blog', 'web-1', web), pod('shop', 'web-1', web), pod('blog', 'web-2', web)],
  },
  { name: 'db first, then web', pods: [pod('shop', 'db-1', db), pod('shop', 'web-1', web, 'Running')] },
  { name: 'no budget selects the pod', pods: [pod('shop', 'cache-1', { app: 'cache' }), pod('other', 'x', web)] },
  { name: 'deleted pods count as moved', pods: [pod('shop', 'db-1', db)], deleted: [pod('blog', 'web-9', web)] },
];

describe('WatchCache: budgets MODIFIED with their pods', () => {
  it.each(cases)('$name', ({ pods, deleted = [] }) => {
    const index = new BudgetIndex({} as PodStore, () => 0);
    for (const b of budgets) index.upsert(b);
    const applied = new Subject<AppliedChanges>();
    const snapshots = { applied, snapshot: { budgets: index } } as unknown as SnapshotService;
    const cache = new WatchCache(
      snapshots,
      { events: new Subject() } as unknown as EventBus,
      new KubeVersions({} as Database),
    );
    cache.onApplicationBootstrap();
    applied.next({
      nodes: [],
      deletedNodes: [],
      pods,
      deletedPods: deleted.map((p) => ({ namespace: p.namespace, name: p.name, last: p })),
      budgets: [],
      deletedBudgets: [],
    });
    // What every moved pod selects, in order, each budget once.
    const expected: string[] = [];
    for (const p of [...pods, ...deleted])
      for (const b of index.selecting(p.namespace, p.labels))
        if (!expected.includes(`${b.namespace}/${b.name}`)) expected.push(`${b.namespace}/${b.name}`);
    const seen = cache
      .after(0)
      .filter((e) => e.resource === 'poddisruptionbudgets')
      .map((e) => `${e.type} ${e.namespace}/${e.name}`);
    expect(seen).toEqual(expected.map((k) => `MODIFIED ${k}`));
  });

  it('names the budgets a labels object selects in its own namespace only', () => {
    const index = new BudgetIndex({} as PodStore, () => 0);
    for (const b of budgets) index.upsert(b);
    const applied = new Subject<AppliedChanges>();
    const snapshots = { applied, snapshot: { budgets: index } } as unknown as SnapshotService;
    const cache = new WatchCache(
      snapshots,
      { events: new Subject() } as unknown as EventBus,
      new KubeVersions({} as Database),
    );
    cache.onApplicationBootstrap();
    const pods = [pod('shop', 'web-1', web), pod('blog', 'web-1', web), pod('shop', 'db-1', db)];
    applied.next({ nodes: [], deletedNodes: [], pods, deletedPods: [], budgets: [], deletedBudgets: [] });
    const names = cache
      .after(0)
      .filter((e) => e.resource === 'poddisruptionbudgets')
      .map((e) => `${e.namespace}/${e.name}`);
    expect(names).toEqual(['shop/all-web', 'shop/web', 'blog/web', 'shop/db']);
  });
});
