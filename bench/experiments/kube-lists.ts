/**
 * Issue 12's list figures alone, without the rest of the bench: a generated inventory imported into a service
 * started from source, then the full node list and `kubectl get pods -A` (bench/lib/kube-lists.ts).
 *
 *   node -r @swc-node/register bench/experiments/kube-lists.ts [--nodes 5000] [--pods 150000] [--mode postgres]
 */
import { chunkList, generateInventory } from '../generate-inventory';
import { http } from '../lib/http';
import { measureKubeLists } from '../lib/kube-lists';
import { Service } from '../lib/service';
import { createStorage, type ModeName } from '../lib/storage';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};

async function main(): Promise<void> {
  const nodes = Number(arg('nodes', '5000'));
  const pods = Number(arg('pods', '150000'));
  const mode = arg('mode', 'embedded') as ModeName;
  const inv = generateInventory({ nodes, pods, seed: 42 });
  const storage = await createStorage(mode, {
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432',
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  });
  const { service } = await Service.start({ env: { ...storage.env, RATE_LIMIT_PER_MINUTE: '0' }, logLevel: 'warn' });
  try {
    for (const chunk of chunkList(inv.items, 10_000).map((c) => JSON.stringify(c))) {
      const r = await http(service.url, 'POST', '/v1/import', chunk);
      if (r.status >= 300) throw new Error(`import answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
    console.log(`imported ${inv.nodeCount} nodes, ${inv.podCount} pods (${mode})`);
    for (let round = 1; round <= 2; round++) {
      const f = await measureKubeLists(service.url, inv.podCount);
      console.log(
        `round ${round}: node list ${f.nodeList.ms.toFixed(0)} ms (${f.nodeList.items}); nodes paged ${f.nodeTable.ms.toFixed(0)} ms; ` +
          `get pods -A ${(f.podsAll.ms / 1000).toFixed(1)} s (${f.podsAll.rows} rows; the API showed ${f.podsExpected.atLeast}–${f.podsExpected.atMost}; ${f.podsAll.client})`,
      );
    }
  } finally {
    await service.stop();
    await storage.cleanup();
  }
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
