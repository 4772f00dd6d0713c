import { startTestApp, testModes, type TestApp } from '../support/test-app';
import { putNode, putPod, withoutNulls } from './decisions-helpers';

// API.md "Decisions" taint-impact: the summary form (`summary: true`) and the paged lists (`limit`,
// `continue`), through REST and GraphQL, in every mode. The cluster (pool=drain on all three nodes):
//   s1: web-1, web-2 (ReplicaSet web-abc, tolerate maintenance 60 s), lone (no owner, no toleration)
//   s2: web-3 (ReplicaSet web-abc), agent-s2 (DaemonSet agent, tolerates maintenance forever)
//   s3: agent-s3 (DaemonSet agent)
const AT = '2030-01-01T00:00:00.000Z';
const plus = (seconds: number) => new Date(Date.parse(AT) + seconds * 1000).toISOString();
const ref = (name: string) => ({ namespace: 'shop', name });
const BODY = { taints: ['maintenance=true:NoExecute'], labelSelector: 'pool=drain', at: AT };
const web = {
  owner: { kind: 'ReplicaSet', name: 'web-abc' },
  tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
};
const agent = {
  owner: { kind: 'DaemonSet', name: 'agent' },
  tolerations: [{ key: 'maintenance', operator: 'Exists', effect: 'NoExecute' }],
};

const COUNTS = 'evictNow evictAfter tolerating earliestEvictAt latestEvictAt';
const SUMMARY_QUERY = `query($taints: [String!]!, $labelSelector: String, $at: DateTime) {
  taintImpactSummary(taints: $taints, labelSelector: $labelSelector, at: $at) {
    at counts { ${COUNTS} unschedulablePending schedulablePending }
    byNode { node ${COUNTS} } byWorkload { namespace kind name ${COUNTS} } warnings
  }
}`;
const PAGE_QUERY = `query($taints: [String!]!, $labelSelector: String, $at: DateTime, $limit: Int, $continue: String) {
  taintImpact(taints: $taints, labelSelector: $labelSelector, at: $at, limit: $limit, continue: $continue) {
    at evictions { pod { namespace name } node action afterSeconds evictAt } tolerating { pod { namespace name } node }
    unschedulablePending { pod { namespace name } } schedulablePending { pod { namespace name } } warnings continue remainingItemCount
  }
}`;

describe.each(testModes())('taint-impact summary and pages (%s)', (mode) => {
  let app: TestApp;
  const impact = (body: unknown) => app.request('POST', '/v1/decisions/taint-impact', body);

  beforeAll(async () => {
    app = await startTestApp(mode);
    for (const n of ['s1', 's2', 's3']) await putNode(app, n, { labels: { pool: 'drain' } });
    const boundAt = '2029-12-31T00:00:00.000Z';
    await putPod(app, 'shop', 'web-1', { nodeName: 's1', boundAt, ...web });
    await putPod(app, 'shop', 'web-2', { nodeName: 's1', boundAt, ...web });
    await putPod(app, 'shop', 'lone', { nodeName: 's1', boundAt });
    await putPod(app, 'shop', 'web-3', { nodeName: 's2', boundAt, ...web });
    await putPod(app, 'shop', 'agent-s2', { nodeName: 's2', boundAt, ...agent });
    await putPod(app, 'shop', 'agent-s3', { nodeName: 's3', boundAt, ...agent });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('the summary counts per action, node and workload, with the earliest and latest evictAt (REST = GraphQL)', async () => {
    const r = await impact({ ...BODY, summary: true });
    expect(r.status).toBe(200);
    const counts = (
      evictNow: number,
      evictAfter: number,
      tolerating: number,
      earliest: string | null,
      latest: string | null,
    ) => ({ evictNow, evictAfter, tolerating, earliestEvictAt: earliest, latestEvictAt: latest });
    expect(r.body).toEqual({
      at: AT,
      counts: { ...counts(1, 3, 2, AT, plus(60)), unschedulablePending: 0, schedulablePending: 0 },
      byNode: [
        { node: 's1', ...counts(1, 2, 0, AT, plus(60)) },
        { node: 's2', ...counts(0, 1, 1, plus(60), plus(60)) },
        { node: 's3', ...counts(0, 0, 1, null, null) },
      ],
      byWorkload: [
        { namespace: 'shop', kind: 'DaemonSet', name: 'agent', ...counts(0, 0, 2, null, null) },
        { namespace: 'shop', kind: 'Pod', name: 'lone', ...counts(1, 0, 0, AT, AT) },
        { namespace: 'shop', kind: 'ReplicaSet', name: 'web-abc', ...counts(0, 3, 0, plus(60), plus(60)) },
      ],
      warnings: [],
    });
    const g = await app.graphql(SUMMARY_QUERY, BODY);
    expect(g.body.errors).toBeUndefined();
    expect(g.body.data!.taintImpactSummary).toEqual(r.body);
  });

  it('the summary agrees with the full lists it counts', async () => {
    const full = (await impact(BODY)).body;
    const summary = (await impact({ ...BODY, summary: true })).body;
    expect(summary.counts.evictNow + summary.counts.evictAfter).toBe(full.evictions.length);
    expect(summary.counts.tolerating).toBe(full.tolerating.length);
  });

  it('without summary or limit the answer is unchanged: every list whole, no paging fields', async () => {
    const r = await impact(BODY);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([
      'at',
      'budgets',
      'evictions',
      'schedulablePending',
      'tolerating',
      'unschedulablePending',
      'warnings',
    ]);
    expect(r.body.evictions).toHaveLength(4);
    expect(r.body.tolerating).toHaveLength(2);
  });

  it("pages walk the evictions then the tolerating pods, every item once, at the first page's instant (REST and GraphQL)", async () => {
    const full = (await impact(BODY)).body;
    // Without `at`, the first page's instant is kept by the token: pages agree even as the clock moves.
    const { at: _at, ...unpinned } = BODY;
    for (const via of ['rest', 'graphql'] as const) {
      const pages: any[] = [];
      let token: string | undefined;
      do {
        const vars = { ...unpinned, limit: 4, ...(token ? { continue: token } : {}) };
        const page =
          via === 'rest'
            ? (await impact(vars)).body
            : withoutNulls((await app.graphql(PAGE_QUERY, vars)).body.data!.taintImpact);
        pages.push(page);
        token = page.continue;
      } while (token && pages.length < 10);
      expect(pages).toHaveLength(2);
      expect(pages[0].evictions).toHaveLength(4);
      expect(pages[0].tolerating).toEqual([]);
      expect(pages[0].remainingItemCount).toBe(2);
      expect(pages[1].evictions).toEqual([]);
      expect(pages[1].tolerating).toEqual(full.tolerating);
      expect(pages[1].remainingItemCount).toBe(0);
      expect(pages[1].continue).toBeUndefined();
      expect(pages[1].at).toBe(pages[0].at);
      expect(pages[0].evictions.map((e: any) => [e.pod.name, e.action])).toEqual(
        full.evictions.map((e: any) => [e.pod.name, e.action]),
      );
    }
  });

  it('a page boundary inside a list resumes after the last item returned', async () => {
    const first = (await impact({ ...BODY, limit: 3 })).body;
    expect(first.evictions.map((e: any) => e.pod)).toEqual([ref('lone'), ref('web-1'), ref('web-2')]);
    expect(first.remainingItemCount).toBe(3);
    const second = (await impact({ ...BODY, limit: 2, continue: first.continue })).body;
    expect(second.evictions.map((e: any) => e.pod)).toEqual([ref('web-3')]);
    expect(second.tolerating).toEqual([{ pod: ref('agent-s2'), node: 's2' }]);
    expect(second.remainingItemCount).toBe(1);
    const third = (await impact({ ...BODY, limit: 2, continue: second.continue })).body;
    expect(third.tolerating).toEqual([{ pod: ref('agent-s3'), node: 's3' }]);
    expect(third.continue).toBeUndefined();
  });

  it.each([
    ['summary with limit', { ...BODY, summary: true, limit: 2 }, 'limit'],
    [
      'continue without limit',
      { ...BODY, continue: 'WyJldmljdGlvbnMiLCJzMSIsInNob3AiLCJsb25lIiwiMjAzMC0wMS0wMVQwMDowMDowMC4wMDBaIl0' },
      'limit',
    ],
    ['a continue token of another list', { ...BODY, limit: 2, continue: 'WyJhIiwiYiJd' }, 'continue'],
    ['limit 0', { ...BODY, limit: 0 }, 'limit'],
    ['limit over 5000', { ...BODY, limit: 5001 }, 'limit'],
  ])('400 naming the field: %s', async (_name, body, field) => {
    const r = await impact(body);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.errors)).toContain(`"field":"${field}`);
  });
});
