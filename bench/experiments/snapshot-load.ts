/**
 * Why start-up with the full inventory is slow: imports the generated inventory through a real
 * service, stops it, then times the snapshot's reads in-process — the repositories' Prisma paging
 * (what SnapshotService.reload does today) against one plain SQL query of the same rows.
 *
 *   node --max-old-space-size=8192 -r @swc-node/register bench/experiments/snapshot-load.ts [--mode postgres|embedded]
 * [--nodes 5000 --pods 150000]
 */
import { chunkList, generateInventory } from '../generate-inventory';
import { http } from '../lib/http';
import { Service } from '../lib/service';
import { createStorage, type ModeName } from '../lib/storage';
import { openDatabase } from '../../src/kernel/persistence/database';
import { NodeRepository } from '../../src/kernel/persistence/repositories/node.repository';
import { PodRepository } from '../../src/kernel/persistence/repositories/pod.repository';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};

async function time<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const r = await fn();
  console.log(`${label}: ${Math.round(performance.now() - t)} ms`);
  return r;
}

async function main(): Promise<void> {
  const mode = arg('mode', 'postgres') as ModeName;
  const inv = generateInventory({ nodes: Number(arg('nodes', '5000')), pods: Number(arg('pods', '150000')), seed: 42 });
  const storage = await createStorage(mode, {
    postgresUrl: 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: 'redis://127.0.0.1:6379',
  });
  try {
    const { service } = await Service.start({ env: storage.env });
    await time('import', async () => {
      for (const chunk of chunkList(inv.items, 10_000)) {
        const r = await http(service.url, 'POST', '/v1/import', JSON.stringify(chunk));
        if (r.status !== 200) throw new Error(`import answered ${r.status}: ${r.text.slice(0, 300)}`);
      }
    });
    await service.stop();
    const db = await openDatabase({
      databaseUrl: storage.env.DATABASE_URL,
      dataDir: storage.env.DATA_DIR ?? '/nonexistent',
      migrate: false,
    });
    try {
      const nodes = await time('NodeRepository.findAll (Prisma, pages of 2,000, include taints)', () =>
        new NodeRepository().findAll(db.prisma),
      );
      const pods = await time('PodRepository.findAllActive (Prisma, pages of 5,000, cursor)', () =>
        new PodRepository().findAllActive(db.prisma),
      );
      console.log(`  ${nodes.length} nodes, ${pods.length} pods`);
      await time('PodRepository.findAllActive again (warm)', () => new PodRepository().findAllActive(db.prisma));
      const sql = `SELECT id, namespace, name, uid, node_name, phase, bound_at, tolerations, node_selector, affinity, priority, owner_kind, owner_name, resources, requests, host_network, resource_version, created_at, updated_at FROM pods WHERE phase IN ('Pending', 'Running')`;
      if (db.kind === 'postgres') {
        const client = await db.newPgClient();
        try {
          const rows = await time(
            'one plain SQL query of the same pod rows (pg, JSON parsed by the driver)',
            async () => (await client.query(sql)).rows,
          );
          console.log(`  ${rows.length} rows`);
        } finally {
          await client.end();
        }
      } else {
        const rows = await time(
          'one plain SQL query of the same pod rows (PGlite query)',
          async () => (await db.pglite!.query(sql)).rows,
        );
        console.log(`  ${rows.length} rows`);
      }
      await time(
        'Prisma $queryRawUnsafe of the same rows',
        async () => (await db.prisma.$queryRawUnsafe<unknown[]>(sql)).length,
      );
    } finally {
      await db.close();
    }
  } finally {
    await storage.cleanup();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
