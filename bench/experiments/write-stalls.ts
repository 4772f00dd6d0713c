/**
 * Whether the small writes of a live service stop it: a probe asks one distinct feasible-nodes question every 10 ms
 * of a compiled embedded service on a copy of a kept inventory, while three `batch-b` nodes are tainted with the drain
 * taint 40 s apart (each: 10 pods evicted at once, 100 due 30 s later, so three small eviction sweeps). Prints the
 * probe's worst latencies of the whole run (with when the taints were sent) and around each sweep's deadline.
 * On 2026-11-27 it found the first taint after start-up stopping the service for ~230 ms (Prisma compiling a
 * createMany plan for the eviction rows; bench/ANALYSIS.md).
 *   node -r @swc-node/register bench/experiments/write-stalls.ts [--data /tmp/taint-ab-base]
 * `--data`: an imported embedded data dir with drainSeconds 30 (taint-commit-ab.ts keeps one); it is copied, never
 * changed. The service is this tree's dist/main.js (build it first).
 */
import { cpSync, rmSync } from 'node:fs';
import { generateInventory } from '../generate-inventory';
import { http } from '../lib/http';
import { REPO_ROOT, Service, sleep } from '../lib/service';
import { distinctPodBody, DRAIN_SPEC, podMix } from '../scenarios';

const argv = process.argv.slice(2);
const base = argv.includes('--data') ? argv[argv.indexOf('--data') + 1] : '/tmp/taint-ab-base';
const PROBE_MS = 10;
const TAINTS = 3;
const APART_MS = 40_000;
const DRAIN_SECONDS = 30;

async function main(): Promise<void> {
  const data = '/tmp/tw-write-stalls';
  rmSync(data, { recursive: true, force: true });
  cpSync(base, data, { recursive: true });
  const inline = podMix(generateInventory({ nodes: 200, pods: 2000, seed: 42 })).filter((c) => c.body.pod);
  const { service } = await Service.start({ entry: `${REPO_ROOT}/dist/main.js`, env: { DATA_DIR: data } });
  try {
    const listed = await http(service.url, 'GET', '/v1/nodes?labelSelector=pool%3Dbatch-b&limit=10');
    const nodes: string[] = listed.body.items.map((n: { name: string }) => n.name);
    const samples: Array<[at: number, ms: number]> = [];
    let stop = false;
    let n = 0;
    const probe = (async () => {
      const start = Date.now();
      for (let k = 0; !stop; k++) {
        const at = start + k * PROBE_MS;
        if (at > Date.now()) await sleep(at - Date.now());
        const body = distinctPodBody(inline[n % inline.length].body, `write-stalls-${n++}`);
        void http(service.url, 'POST', '/v1/decisions/feasible-nodes', body).then(() =>
          samples.push([at, Date.now() - at]),
        );
      }
    })();
    await sleep(5000);
    const sent: number[] = [];
    const deadlines: number[] = [];
    for (let i = 0; i < TAINTS; i++) {
      sent.push(Date.now());
      const r = await http(service.url, 'POST', '/v1/taints', { nodes: [nodes[i]], taints: [DRAIN_SPEC] });
      const drain = r.body.nodes[0].taints.find((t: { effect: string }) => t.effect === 'NoExecute');
      deadlines.push(Date.parse(drain.timeAdded) + DRAIN_SECONDS * 1000);
      console.log(`tainted ${nodes[i]}: answered in ${Date.now() - sent[i]} ms, ${JSON.stringify(r.body.evictions)}`);
      await sleep(APART_MS);
    }
    await sleep(5000);
    stop = true;
    await probe;
    await sleep(500);
    const t0 = Math.min(...samples.map(([at]) => at));
    const rel = (t: number) => `+${t - t0}`;
    const away = samples
      .filter(([at]) => deadlines.every((d) => Math.abs(at - d) > 3000))
      .map(([, ms]) => ms)
      .sort((a, b) => a - b);
    console.log(
      `probe away from the deadlines: ${away.length} answers, p50 ${away[away.length >> 1]} ms, ` +
        `p99 ${away[Math.floor(away.length * 0.99)]} ms, max ${away[away.length - 1]} ms`,
    );
    console.log(`taints sent at ${sent.map(rel).join(', ')} ms; deadlines at ${deadlines.map(rel).join(', ')} ms`);
    const worst = [...samples].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(`worst of the run: ${worst.map(([at, ms]) => `${ms} ms @${rel(at)}`).join(', ')}`);
    for (const d of deadlines) {
      const near = samples.filter(([at]) => at >= d - 1000 && at <= d + 3000).sort((a, b) => b[1] - a[1]);
      console.log(
        `deadline ${rel(d)}: worst ${near
          .slice(0, 5)
          .map(([at, ms]) => `${ms} ms @${at - d}`)
          .join(', ')}`,
      );
    }
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
