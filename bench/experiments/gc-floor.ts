/**
 * What a forced full collection (issue 16 (2)) costs and what it is made of. The compiled service
 * (dist/main.js) is started on each embedded data directory given, with --expose-gc --trace-gc-nvp;
 * POST /ops/heap is called --rounds times; for each call, V8's own record of that collection gives the
 * pause and its phases (marking, evacuation, clearing, the helpers' marking time). An empty directory is
 * the framework alone; a kept bench inventory (open-loop-stalls.ts --data) is the full size.
 * `--packages` then imports the service's biggest dependencies alone, one per fresh process, and reports
 * the live heap each adds and the forced collection after it.
 *   node -r @swc-node/register bench/experiments/gc-floor.ts --data /tmp/tw-empty,/tmp/tw-inv-5000 \
 *     [--rounds 7] [--node-args "--single-threaded-gc"] [--packages]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { http } from '../lib/http';
import { REPO_ROOT, Service, sleep } from '../lib/service';
import { percentile } from '../lib/stats';

const argText = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const rounds = Number(argText('rounds') ?? 7);
const extraArgs = (argText('node-args') ?? '').split(' ').filter(Boolean);
/** Phases of a mark-compact in --trace-gc-nvp's names, as printed here. */
const PHASES = ['pause', 'mark', 'evacuate', 'clear', 'sweep', 'background.mark'] as const;
const PACKAGES = [
  '@nestjs/core',
  '@nestjs/graphql',
  '@nestjs/apollo',
  '@nestjs/swagger',
  '@nestjs/platform-fastify',
  'es-toolkit/compat',
  '@apollo/server',
  'graphql',
  'graphql-jit',
  'bullmq',
  '@electric-sql/pglite',
  'prom-client',
];

const median = (values: number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

async function measureService(dataDir: string): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  // Service keeps stdout's lines that are not JSON (here --trace-gc-nvp's) among its logs as { msg: line }.
  const { service } = await Service.start({
    entry: `${REPO_ROOT}/dist/main.js`,
    env: { DATA_DIR: dataDir, BENCH_OPS_ROUTES: 'true' },
    nodeArgs: ['--expose-gc', '--trace-gc-nvp', ...extraArgs],
  });
  try {
    await sleep(2000);
    const rows: Array<Record<string, number>> = [];
    for (let i = 0; i < rounds; i++) {
      const from = service.logs.length;
      const answer = await http(service.url, 'POST', '/ops/heap');
      if (answer.status !== 200 || !answer.body.collected) throw new Error(`POST /ops/heap: ${answer.status}`);
      await sleep(300); // V8 writes the collection's line to stdout as it ends; let the pipe deliver it
      const line = service.logs
        .slice(from)
        .map((l) => String(l.msg))
        .find((l) => l.includes('gc=mc'));
      if (!line) throw new Error('no mark-compact line from --trace-gc-nvp for the forced collection');
      const nvp = Object.fromEntries(
        line
          .split(' ')
          .map((pair) => pair.split('='))
          .filter((kv) => kv.length === 2)
          .map(([k, v]) => [k, Number(v)]),
      );
      rows.push({
        gcMs: answer.body.gcMs,
        usedMiB: answer.body.heap.used_heap_size / 2 ** 20,
        ...Object.fromEntries(PHASES.map((p) => [p, nvp[p]])),
      });
    }
    const show = (key: string) => `${key} ${median(rows.map((r) => r[key])).toFixed(1)}`;
    console.log(
      `${dataDir}${extraArgs.length ? ` (${extraArgs.join(' ')})` : ''}: medians of ${rounds} forced collections, ms — ` +
        ['gcMs', ...PHASES].map(show).join(', ') +
        `; live heap ${median(rows.map((r) => r.usedMiB)).toFixed(1)} MiB` +
        `; gcMs each: ${rows.map((r) => r.gcMs.toFixed(1)).join(' ')}`,
    );
  } finally {
    await service.stop();
  }
}

/** One fresh process per package: the live heap its import adds, and a forced collection before and after. */
function measurePackage(name: string): void {
  const script = `
    const timed = () => { const t = []; for (let i = 0; i < 7; i++) { const s = performance.now(); gc(); t.push(performance.now() - s); } t.sort((a, b) => a - b); return t[3]; };
    gc(); gc();
    const base = process.memoryUsage().heapUsed; const before = timed();
    await import(process.argv[1]);
    gc(); gc();
    const added = (process.memoryUsage().heapUsed - base) / 2 ** 20;
    console.log(JSON.stringify({ added, before, after: timed() }));`;
  const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script, name], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    console.log(`${name}: failed (${run.stderr.split('\n')[0]})`);
    return;
  }
  const { added, before, after } = JSON.parse(run.stdout.trim().split('\n').pop()!);
  console.log(
    `${name.padEnd(28)} +${added.toFixed(1)} MiB live heap; forced collection ${before.toFixed(1)} → ${after.toFixed(1)} ms`,
  );
}

async function main() {
  for (const dir of (argText('data') ?? '').split(',').filter(Boolean)) await measureService(dir);
  if (process.argv.includes('--packages')) for (const name of PACKAGES) measurePackage(name);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
