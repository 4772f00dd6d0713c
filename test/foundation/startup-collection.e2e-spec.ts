import { rmSync } from 'node:fs';
import { call, freePort, startChildServer, type ChildServer } from '../evictions/child-server';
import { freshDataDir } from '../support/pglite-template';

// main.ts collects the start-up's garbage (the rows the snapshot was built from) before it listens, so the first
// major collection does not fall on the first live requests. The real server (src/main.ts) as a child process:
// the collection is in main.ts, which the in-process test apps do not run.
describe('start-up: the garbage of loading the snapshot is collected before the first request', () => {
  let server: ChildServer | undefined;
  const dataDir = freshDataDir();
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs one forced full collection before listening, and says how long it took', async () => {
    const startedAt = Date.now();
    server = await startChildServer(await freePort(), {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      BENCH_OPS_ROUTES: 'true',
    });
    const listening = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; time: string; startupGcMs?: unknown })
      .find((line) => line.msg === 'taintwise listening');
    expect(listening).toBeDefined();
    expect(typeof listening!.startupGcMs).toBe('number');
    expect(listening!.startupGcMs as number).toBeGreaterThanOrEqual(0);

    const { pauses } = (await call(server.url, 'GET', `/ops/gc-pauses?since=${startedAt}`)) as {
      pauses: Array<{ at: number; ms: number; kind: string; reasons?: string[] }>;
    };
    const forced = pauses.filter((p) => p.kind === 'major' && p.reasons?.includes('forced'));
    expect(forced).toHaveLength(1);
    // It ran before the server said it was listening (and so before any request could arrive).
    expect(forced[0].at).toBeLessThanOrEqual(Date.parse(listening!.time));
  });
});
