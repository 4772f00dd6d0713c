/**
 * Issue 14's initial-sync figure alone, in ONE storage mode, without the rest of the bench: a generated
 * inventory imported into a "cluster" service, then a mirror of it started and timed exactly as the bench does
 * (bench/mirror.ts `measureMirrorInitialSync`: spawn → /readyz 200, and the mirror's own
 * taintwise_sync_initial_sync_seconds). Before the mirror, the cluster's pod list is paged once with a plain HTTP
 * client (no mirror): what serving the list costs by itself.
 *
 *   node -r @swc-node/register bench/experiments/mirror-sync.ts --mode embedded [--nodes 5000] [--pods 150000]
 *     [--rounds 1] [--page-limit 1000] [--profile <dir>] [--mirror-env K=V ...] [--mirror-env-alternate K=V ...]
 *     [--from-source] [--before <tree>]
 *
 * `--mirror-env-alternate K=V`: each round runs the mirror twice against the same cluster, first without these
 * settings, then with them (on top of `--mirror-env`): an A/B of a setting such as SYNC_LIST_CHUNK, one tree.
 * `--before <tree>` (e.g. a `git archive` of the commit before, with node_modules and src/generated beside it):
 * two clusters, one per tree (the list serving is part of what is measured), each loaded with the same inventory;
 * each round runs the before tree's mirror against the before cluster, then this tree's against this tree's, so
 * a loaded machine weighs on both alike.
 * `--profile <dir>`: CPU profiles of the cluster and of the mirror (node --cpu-prof), read them with
 * bench/experiments/top-functions.mjs. The service runs compiled (as the bench runs it) unless --from-source.
 */
import { chunkList, generateInventory } from '../generate-inventory';
import { http } from '../lib/http';
import { load } from '../lib/machine';
import { measureMirrorInitialSync } from '../mirror';
import { compileService, REPO_ROOT, Service } from '../lib/service';
import { createStorage, type ModeName } from '../lib/storage';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const pairs = (name: string) =>
  Object.fromEntries(
    argv.flatMap((a, i) => (a === `--${name}` && argv[i + 1]?.includes('=') ? [argv[i + 1].split(/=(.*)/s)] : [])),
  ) as Record<string, string>;

const log = (msg: string) =>
  process.stdout.write(`[mirror-sync ${new Date().toISOString().slice(11, 19)} load ${load()}] ${msg}\n`);

/** Pages through GET /api/v1/pods?limit= as a client that only reads the bytes would. */
async function pageList(url: string, limit: number): Promise<{ ms: number; pages: number; items: number }> {
  const started = performance.now();
  let cont: string | undefined;
  let pages = 0;
  let items = 0;
  do {
    const r = await http<any>(
      url,
      'GET',
      `/api/v1/pods?limit=${limit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
    );
    if (r.status !== 200) throw new Error(`the pod list answered ${r.status}: ${r.text.slice(0, 300)}`);
    pages += 1;
    items += r.body.items.length;
    cont = r.body.metadata?.continue || undefined;
  } while (cont);
  return { ms: performance.now() - started, pages, items };
}

async function main(): Promise<void> {
  const nodes = Number(arg('nodes', '5000'));
  const pods = Number(arg('pods', '150000'));
  const mode = arg('mode', 'embedded') as ModeName;
  const rounds = Number(arg('rounds', '1'));
  const pageLimit = Number(arg('page-limit', '1000'));
  const profileDir = arg('profile', '');
  const settings = {
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
  const entry = argv.includes('--from-source') ? undefined : compileService(REPO_ROOT).entry;
  const beforeDir = arg('before', '');
  const trees = [
    ...(beforeDir
      ? [
          {
            label: 'before',
            dir: beforeDir,
            entry: argv.includes('--from-source') ? undefined : compileService(beforeDir).entry,
          },
        ]
      : []),
    { label: beforeDir ? 'after' : 'this tree', dir: REPO_ROOT, entry },
  ];
  const prof = (tag: string) =>
    profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${mode}-${tag}.cpuprofile`] : [];
  const inv = generateInventory({ nodes, pods, seed: 42 });
  const clusters: Array<{ tree: (typeof trees)[number]; service: Service; cleanup: () => Promise<void> }> = [];
  try {
    for (const tree of trees) {
      const storage = await createStorage(mode, settings);
      const { service } = await Service.start({
        cwd: tree.dir,
        entry: tree.entry,
        env: { ...storage.env },
        logLevel: 'warn',
        nodeArgs: prof(`cluster-${tree.label.replace(' ', '-')}`),
      });
      clusters.push({ tree, service, cleanup: () => storage.cleanup() });
      const importStarted = performance.now();
      for (const chunk of chunkList(inv.items, 10_000).map((c) => JSON.stringify(c))) {
        const r = await http(service.url, 'POST', '/v1/import', chunk);
        if (r.status >= 300) throw new Error(`import answered ${r.status}: ${r.text.slice(0, 300)}`);
      }
      const importSeconds = (performance.now() - importStarted) / 1000;
      log(
        `${mode} ${tree.label}: imported ${inv.nodeCount} nodes, ${inv.podCount} pods in ${importSeconds.toFixed(1)} s (${Math.round((inv.nodeCount + inv.podCount) / importSeconds)} objects/s)`,
      );
    }
    for (const { tree, service } of clusters) {
      const listed = await pageList(service.url, pageLimit);
      log(
        `${mode} ${tree.label}: the cluster served GET /api/v1/pods?limit=${pageLimit} in ${(listed.ms / 1000).toFixed(1)} s (${listed.pages} pages, ${listed.items} pods) to a plain client`,
      );
    }
    const alternate = pairs('mirror-env-alternate');
    const variants = Object.keys(alternate).length
      ? [
          { label: '', env: {} },
          {
            label: ` with ${Object.entries(alternate)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`,
            env: alternate,
          },
        ]
      : [{ label: '', env: {} }];
    for (let round = 1; round <= rounds; round++)
      for (const { tree, service } of clusters)
        for (const variant of variants) {
          const clusterCpu = service.cpuSeconds();
          const f = await measureMirrorInitialSync(
            mode,
            service,
            {
              ...settings,
              serviceDir: tree.dir,
              serviceEntry: tree.entry,
              watchRate: 0,
              watchSeconds: 0,
              mirrorEnv: { ...pairs('mirror-env'), ...variant.env },
              mirrorNodeArgs: prof(
                `mirror-${tree.label.replace(' ', '-')}-${round}${variant.label ? '-alternate' : ''}`,
              ),
            },
            { nodes: inv.nodeCount, pods: inv.podCount },
          );
          log(
            `${mode} round ${round} ${tree.label}${variant.label}: ${f.status} spawn → ready ${f.readyMs !== undefined ? `${(f.readyMs / 1000).toFixed(1)} s` : '?'}, sync ${f.syncSeconds?.toFixed(1) ?? '?'} s (${f.nodes} nodes, ${f.pods} pods, ${f.budgets} budgets); CPU: mirror ${f.cpuSeconds?.toFixed(1) ?? '?'} s, cluster ${(service.cpuSeconds() - clusterCpu).toFixed(1)} s${f.note ? `; ${f.note}` : ''}`,
          );
        }
  } finally {
    for (const c of clusters) {
      await c.service.stop();
      await c.cleanup();
    }
  }
}

void main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
