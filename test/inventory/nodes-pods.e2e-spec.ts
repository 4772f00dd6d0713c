import { startTestApp, testModes, type TestApp } from '../support/test-app';

// Issue 4, REST: nodes and pods — create/replace/delete, server-set timeAdded, admission defaults
// (SEMANTICS A.6), the toleration update rule (B.2.1), Kubernetes' 422 wording (B.2), paging.
const NOT_READY_300 = {
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};
const UNREACHABLE_300 = {
  key: 'node.kubernetes.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: 300,
};

describe.each(testModes())('inventory REST (%s)', (mode) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(mode);
  });
  afterAll(async () => {
    await app?.close();
  });

  const putNode = (name: string, body: unknown) => app.request('PUT', `/v1/nodes/${name}`, body);
  const putPod = (ns: string, name: string, body: unknown) =>
    app.request('PUT', `/v1/namespaces/${ns}/pods/${name}`, body);

  describe('nodes', () => {
    it('creates (201) with server-set timeAdded, replaces (200) keeping the time of unchanged taints', async () => {
      const before = Date.now();
      const created = await putNode('n1', {
        labels: { zone: 'a' },
        allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
        taints: [
          { key: 'dedicated', value: 'gpu', effect: 'NoSchedule', timeAdded: '2020-01-01T00:00:00Z' },
          { key: 'old', value: 'x', effect: 'PreferNoSchedule' },
        ],
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        name: 'n1',
        labels: { zone: 'a' },
        unschedulable: false,
        conditions: [],
        allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
        resourceVersion: '1',
      });
      const [dedicated, old] = created.body.taints;
      // A client-supplied timeAdded is ignored on PUT (kept only on import, API.md "Taint").
      expect(Date.parse(dedicated.timeAdded)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(dedicated.timeAdded)).toBeLessThanOrEqual(Date.now() + 1000);
      await new Promise((r) => setTimeout(r, 20));

      const replaced = await putNode('n1', {
        labels: { zone: 'b' },
        taints: [
          { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
          { key: 'old', value: 'changed', effect: 'PreferNoSchedule' },
          { key: 'new', effect: 'NoSchedule' },
        ],
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body.resourceVersion).toBe('2');
      expect(replaced.body.allocatable).toBeNull();
      const [kept, changed, added] = replaced.body.taints;
      expect(kept).toEqual(dedicated);
      expect(changed.timeAdded > old.timeAdded).toBe(true); // a changed value is a new taint
      expect(added).toMatchObject({ key: 'new', value: '', effect: 'NoSchedule' });
      expect((await app.request('GET', '/v1/nodes/n1')).body).toEqual(replaced.body);
    });

    it('answers 404 problem+json for a missing node, on GET and DELETE', async () => {
      for (const method of ['GET', 'DELETE']) {
        const r = await app.request(method, '/v1/nodes/nope');
        expect(r.status).toBe(404);
        expect(r.headers.get('content-type')).toContain('application/problem+json');
        expect(r.body).toMatchObject({ status: 404, title: 'Not Found', detail: 'nodes "nope" not found' });
      }
    });

    it("answers 422 in Kubernetes' words, in upstream order, and changes nothing", async () => {
      const before = (await app.request('GET', '/v1/nodes/n1')).body;
      const r = await putNode('n1', { taints: [{ key: 'a', effect: 'NoScheduled' }] });
      expect(r.status).toBe(422);
      expect(r.body.detail).toBe(
        'Node "n1" is invalid: taints[0].effect: Unsupported value: "NoScheduled": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      );
      expect(r.body.errors).toEqual([
        {
          field: 'taints[0].effect',
          message: 'Unsupported value: "NoScheduled": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        },
      ]);
      const dup = await putNode('n1', {
        taints: [
          { key: 'a', effect: 'NoSchedule' },
          { key: 'a', value: 'b', effect: 'NoSchedule' },
        ],
      });
      expect(dup.status).toBe(422);
      expect(dup.body.errors).toEqual([
        {
          field: 'taints[1]',
          message:
            'Duplicate value: {"key":"a","value":"b","effect":"NoSchedule"}: taints must be unique by key and effect pair',
        },
      ]);
      const fresh = await putNode('bad-new', { labels: { 'bad key!': 'x' } });
      expect(fresh.status).toBe(422);
      expect(fresh.body.errors[0].field).toBe('labels');
      expect((await app.request('GET', '/v1/nodes/n1')).body).toEqual(before);
      expect((await app.request('GET', '/v1/nodes/bad-new')).status).toBe(404);
    });

    it('answers 400 for wrong types and unknown fields, with field paths', async () => {
      const wrongType = await putNode('n1', { labels: 'zone=a', taints: [{ key: 1, effect: 'NoSchedule' }] });
      expect(wrongType.status).toBe(400);
      expect(wrongType.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'labels', message: 'expected record' },
          { field: 'taints[0].key', message: 'expected string' },
        ]),
      );
      const unknown = await putNode('n1', { spec: {}, taints: [{ key: 'a', effect: 'NoSchedule', colour: 'red' }] });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'spec', message: 'unknown field "spec"' },
          { field: 'taints[0].colour', message: 'unknown field "colour"' },
        ]),
      );
      const mismatch = await putNode('n1', { name: 'n2' });
      expect(mismatch.status).toBe(400);
    });

    it('answers 409 for a stale resourceVersion and changes nothing', async () => {
      const current = (await app.request('GET', '/v1/nodes/n1')).body;
      const stale = await putNode('n1', { labels: { x: 'y' }, resourceVersion: '1' });
      expect(stale.status).toBe(409);
      expect(stale.body.detail).toContain('the object has been modified');
      expect((await app.request('GET', '/v1/nodes/n1')).body.resourceVersion).toBe(current.resourceVersion);
      const fresh = await putNode('n1', {
        labels: { x: 'y' },
        taints: current.taints.map(({ key, value, effect }: Record<string, string>) => ({ key, value, effect })),
        resourceVersion: current.resourceVersion,
      });
      expect(fresh.status).toBe(200);
      expect(fresh.body.taints).toEqual(current.taints);
    });

    it('lists by name with limit/continue and Kubernetes label selectors', async () => {
      for (let i = 0; i < 5; i++)
        expect(
          (await putNode(`page-${i}`, { labels: { group: 'paging', ...(i % 2 === 0 ? { pool: 'gpu' } : {}) } })).status,
        ).toBe(201);
      const names: string[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const r = await app.request(
          'GET',
          `/v1/nodes?labelSelector=group%3Dpaging&limit=2${token ? `&continue=${token}` : ''}`,
        );
        expect(r.status).toBe(200);
        expect(r.body.items.length).toBeLessThanOrEqual(2);
        names.push(...r.body.items.map((n: { name: string }) => n.name));
        token = r.body.continue;
        pages++;
      } while (token);
      expect(names).toEqual(['page-0', 'page-1', 'page-2', 'page-3', 'page-4']);
      expect(pages).toBe(3);
      const gpu = await app.request(
        'GET',
        `/v1/nodes?labelSelector=${encodeURIComponent('group=paging,pool in (gpu)')}`,
      );
      expect(gpu.body.items.map((n: { name: string }) => n.name)).toEqual(['page-0', 'page-2', 'page-4']);
      const notGpu = await app.request('GET', `/v1/nodes?labelSelector=${encodeURIComponent('group,!pool')}`);
      expect(notGpu.body.items.map((n: { name: string }) => n.name)).toEqual(['page-1', 'page-3']);
      for (const bad of ['labelSelector=a%20in%20(', 'limit=0', 'limit=abc', 'continue=%%%']) {
        const r = await app.request('GET', `/v1/nodes?${bad}`);
        expect(r.status).toBe(400);
        expect(r.headers.get('content-type')).toContain('application/problem+json');
      }
    });

    it('deleting a node unbinds its pods (Pending again)', async () => {
      expect((await putNode('doomed', {})).status).toBe(201);
      expect((await putPod('default', 'on-doomed', { nodeName: 'doomed' })).body).toMatchObject({
        nodeName: 'doomed',
        phase: 'Running',
      });
      const r = await app.request('DELETE', '/v1/nodes/doomed');
      expect(r.status).toBe(204);
      expect((await app.request('GET', '/v1/nodes/doomed')).status).toBe(404);
      expect((await app.request('GET', '/v1/namespaces/default/pods/on-doomed')).body).toMatchObject({
        nodeName: null,
        phase: 'Pending',
        boundAt: null,
      });
    });
  });

  describe('pods', () => {
    it('creates (201) with the admission defaults visible: DefaultTolerationSeconds 300 s', async () => {
      const r = await putPod('default', 'plain', {});
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        namespace: 'default',
        name: 'plain',
        nodeName: null,
        phase: 'Pending',
        boundAt: null,
        priority: 0,
        owner: null,
        affinity: null,
        resourceVersion: '1',
      });
      expect((await putPod('default', 'plain', {})).body.affinity).toBeNull(); // a null Json column stays SQL NULL on replace
      expect((await putPod('default', 'plain', {})).body.resourceVersion).toBe('3');
      expect(r.body.uid).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.body.tolerations).toEqual([NOT_READY_300, UNREACHABLE_300]);
    });

    it('adds the DaemonSet tolerations for owner.kind DaemonSet (forever not-ready/unreachable)', async () => {
      const r = await putPod('kube-system', 'ds-pod', { owner: { kind: 'DaemonSet', name: 'fluentd' } });
      expect(r.status).toBe(201);
      expect(r.body.tolerations).toEqual([
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
        { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
      ]);
    });

    it('adds memory-pressure for non-BestEffort pods and ExtendedResourceToleration for extended resources', async () => {
      const r = await putPod('ml', 'gpu-job', { resources: { requests: { cpu: '100m', 'nvidia.com/gpu': '1' } } });
      expect(r.status).toBe(201);
      expect(r.body.tolerations).toEqual([
        NOT_READY_300,
        UNREACHABLE_300,
        { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      ]);
      expect(r.body.resources).toEqual({ requests: { cpu: '100m', 'nvidia.com/gpu': '1' } });
    });

    it('replace (200): only tolerationSeconds of an existing toleration may change (422 Forbidden otherwise)', async () => {
      const created = await putPod('default', 'upd', {
        tolerations: [{ key: 'a', operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 60 }],
      });
      expect(created.status).toBe(201);
      const ok = await putPod('default', 'upd', {
        tolerations: [
          { key: 'a', operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 120 },
          { key: 'b', operator: 'Exists' },
        ],
      });
      expect(ok.status).toBe(200);
      expect(ok.body.resourceVersion).toBe('2');
      expect(ok.body.uid).toBe(created.body.uid);
      expect(ok.body.tolerations).toEqual([
        { key: 'a', operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 120 },
        { key: 'b', operator: 'Exists' },
        NOT_READY_300,
        UNREACHABLE_300,
      ]);
      const forbidden = await putPod('default', 'upd', {
        tolerations: [{ key: 'a', operator: 'Equal', value: 'y', effect: 'NoExecute', tolerationSeconds: 120 }],
      });
      expect(forbidden.status).toBe(422);
      expect(forbidden.body.detail).toBe(
        'Pod "upd" is invalid: tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
      );
      expect(forbidden.body.errors).toEqual([
        {
          field: 'tolerations',
          message: 'Forbidden: existing toleration can not be modified except its tolerationSeconds',
        },
      ]);
      expect((await app.request('GET', '/v1/namespaces/default/pods/upd')).body.resourceVersion).toBe('2');
    });

    it('answers 422 with the exact messages and paths for bad tolerations', async () => {
      const r = await putPod('default', 'bad', {
        tolerations: [
          { key: 'a', operator: 'Foo' },
          { key: 'b', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 },
        ],
      });
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual([
        { field: 'tolerations[0].operator', message: 'Unsupported value: "Foo": supported values: "Equal", "Exists"' },
        {
          field: 'tolerations[1].effect',
          message: 'Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
        },
      ]);
      expect(r.body.detail).toMatch(/^Pod "bad" is invalid: \[tolerations\[0\]\.operator: Unsupported value/);
      expect((await app.request('GET', '/v1/namespaces/default/pods/bad')).status).toBe(404);
    });

    // Wording of the newest apimachinery (docs/SEMANTICS.md B.2.0): label keys and values from
    // pkg/api/validate/content say "bytes" and "a valid label key"; namespaces (util/validation
    // IsDNS1123Label) name the dots.
    it('answers 422 in the newest apimachinery wording for label keys, label values and namespaces', async () => {
      const long = 'v'.repeat(64);
      const r = await putPod('default', 'words', { nodeSelector: { 'a/b/c': 'x', k: long } });
      expect(r.status).toBe(422);
      expect(r.body.errors).toEqual([
        {
          field: 'nodeSelector',
          message: expect.stringMatching(/^Invalid value: "a\/b\/c": a valid label key must consist of /),
        },
        { field: 'nodeSelector', message: `Invalid value: "${long}": must be no more than 63 bytes` },
      ]);
      const dotted = await putPod('team.a', 'words', {});
      expect(dotted.status).toBe(422);
      expect(dotted.body.errors).toEqual([
        { field: 'namespace', message: 'Invalid value: "team.a": must not contain dots' },
      ]);
      expect((await app.request('GET', '/v1/namespaces/default/pods/words')).status).toBe(404);
    });

    it('answers 400 for wrong types and unknown fields', async () => {
      const r = await putPod('default', 'bad', { tolerations: 'all', priority: 'high', spec: {} });
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'tolerations', message: 'expected array' },
          { field: 'priority', message: 'expected number' },
          { field: 'spec', message: 'unknown field "spec"' },
        ]),
      );
    });

    it('a nodeName on create binds (404 for a missing node); on replace it cannot change (409)', async () => {
      expect((await putNode('pn1', {})).status).toBe(201);
      expect((await putPod('default', 'bound', { nodeName: 'missing-node' })).status).toBe(404);
      const bound = await putPod('default', 'bound', { nodeName: 'pn1' });
      expect(bound.status).toBe(201);
      expect(bound.body).toMatchObject({ nodeName: 'pn1', phase: 'Running' });
      expect(Date.parse(bound.body.boundAt)).toBeGreaterThan(0);
      const moved = await putPod('default', 'bound', { nodeName: 'n1' });
      expect(moved.status).toBe(409);
      expect(moved.body.detail).toContain('nodeName cannot change');
      const unbound = await putPod('default', 'bound', { nodeName: null });
      expect(unbound.status).toBe(409);
      expect((await putPod('default', 'bound', { priority: 5 })).body).toMatchObject({
        nodeName: 'pn1',
        priority: 5,
        resourceVersion: '2',
      });
    });

    it('answers 409 for a stale resourceVersion', async () => {
      const r = await putPod('default', 'plain', { resourceVersion: '7' });
      expect(r.body.detail).toContain('the object has been modified');
      expect(r.status).toBe(409);
      expect((await app.request('GET', '/v1/namespaces/default/pods/plain')).body.resourceVersion).toBe('3');
    });

    it('lists pods with nodeName/phase filters and limit/continue paging', async () => {
      for (let i = 0; i < 5; i++)
        expect((await putPod('paging', `p-${i}`, i < 2 ? { nodeName: 'pn1' } : {})).status).toBe(201);
      const first = await app.request('GET', '/v1/namespaces/paging/pods?limit=3');
      expect(first.body.items.map((p: { name: string }) => p.name)).toEqual(['p-0', 'p-1', 'p-2']);
      const second = await app.request('GET', `/v1/namespaces/paging/pods?limit=3&continue=${first.body.continue}`);
      expect(second.body.items.map((p: { name: string }) => p.name)).toEqual(['p-3', 'p-4']);
      expect(second.body.continue).toBeUndefined();
      const onNode = await app.request('GET', '/v1/pods?nodeName=pn1');
      expect(onNode.body.items.map((p: { namespace: string; name: string }) => `${p.namespace}/${p.name}`)).toEqual([
        'default/bound',
        'paging/p-0',
        'paging/p-1',
      ]);
      const pending = await app.request('GET', '/v1/namespaces/paging/pods?phase=Pending');
      expect(pending.body.items.map((p: { name: string }) => p.name)).toEqual(['p-2', 'p-3', 'p-4']);
      expect((await app.request('GET', '/v1/pods?limit=5001')).status).toBe(400);
    });

    it('pages across namespaces in (namespace, name) order: a page ends inside a namespace and the next goes on', async () => {
      for (const ns of ['page-a', 'page-b', 'page-c'])
        for (const name of ['x', 'y']) expect((await putPod(ns, name, {})).status).toBe(201);
      const seen: string[] = [];
      let token = '';
      do {
        const r = await app.request('GET', `/v1/pods?limit=3${token ? `&continue=${token}` : ''}`);
        expect(r.status).toBe(200);
        seen.push(...r.body.items.map((p: { namespace: string; name: string }) => `${p.namespace}/${p.name}`));
        token = r.body.continue ?? '';
      } while (token);
      const paged = seen.filter((key) => key.startsWith('page-'));
      expect(paged).toEqual(['page-a/x', 'page-a/y', 'page-b/x', 'page-b/y', 'page-c/x', 'page-c/y']);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual([...seen].sort());
      // a token from one namespace, given to another namespace's list: that namespace from its start, or nothing
      const inA = await app.request('GET', '/v1/namespaces/page-a/pods?limit=1');
      const b = await app.request('GET', `/v1/namespaces/page-b/pods?continue=${inA.body.continue}`);
      expect(b.body.items.map((p: { name: string }) => p.name)).toEqual(['x', 'y']);
      const inC = await app.request('GET', '/v1/namespaces/page-c/pods?limit=1');
      const a = await app.request('GET', `/v1/namespaces/page-a/pods?continue=${inC.body.continue}`);
      expect(a.body.items).toEqual([]);
    });

    it('deletes a pod (204), then 404', async () => {
      expect((await app.request('DELETE', '/v1/namespaces/paging/pods/p-4')).status).toBe(204);
      expect((await app.request('GET', '/v1/namespaces/paging/pods/p-4')).status).toBe(404);
      expect((await app.request('DELETE', '/v1/namespaces/paging/pods/p-4')).status).toBe(404);
    });
  });
});
