/**
 * Issue 16 (6), the eviction lag of 10,000 evictions due in the same second, for two or more trees measured
 * alternately (A B, B A, ...) on one loaded machine. Each round starts every tree on a fresh copy of a data dir
 * imported once (the one `taint-commit-ab.ts --base` makes: same inventory, drainSeconds 30), taints the 100
 * `batch-b` nodes with the drain taint as bench/run.ts's eviction-lag step does (10,000 pods tolerate it for 30 s),
 * and listens to `GET /v1/events?types=EvictionExecuted` with bench/lib/eviction-stream.ts (as bench/run.ts does):
 *   - p50 / p99 / last: arrival of each of the 10,000 EvictionExecuted events − its evictAt (the bench's observed lag);
 *   - CPU: the service's CPU (/proc) from 2 s before the deadline to the last arrival;
 *   - executed: the batch-b evictions Executed afterwards (GET /v1/evictions, not timed; 11,000 with the immediate).
 *
 *   node -r @swc-node/register bench/experiments/eviction-sweep-ab.ts \
 *     --trees before=/tmp/wc-before,after=. [--rounds 4] [--base /tmp/taint-ab-base] [--node-args '-r /tmp/hook.cjs']
 *     [--postgres postgres://postgres@127.0.0.1:5432 --redis redis://127.0.0.1:6379/5]
 *
 * `--postgres <server URL>`: the service on PostgreSQL + Redis instead. The inventory is imported once into the
 * database `tw_sweep_base` (kept; drop it to import again), and each round runs on `tw_sweep_run`, a fresh copy made
 * with `CREATE DATABASE … TEMPLATE`. `--redis` (default database 5 of the local server) is emptied before each round:
 * the timers of an earlier round must not fire into the next.
 *
 * Each tree must be built (`npx tsc -p tsconfig.build.json` inside it). `--node-args`: extra node flags for the
 * service (a scratch hook, a profiler), split on spaces.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chunkList, generateInventory } from '../generate-inventory';
import { http, listAll } from '../lib/http';
import { load } from '../lib/machine';
import { watchEvictions } from '../lib/eviction-stream';
import { Service, sleep } from '../lib/service';
import { DRAIN_SPEC } from '../scenarios';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : fallback;
};
const trees = arg('trees', '')
  .split(',')
  .filter(Boolean)
  .map((kv) => {
    const [label, dir] = kv.split('=');
    return { label, dir: resolve(dir) };
  });
if (trees.length === 0) throw new Error('--trees label=dir,label=dir');
const rounds = Number(arg('rounds', '4'));
const base = resolve(arg('base', '/tmp/taint-ab-base'));
const extraArgs = arg('node-args', '').split(' ').filter(Boolean);
const postgres = arg('postgres', '');
const redis = arg('redis', 'redis://127.0.0.1:6379/5');
const BASE_DB = 'tw_sweep_base';
const RUN_DB = 'tw_sweep_run';
const DRAIN_SECONDS = 30;

const log = (msg: string) =>
  process.stdout.write(`[sweep-ab ${new Date().toISOString().slice(11, 19)} load ${load().join('/')}] ${msg}\n`);

const ENV = { BENCH_OPS_ROUTES: 'true' };

async function waitIdle(service: Service, maxMs = 15_000): Promise<void> {
  const until = performance.now() + maxMs;
  let last = service.cpuSeconds();
  while (performance.now() < until) {
    await sleep(1000);
    const now = service.cpuSeconds();
    if (now - last < 0.05) return;
    last = now;
  }
}

interface RoundFigures {
  commitMs: number;
  p50Ms: number;
  p99Ms: number;
  lastMs: number;
  seen: number;
  cpuS: number;
  executed: number;
}

function psql(sql: string): string {
  return execFileSync('psql', [`${postgres}/postgres`, '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], {
    encoding: 'utf8',
  }).trim();
}

/** PostgreSQL mode: the base database, imported through the first tree's service, once. */
async function ensurePostgresBase(tree: { dir: string }, inv: ReturnType<typeof generateInventory>): Promise<void> {
  if (psql(`SELECT 1 FROM pg_database WHERE datname = '${BASE_DB}'`) === '1') return;
  psql(`CREATE DATABASE ${BASE_DB}`);
  const env = { ...ENV, DATABASE_URL: `${postgres}/${BASE_DB}`, REDIS_URL: redis };
  execFileSync('npm', ['run', '-s', 'migrate'], { cwd: tree.dir, env: { ...process.env, ...env }, stdio: 'inherit' });
  const { service } = await Service.start({ cwd: tree.dir, entry: join(tree.dir, 'dist', 'main.js'), env });
  try {
    const started = performance.now();
    for (const chunk of chunkList(inv.items, 10_000)) {
      const r = await http(service.url, 'POST', '/v1/import', JSON.stringify(chunk));
      if (r.status >= 300) throw new Error(`import answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
    log(`imported into ${BASE_DB} in ${Math.round((performance.now() - started) / 1000)} s`);
  } finally {
    await service.stop();
  }
  // What autovacuum would do during the first rounds, done before them.
  execFileSync('psql', [`${postgres}/${BASE_DB}`, '-qc', 'VACUUM ANALYZE']);
}

/** A fresh copy of the stored inventory for one round; the environment that points the service at it. */
function freshStorage(label: string): { env: Record<string, string>; drop: () => void } {
  if (postgres) {
    psql(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`);
    psql(`CREATE DATABASE ${RUN_DB} TEMPLATE ${BASE_DB}`);
    const url = new URL(redis);
    execFileSync('redis-cli', [
      '-h',
      url.hostname,
      '-p',
      url.port || '6379',
      '-n',
      url.pathname.slice(1) || '0',
      'FLUSHDB',
    ]);
    return {
      env: { ...ENV, DATABASE_URL: `${postgres}/${RUN_DB}`, REDIS_URL: redis },
      drop: () => psql(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`),
    };
  }
  const dir = `${base}-sweep-${label}`;
  rmSync(dir, { recursive: true, force: true });
  execFileSync('cp', ['-a', base, dir]);
  return { env: { ...ENV, DATA_DIR: dir }, drop: () => rmSync(dir, { recursive: true, force: true }) };
}

async function main() {
  const inv = generateInventory({ nodes: 5000, pods: 150000, seed: 42, drainSeconds: DRAIN_SECONDS });
  if (postgres) await ensurePostgresBase(trees[0], inv);
  else if (!existsSync(base)) throw new Error(`${base} missing: make it with taint-commit-ab.ts --base ${base}`);
  const names = inv.pools['batch-b'];
  const onPool = new Set(names);
  const results = new Map<string, RoundFigures[]>(trees.map((t) => [t.label, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? trees : [...trees].reverse();
    for (const tree of order) {
      const storage = freshStorage(tree.label);
      const { service } = await Service.start({
        cwd: tree.dir,
        entry: join(tree.dir, 'dist', 'main.js'),
        env: storage.env,
        nodeArgs: extraArgs,
      });
      try {
        await waitIdle(service);
        const answer = await http(service.url, 'POST', '/v1/taints', { nodes: names, taints: [DRAIN_SPEC] });
        if (answer.status !== 200) throw new Error(`taint answered ${answer.status}: ${answer.text.slice(0, 300)}`);
        // timeAdded is the commit's clock, a little before the answer: the deadline is at most this.
        const dueAt = Date.now() - answer.ms + DRAIN_SECONDS * 1000;
        const stream = watchEvictions(service, onPool);
        await sleep(Math.max(0, dueAt - 2000 - Date.now()));
        const cpu0 = service.cpuSeconds();
        const lags = await stream.stop(expected(answer.body), 120_000);
        const cpuS = service.cpuSeconds() - cpu0;
        const list = await listAll<any>(service.url, '/v1/evictions?status=Executed');
        const executed = list.items.filter((e) => onPool.has(e.node ?? e.nodeName)).length;
        const f: RoundFigures = {
          commitMs: answer.ms,
          p50Ms: quantile(lags, 0.5),
          p99Ms: quantile(lags, 0.99),
          lastMs: Math.max(...lags),
          seen: lags.length,
          cpuS,
          executed,
        };
        results.get(tree.label)!.push(f);
        log(
          `round ${round + 1} ${tree.label}: taint ${Math.round(f.commitMs)} ms (${JSON.stringify(answer.body.evictions)}); ${f.seen} EvictionExecuted events on the stream, arrival − evictAt p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, last ${f.lastMs} ms; CPU ${f.cpuS.toFixed(2)} s from 2 s before the deadline to the last; ${executed} Executed on batch-b`,
        );
      } finally {
        await service.stop();
        storage.drop();
      }
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  for (const t of trees) {
    const rs = results.get(t.label)!;
    log(
      `${t.label} median of ${rs.length}: p50 ${median(rs.map((r) => r.p50Ms))} ms, p99 ${median(rs.map((r) => r.p99Ms))} ms, last ${median(rs.map((r) => r.lastMs))} ms, CPU ${median(rs.map((r) => r.cpuS)).toFixed(2)} s; p99s ${rs.map((r) => r.p99Ms).join(' ')}`,
    );
  }
  if (trees.length === 2) {
    const [a, b] = trees.map((t) => results.get(t.label)!);
    const ratios = a.map((r, i) => (b[i] ? b[i].p99Ms / r.p99Ms : NaN)).filter(Number.isFinite);
    const cpuRatios = a.map((r, i) => (b[i] ? b[i].cpuS / r.cpuS : NaN)).filter(Number.isFinite);
    log(
      `pair ratios ${trees[1].label}/${trees[0].label}: p99 ${ratios.map((x) => x.toFixed(2)).join(' ')} (median ${median(ratios).toFixed(2)}); CPU ${cpuRatios.map((x) => x.toFixed(2)).join(' ')} (median ${median(cpuRatios).toFixed(2)})`,
    );
  }
}

/** The scheduled evictions the taint made (the answer's count; 10,000 on the bench inventory). */
function expected(body: any): number {
  return body?.evictions?.scheduled ?? 10_000;
}

function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
