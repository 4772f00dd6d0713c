/**
 * Start-up's snapshot load, timed in-process: `loadInventory` (the SQL reads and the rows' parsing) and
 * `InventorySnapshot.load` (the columns), per round, on an inventory imported once through a real service
 * and kept between runs (`--keep <database or folder>`: reused when it already holds the inventory).
 * `--trees a=DIR,b=DIR` loads each tree's own snapshot-source.ts, rounds alternated (a b, b a, ...), so a
 * change to the loader is compared with the tree before it on the same data at the same moments.
 *
 *   node --max-old-space-size=8192 -r @swc-node/register bench/experiments/snapshot-load.ts --mode postgres \
 *     --keep tw_snapshot_5000 [--trees before=/tmp/t-before,after=.] [--rounds 6] [--nodes 5000 --pods 150000]
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chunkList, generateInventory } from '../generate-inventory';
import { http } from '../lib/http';
import { REPO_ROOT, Service } from '../lib/service';
import { adminQuery } from '../lib/storage';
import { openDatabase, type Database } from '../../src/kernel/persistence/database';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const POSTGRES = 'postgres://postgres@127.0.0.1:5432';

/** Where the kept inventory lives, as the service's environment. */
function storageEnv(mode: string, keep: string): Record<string, string> {
  return mode === 'postgres'
    ? { DATABASE_URL: `${POSTGRES}/${keep}`, REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: keep }
    : { DATA_DIR: resolve(keep) };
}

async function ensureDatabase(name: string): Promise<void> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`--keep ${name}: a database name of a-z, 0-9 and _`);
  const found = await adminQuery(POSTGRES, `SELECT 1 FROM pg_database WHERE datname = '${name}'`);
  if (found.length === 0) await adminQuery(POSTGRES, `CREATE DATABASE "${name}"`);
}

async function main(): Promise<void> {
  const mode = arg('mode', 'postgres');
  const keep = arg('keep', mode === 'postgres' ? 'tw_snapshot' : '/tmp/tw-snapshot');
  const nodes = Number(arg('nodes', '5000'));
  const pods = Number(arg('pods', '150000'));
  const rounds = Number(arg('rounds', '6'));
  const env = storageEnv(mode, keep);
  if (mode === 'postgres') await ensureDatabase(keep);
  else mkdirSync(keep, { recursive: true });

  let db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '/nonexistent' });
  const stored = await db.prisma.pod.count();
  await db.close();
  if (stored < pods) {
    console.log(`importing ${nodes} nodes, ${pods} pods into ${keep} (it holds ${stored} pods)`);
    const inv = generateInventory({ nodes, pods, seed: 42 });
    const { service } = await Service.start({ env });
    for (const chunk of chunkList(inv.items, 10_000)) {
      const r = await http(service.url, 'POST', '/v1/import', JSON.stringify(chunk));
      if (r.status !== 200) throw new Error(`import answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
    await service.stop();
  }

  const trees = arg('trees', `this=${REPO_ROOT}`)
    .split(',')
    .map((spec) => {
      const [name, dir] = spec.split('=');
      const root = resolve(dir);
      const source = join(root, 'src', 'kernel', 'snapshot', 'snapshot-source.ts');
      if (!existsSync(source)) throw new Error(`${source} does not exist`);
      /* eslint-disable @typescript-eslint/no-require-imports -- each tree's own loader, chosen at run time */
      return {
        name,
        loadInventory: require(source).loadInventory as (db: Database) => Promise<any>,
        InventorySnapshot: require(join(root, 'src', 'kernel', 'snapshot', 'inventory-snapshot.ts')).InventorySnapshot,
      };
      /* eslint-enable @typescript-eslint/no-require-imports */
    });

  db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? '/nonexistent', migrate: false });
  const results = new Map<string, Array<{ readMs: number; loadMs: number }>>(trees.map((t) => [t.name, []]));
  try {
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? trees : [...trees].reverse();
      for (const tree of order) {
        (globalThis as { gc?: () => void }).gc?.();
        const started = performance.now();
        const rows = await tree.loadInventory(db);
        const read = performance.now();
        const snapshot = new tree.InventorySnapshot();
        snapshot.load(rows.nodes, rows.pods, rows.budgets, rows.evictedOwned);
        const done = performance.now();
        results.get(tree.name)!.push({ readMs: read - started, loadMs: done - read });
        console.log(
          `round ${r} ${tree.name}: loadInventory ${Math.round(read - started)} ms (${rows.nodes.length} nodes, ${rows.pods.length} pods), InventorySnapshot.load ${Math.round(done - read)} ms`,
        );
      }
    }
  } finally {
    await db.close();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const [name, rs] of results)
    console.log(
      `${name}: loadInventory median ${Math.round(median(rs.map((x) => x.readMs)))} ms, InventorySnapshot.load median ${Math.round(median(rs.map((x) => x.loadMs)))} ms`,
    );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
