import { NodeRepository } from '../../src/kernel/persistence/repositories/node.repository';
import { PodRepository } from '../../src/kernel/persistence/repositories/pod.repository';
import { startTestApp, testModes, type TestApp } from '../support/test-app';

// Issue 4 item 3: GraphQL inventory — the same services as REST, cursor connections, nested
// Node.pods / Pod.node resolved from the snapshot (no query per parent), AppError mapping.
const NODE_FIELDS =
  'name labels { key value } taints { key value effect timeAdded } unschedulable allocatable { key value } resourceVersion';
const POD_FIELDS =
  'namespace name uid nodeName phase tolerations { key operator value effect tolerationSeconds } resourceVersion';

describe.each(testModes())('inventory GraphQL (%s)', (mode) => {
  let app: TestApp;

  const gql = async (query: string, variables?: Record<string, unknown>): Promise<any> =>
    (await app.graphql(query, variables)).body;

  beforeAll(async () => {
    app = await startTestApp(mode);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('upsertNode / node / deleteNode: create, replace keeping timeAdded, delete', async () => {
    const upsert = `mutation($name: String!, $node: NodeInput!) { upsertNode(name: $name, node: $node) { ${NODE_FIELDS} } }`;
    const created = await gql(upsert, {
      name: 'g1',
      node: {
        labels: [{ key: 'pool', value: 'gpu' }],
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
        allocatable: [{ key: 'cpu', value: '4' }],
      },
    });
    expect(created.errors).toBeUndefined();
    expect(created.data.upsertNode).toMatchObject({
      name: 'g1',
      labels: [{ key: 'pool', value: 'gpu' }],
      unschedulable: false,
      allocatable: [{ key: 'cpu', value: '4' }],
      resourceVersion: '1',
    });
    const time = created.data.upsertNode.taints[0].timeAdded;
    expect(Date.parse(time)).toBeGreaterThan(0);
    const replaced = await gql(upsert, {
      name: 'g1',
      node: {
        labels: [{ key: 'pool', value: 'gpu' }],
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
        unschedulable: true,
        resourceVersion: '1',
      },
    });
    expect(replaced.data.upsertNode).toMatchObject({
      unschedulable: true,
      allocatable: null,
      resourceVersion: '2',
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule', timeAdded: time }],
    });
    const read = await gql(`{ node(name: "g1") { ${NODE_FIELDS} } }`);
    expect(read.data.node).toEqual(replaced.data.upsertNode);
    expect((await app.request('GET', '/v1/nodes/g1')).body.resourceVersion).toBe('2'); // one store for both transports

    const stale = await gql(upsert, { name: 'g1', node: { resourceVersion: '1' } });
    expect(stale.errors[0].extensions).toMatchObject({ code: 'CONFLICT', status: 409 });
    expect((await gql('mutation { deleteNode(name: "g1") }')).data.deleteNode).toBe(true);
    const missing = await gql('{ node(name: "g1") { name } }');
    expect(missing.errors[0]).toMatchObject({
      message: 'nodes "g1" not found',
      extensions: { code: 'NOT_FOUND', status: 404 },
    });
  });

  it('maps validation failures like REST: UNPROCESSABLE_ENTITY with extensions.errors', async () => {
    const r = await gql(
      'mutation { upsertNode(name: "g2", node: { taints: [{ key: "bad key!", effect: NoSchedule }] }) { name } }',
    );
    expect(r.data).toBeNull();
    expect(r.errors[0].extensions.code).toBe('UNPROCESSABLE_ENTITY');
    expect(r.errors[0].extensions.errors[0].field).toBe('taints[0].key');
    expect(r.errors[0].message).toMatch(/^Node "g2" is invalid: taints\[0\]\.key: Invalid value: "bad key!"/);
    const pod = await gql(
      'mutation { upsertPod(namespace: "default", name: "x", pod: { tolerations: [{ key: "", operator: Equal, value: "v" }] }) { name } }',
    );
    expect(pod.errors[0].extensions).toMatchObject({
      code: 'UNPROCESSABLE_ENTITY',
      errors: [
        {
          field: 'tolerations[0].operator',
          message: expect.stringContaining('operator must be Exists when `key` is empty'),
        },
      ],
    });
    // Newest apimachinery wording (docs/SEMANTICS.md B.2.0): content.IsLabelKey's MaxLenError says "bytes".
    const longKey = await gql(
      `mutation { upsertNode(name: "g2", node: { taints: [{ key: "${'k'.repeat(64)}", effect: NoSchedule }] }) { name } }`,
    );
    expect(longKey.errors[0].extensions.errors).toEqual([
      {
        field: 'taints[0].key',
        message: `Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 bytes`,
      },
    ]);
    const enumError = await gql(
      'mutation { upsertNode(name: "g2", node: { taints: [{ key: "a", effect: NoScheduled }] }) { name } }',
    );
    expect(enumError.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await app.request('GET', '/v1/nodes/g2')).status).toBe(404);
  });

  it('upsertPod applies the admission defaults; replace follows the toleration update rule; deletePod', async () => {
    const upsert = `mutation($name: String!, $pod: PodInput!) { upsertPod(namespace: "team", name: $name, pod: $pod) { ${POD_FIELDS} } }`;
    const created = await gql(upsert, {
      name: 'p1',
      pod: { tolerations: [{ key: 'a', operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 60 }] },
    });
    expect(created.errors).toBeUndefined();
    expect(created.data.upsertPod).toMatchObject({
      namespace: 'team',
      name: 'p1',
      nodeName: null,
      phase: 'Pending',
      resourceVersion: '1',
    });
    expect(created.data.upsertPod.tolerations).toEqual([
      { key: 'a', operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 60 },
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        value: null,
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        value: null,
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ]);
    const forbidden = await gql(upsert, {
      name: 'p1',
      pod: { tolerations: [{ key: 'a', operator: 'Equal', value: 'y', effect: 'NoExecute' }] },
    });
    expect(forbidden.errors[0].extensions).toMatchObject({
      code: 'UNPROCESSABLE_ENTITY',
      errors: [
        {
          field: 'tolerations',
          message: 'Forbidden: existing toleration can not be modified except its tolerationSeconds',
        },
      ],
    });
    const seconds = await gql(upsert, {
      name: 'p1',
      pod: { tolerations: [{ key: 'a', operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 90 }] },
    });
    expect(seconds.data.upsertPod.tolerations[0].tolerationSeconds).toBe(90);
    const read = await gql(`{ pod(namespace: "team", name: "p1") { ${POD_FIELDS} } }`);
    expect(read.data.pod).toEqual(seconds.data.upsertPod);
    expect((await gql('mutation { deletePod(namespace: "team", name: "p1") }')).data.deletePod).toBe(true);
    expect((await gql('{ pod(namespace: "team", name: "p1") { name } }')).errors[0].extensions.code).toBe('NOT_FOUND');
  });

  describe('connections and nested fields', () => {
    beforeAll(async () => {
      for (let i = 0; i < 6; i++) {
        const r = await app.request('PUT', `/v1/nodes/c-${i}`, {
          labels: { set: 'conn', ...(i < 3 ? { tier: 'front' } : {}) },
        });
        expect(r.status).toBe(201);
      }
      for (let i = 0; i < 7; i++) {
        const r = await app.request('PUT', `/v1/namespaces/conn/pods/q-${i}`, i < 6 ? { nodeName: `c-${i % 3}` } : {});
        expect(r.status).toBe(201);
      }
    });

    it('pages nodes with first/after and a label selector', async () => {
      const query =
        'query($after: String) { nodes(labelSelector: "set=conn", first: 4, after: $after) { edges { cursor node { name } } pageInfo { hasNextPage endCursor } } }';
      const first = (await gql(query)).data.nodes;
      expect(first.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual(['c-0', 'c-1', 'c-2', 'c-3']);
      expect(first.pageInfo).toEqual({ hasNextPage: true, endCursor: first.edges[3].cursor });
      const second = (await gql(query, { after: first.pageInfo.endCursor })).data.nodes;
      expect(second.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual(['c-4', 'c-5']);
      expect(second.pageInfo.hasNextPage).toBe(false);
      // Any edge's cursor resumes right after it.
      const fromMiddle = (await gql(query, { after: first.edges[1].cursor })).data.nodes;
      expect(fromMiddle.edges[0].node.name).toBe('c-2');
      const front = (await gql('{ nodes(labelSelector: "set=conn,tier=front") { edges { node { name } } } }')).data
        .nodes;
      expect(front.edges).toHaveLength(3);
      const bad = await gql('{ nodes(labelSelector: "tier in (") { edges { cursor } } }');
      expect(bad.errors[0].extensions.code).toBe('BAD_REQUEST');
      expect((await gql('{ nodes(first: 0) { edges { cursor } } }')).errors[0].extensions.code).toBe('BAD_REQUEST');
    });

    it('pages pods with namespace/nodeName/phase filters', async () => {
      const query =
        'query($after: String) { pods(namespace: "conn", first: 3, after: $after) { edges { cursor node { name } } pageInfo { hasNextPage endCursor } } }';
      const names: string[] = [];
      let after: string | undefined;
      let pages = 0;
      for (;;) {
        const page = (await gql(query, after ? { after } : {})).data.pods;
        names.push(...page.edges.map((e: { node: { name: string } }) => e.node.name));
        pages++;
        if (!page.pageInfo.hasNextPage) break;
        after = page.pageInfo.endCursor;
      }
      expect(names).toEqual(['q-0', 'q-1', 'q-2', 'q-3', 'q-4', 'q-5', 'q-6']);
      expect(pages).toBe(3);
      const onNode = (await gql('{ pods(nodeName: "c-1") { edges { node { name } } } }')).data.pods.edges.map(
        (e: { node: { name: string } }) => e.node.name,
      );
      expect(onNode).toEqual(['q-1', 'q-4']);
      const pending = (await gql('{ pods(namespace: "conn", phase: "Pending") { edges { node { name } } } }')).data.pods
        .edges;
      expect(pending).toEqual([{ node: { name: 'q-6' } }]);
    });

    it('treats an explicit null filter or cursor as absent (found by the fuzzer: namespace: null was a 500)', async () => {
      const pods = await gql(
        'query($ns: String, $node: String, $phase: String, $first: Int, $after: String) { pods(namespace: $ns, nodeName: $node, phase: $phase, first: $first, after: $after) { edges { node { namespace name } } } }',
        { ns: null, node: 'c-1', phase: null, first: null, after: null },
      );
      expect(pods.errors).toBeUndefined();
      expect(pods.data.pods.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual(['q-1', 'q-4']);
      const nodes = await gql(
        'query($sel: String, $first: Int, $after: String) { nodes(labelSelector: $sel, first: $first, after: $after) { edges { node { name } } } }',
        { sel: null, first: null, after: null },
      );
      expect(nodes.errors).toBeUndefined();
      expect(nodes.data.nodes.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual(
        expect.arrayContaining(['c-0', 'c-1']),
      );
    });

    it('resolves Node.pods and Pod.node from the snapshot: no repository call per parent', async () => {
      const nodes = app.app.get(NodeRepository);
      const pods = app.app.get(PodRepository);
      const spies = [
        ...(['findByName', 'findByNames', 'findAll'] as const).map((m) => jest.spyOn(nodes, m)),
        ...(['findByKey', 'findActiveOnNodes', 'findAllActive', 'list', 'findByUids'] as const).map((m) =>
          jest.spyOn(pods, m),
        ),
      ];
      try {
        const nested = await gql(
          '{ nodes(labelSelector: "set=conn", first: 10) { edges { node { name pods { name node { name } } } } } }',
        );
        expect(nested.errors).toBeUndefined();
        const byNode = Object.fromEntries(
          nested.data.nodes.edges.map(
            (e: { node: { name: string; pods: Array<{ name: string; node: { name: string } }> } }) => [
              e.node.name,
              e.node.pods.map((p) => `${p.name}@${p.node.name}`).sort(),
            ],
          ),
        );
        expect(byNode).toEqual({
          'c-0': ['q-0@c-0', 'q-3@c-0'],
          'c-1': ['q-1@c-1', 'q-4@c-1'],
          'c-2': ['q-2@c-2', 'q-5@c-2'],
          'c-3': [],
          'c-4': [],
          'c-5': [],
        });
        // nodes, their pods and the pods' nodes: all from the snapshot
        for (const spy of spies) expect(spy).not.toHaveBeenCalled();

        const fromPods = await gql(
          '{ pods(namespace: "conn", first: 10) { edges { node { name node { name pods { name } } } } } }',
        );
        expect(fromPods.data.pods.edges).toHaveLength(7);
        expect(fromPods.data.pods.edges[6].node.node).toBeNull();
        expect(fromPods.data.pods.edges[0].node.node.pods).toHaveLength(2);
        const calls = spies.map((s) => [s.getMockName(), s.mock.calls.length]).filter(([, n]) => n !== 0);
        expect(calls).toHaveLength(1); // the one page query (PodRepository.list), whatever the number of pods
        expect(jest.mocked(pods.list)).toHaveBeenCalledTimes(1);
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    });

    it('charges list fields by their size (complexity)', async () => {
      const r = await app.graphql(
        '{ nodes(first: 5000) { edges { node { name pods { name namespace uid phase } } } } }',
      );
      expect(r.body.errors![0].extensions.code).toBe('QUERY_TOO_COMPLEX');
      expect(r.status).toBe(400);
    });
  });
});
