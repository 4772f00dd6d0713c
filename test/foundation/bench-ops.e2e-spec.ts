import { startTestApp, testModes, type TestApp } from '../support/test-app';

// The bench's routes (BENCH_OPS_ROUTES): GC pauses inside a window and the heap after a full collection.
describe.each(testModes())('bench routes and GC pause metrics (%s)', (mode) => {
  let off: TestApp;
  let on: TestApp;
  beforeAll(async () => {
    off = await startTestApp(mode);
    on = await startTestApp(mode, { env: { BENCH_OPS_ROUTES: 'true' } });
  });
  afterAll(async () => {
    await off?.close();
    await on?.close();
  });

  it('exposes taintwise_gc_pause_seconds on /metrics by default', async () => {
    const r = await off.request('GET', '/metrics');
    expect(r.status).toBe(200);
    expect(r.text).toContain('# TYPE taintwise_gc_pause_seconds histogram');
    expect(r.text).toContain('# TYPE taintwise_gc_pause_max_seconds gauge');
  });

  it('answers 404 on the bench routes when the setting is off', async () => {
    expect((await off.request('GET', '/ops/gc-pauses')).status).toBe(404);
    expect((await off.request('POST', '/ops/heap')).status).toBe(404);
  });

  it('lists the GC pauses since a given instant and reports the heap', async () => {
    const since = Date.now() - 60_000;
    const pauses = await on.request('GET', `/ops/gc-pauses?since=${since}`);
    expect(pauses.status).toBe(200);
    expect(Array.isArray(pauses.body.pauses)).toBe(true);
    for (const p of pauses.body.pauses) {
      expect(p.at).toBeGreaterThanOrEqual(since);
      expect(['minor', 'major', 'incremental', 'weakcb', 'other']).toContain(p.kind);
    }
    expect((await on.request('GET', `/ops/gc-pauses?since=${Date.now() + 60_000}`)).body.pauses).toEqual([]);
    const heap = await on.request('POST', '/ops/heap');
    expect(heap.status).toBe(200);
    // a full collection with or without --expose-gc (Jest runs without it), timed
    expect(heap.body.collected).toBe(true);
    expect(heap.body.gcMs).toBeGreaterThan(0);
    expect(heap.body.heap.used_heap_size).toBeGreaterThan(1_000_000);
  });
});
