/**
 * The embedded mode's write-heavy figures (issue 13's taint commit, issue 15's webhook lag) for two or more trees,
 * measured alternately on one loaded machine: the bench's inventory is imported ONCE into a PGlite data dir (with the
 * first tree), then in every round each tree (order reversed every other round: A B, B A, ...) starts on a fresh copy
 * of that dir, waits /readyz and until it is idle, and runs what bench/run.ts runs in its steps 4 and 4b:
 *   1. POST /v1/taints, the NoExecute drain taint on the 100 `batch-a` nodes (11,000 evictions): the answer's time
 *      (= the commit) and the service's CPU (user + system, /proc) across it; then the taint removed again;
 *   2. a webhook on a loopback receiver, the same taint again with an x-request-id: its answer, and when the last of
 *      its events (counted in /v1/events/history by that request id) arrived, after the answer; the CPU across it.
 * Prints one line per tree and round, then per tree the median of each figure and the load averages seen.
 *
 *   node -r @swc-node/register bench/experiments/taint-commit-ab.ts \
 *     --trees before=/tmp/t-ad1b805,after=/tmp/t-eb5ccdb [--rounds 4] [--nodes 5000] [--pods 150000] \
 *     [--base /tmp/taint-ab-base] [--profile <dir>] [--require <file>] [--skip-webhooks]
 *     [--list-first [--restart-after-list]]
 *
 * Each tree must be built (`npx tsc -p tsconfig.build.json` inside it: dist/main.js, node_modules and src/generated
 * beside it); the service runs compiled, with the bench's heap flags (bench/lib/service.ts). `--base <dir>` keeps
 * the imported data dir: a second run with the same dir skips the generation and the import (the inventory is then
 * generated again only for the node names, same seed). `--list-first`: before the taint, the pod list paged through
 * GET /api/v1/pods?limit=1000 as a mirror's initial sync reads it (the bench's mirror phase runs against the same
 * service just before its writes), timed with the service's CPU; with `--restart-after-list` the service is stopped and
 * started again on the same data between the list and the taint (what the list left in the process is gone, what it
 * left in the data dir stays). `--profile <dir>`: a CPU profile per service
 * (node --cpu-prof), read with bench/experiments/top-functions.mjs. `--require <file>`: preloaded into every service
 * (`node -r`), for a hook that times what the service does (e.g. each PGlite statement) without changing the trees.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chunkList, generateInventory } from '../generate-inventory';
import { http, listAll } from '../lib/http';
import { load } from '../lib/machine';
import { Service, sleep } from '../lib/service';
import { BenchWebhookReceiver } from '../lib/webhook-receiver';
import { DRAIN_REMOVE_SPEC, DRAIN_SPEC } from '../scenarios';

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
const nodes = Number(arg('nodes', '5000'));
const pods = Number(arg('pods', '150000'));
const base = resolve(arg('base', '/tmp/taint-ab-base'));
const profileDir = argv.includes('--profile') ? resolve(arg('profile', '')) : undefined;
const preload = argv.includes('--require') ? resolve(arg('require', '')) : undefined;
const skipWebhooks = argv.includes('--skip-webhooks');
const listFirst = argv.includes('--list-first');
const restartAfterList = argv.includes('--restart-after-list');

const log = (msg: string) =>
  process.stdout.write(`[taint-ab ${new Date().toISOString().slice(11, 19)} load ${load().join('/')}] ${msg}\n`);

const ENV = { BENCH_OPS_ROUTES: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' };
const entryOf = (dir: string) => join(dir, 'dist', 'main.js');

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
  readyMs: number;
  listMs?: number;
  listCpuS?: number;
  commitMs: number;
  commitCpuS: number;
  untaintMs: number;
  untaintCpuS: number;
  hookCommitMs?: number;
  events?: number;
  delivered?: number;
  lastMs?: number;
  hookCpuS?: number;
  load: number[];
}

async function main() {
  const inv = generateInventory({ nodes, pods, seed: 42, drainSeconds: 30 });
  const names = inv.pools['batch-a'];
  if (!existsSync(base)) {
    log(`importing ${inv.nodeCount} nodes, ${inv.podCount} pods into ${base} with ${trees[0].label}`);
    mkdirSync(base, { recursive: true });
    const { service } = await Service.start({
      cwd: trees[0].dir,
      entry: entryOf(trees[0].dir),
      env: { ...ENV, DATA_DIR: base },
    });
    const started = performance.now();
    for (const chunk of chunkList(inv.items, 10_000)) {
      const r = await http(service.url, 'POST', '/v1/import', JSON.stringify(chunk));
      if (r.status >= 300) throw new Error(`import answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
    log(`imported in ${Math.round((performance.now() - started) / 1000)} s`);
    await waitIdle(service, 60_000);
    await service.stop();
  }
  const results = new Map<string, RoundFigures[]>(trees.map((t) => [t.label, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? trees : [...trees].reverse();
    for (const tree of order) {
      const dir = `${base}-run-${tree.label}`;
      rmSync(dir, { recursive: true, force: true });
      execFileSync('cp', ['-a', base, dir]);
      const nodeArgs = [
        ...(profileDir
          ? ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${tree.label}-r${round}.cpuprofile`]
          : []),
        ...(preload ? ['-r', preload] : []),
      ];
      const start = () =>
        Service.start({
          cwd: tree.dir,
          entry: entryOf(tree.dir),
          env: { ...ENV, DATA_DIR: dir },
          nodeArgs,
        });
      let { service, readyMs } = await start();
      try {
        await waitIdle(service);
        let listed: { ms: number; cpuS: number } | undefined;
        if (listFirst) {
          listed = await listPods(service);
          if (restartAfterList) {
            await service.stop();
            ({ service, readyMs } = await start());
          }
          await waitIdle(service);
        }
        const cpu0 = service.cpuSeconds();
        const answer = await http(service.url, 'POST', '/v1/taints', { nodes: names, taints: [DRAIN_SPEC] });
        const commitCpuS = service.cpuSeconds() - cpu0;
        if (answer.status !== 200) throw new Error(`taint answered ${answer.status}: ${answer.text.slice(0, 300)}`);
        const cpu1 = service.cpuSeconds();
        const untaint = await http(service.url, 'POST', '/v1/taints', { nodes: names, taints: [DRAIN_REMOVE_SPEC] });
        const untaintCpuS = service.cpuSeconds() - cpu1;
        const f: RoundFigures = {
          readyMs,
          commitMs: answer.ms,
          commitCpuS,
          untaintMs: untaint.ms,
          untaintCpuS,
          listMs: listed?.ms,
          listCpuS: listed?.cpuS,
          load: load(),
        };
        if (!skipWebhooks) Object.assign(f, await webhookLag(service, names));
        f.load = load();
        results.get(tree.label)!.push(f);
        log(
          `round ${round + 1} ${tree.label}: ready ${Math.round(readyMs)} ms, ${listed ? `pod list ${Math.round(listed.ms)} ms (CPU ${listed.cpuS.toFixed(2)} s), ` : ''}commit ${Math.round(f.commitMs)} ms (CPU ${f.commitCpuS.toFixed(2)} s, ${JSON.stringify(answer.body.evictions)}), untaint ${Math.round(f.untaintMs)} ms (CPU ${f.untaintCpuS.toFixed(2)} s)` +
            (f.lastMs !== undefined
              ? `; webhooks: commit ${Math.round(f.hookCommitMs!)} ms, ${f.delivered}/${f.events} delivered, last ${Math.round(f.lastMs)} ms after the answer (CPU ${f.hookCpuS!.toFixed(2)} s)`
              : ''),
        );
      } finally {
        await service.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  for (const t of trees) {
    const rs = results.get(t.label)!;
    const m = (k: keyof RoundFigures) => median(rs.map((r) => r[k] as number).filter((x) => x !== undefined));
    log(
      `${t.label} median of ${rs.length}: commit ${Math.round(m('commitMs'))} ms (CPU ${m('commitCpuS').toFixed(2)} s), untaint ${Math.round(m('untaintMs'))} ms (CPU ${m('untaintCpuS').toFixed(2)} s), ready ${Math.round(m('readyMs'))} ms` +
        (listFirst ? `; pod list ${Math.round(m('listMs'))} ms (CPU ${m('listCpuS').toFixed(2)} s)` : '') +
        (skipWebhooks
          ? ''
          : `; webhooks: commit ${Math.round(m('hookCommitMs'))} ms, last ${Math.round(m('lastMs'))} ms (CPU ${m('hookCpuS').toFixed(2)} s)`) +
        `; commits ${rs.map((r) => Math.round(r.commitMs)).join(' ')}${skipWebhooks ? '' : `; lasts ${rs.map((r) => Math.round(r.lastMs!)).join(' ')}`}`,
    );
  }
}

/**
 * `--list-first`: GET /api/v1/pods?limit=1000 paged to the end before the taint, as a mirror's initial sync asks the
 * cluster (bench/run.ts runs its mirror phase against the same service just before the writes).
 */
async function listPods(service: Service): Promise<{ ms: number; cpuS: number }> {
  const cpu0 = service.cpuSeconds();
  const started = performance.now();
  let cont: string | undefined;
  do {
    const r = await http<any>(
      service.url,
      'GET',
      `/api/v1/pods?limit=1000${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`,
    );
    if (r.status !== 200) throw new Error(`the pod list answered ${r.status}: ${r.text.slice(0, 300)}`);
    cont = r.body.metadata?.continue || undefined;
  } while (cont);
  return { ms: performance.now() - started, cpuS: service.cpuSeconds() - cpu0 };
}

/** run.ts measureWebhookLag, without the baseline. */
async function webhookLag(service: Service, names: string[]): Promise<Partial<RoundFigures>> {
  const receiver = await new BenchWebhookReceiver().start();
  try {
    const hook = await http(service.url, 'POST', '/v1/webhooks', { url: receiver.url, description: 'bench' });
    if (hook.status !== 201) throw new Error(`POST /v1/webhooks answered ${hook.status}: ${hook.text}`);
    for (const until = performance.now() + 10_000; receiver.messages.length === 0 && performance.now() < until;)
      await sleep(20);
    const requestId = `taint-ab-${Date.now()}`;
    const since = new Date(Date.now() - 1000).toISOString();
    const cpu0 = service.cpuSeconds();
    const answer = await http(
      service.url,
      'POST',
      '/v1/taints',
      { nodes: names, taints: [DRAIN_SPEC] },
      { 'x-request-id': requestId },
    );
    const answeredAt = performance.now();
    if (answer.status !== 200) throw new Error(`taint answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    const history = await listAll<{ requestId: string | null }>(
      service.url,
      `/v1/events/history?since=${encodeURIComponent(since)}`,
    );
    if (history.status !== 200) throw new Error(`GET /v1/events/history answered ${history.status}`);
    const events = history.items.filter((e) => e.requestId === requestId).length;
    const mine = () => receiver.messages.filter((m) => m.requestId === requestId);
    const deadline = answeredAt + 60_000;
    while (mine().length < events && performance.now() < deadline) await sleep(50);
    const arrived = mine();
    const hookCpuS = service.cpuSeconds() - cpu0;
    const lastMs = arrived.reduce((a, m) => Math.max(a, m.arrivedAt - answeredAt), 0);
    await http(service.url, 'DELETE', `/v1/webhooks/${hook.body.id}`).catch(() => undefined);
    return { hookCommitMs: answer.ms, events, delivered: arrived.length, lastMs, hookCpuS };
  } finally {
    await receiver.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
