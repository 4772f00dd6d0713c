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
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { http } from '../lib/http';
import { freePort, REPO_ROOT, SERVICE_NODE_ARGS, sleep } from '../lib/service';
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
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...SERVICE_NODE_ARGS, '--expose-gc', '--trace-gc-nvp', ...extraArgs, 'dist/main.js'],
    {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        BENCH_OPS_ROUTES: 'true',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const url = `http://127.0.0.1:${port}`;
  try {
    for (let ready = false; !ready;) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
      ready = await http(url, 'GET', '/readyz').then(
        (r) => r.status === 200,
        () => false,
      );
      if (!ready) await sleep(250);
    }
    await sleep(2000);
    const rows: Array<Record<string, number>> = [];
    for (let i = 0; i < rounds; i++) {
      const from = out.length;
      const answer = await http(url, 'POST', '/ops/heap');
      if (answer.status !== 200 || !answer.body.collected) throw new Error(`POST /ops/heap: ${answer.status}`);
      await sleep(300); // V8 writes the collection's line to stdout as it ends; let the pipe deliver it
      const line = out
        .slice(from)
        .split('\n')
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
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
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
