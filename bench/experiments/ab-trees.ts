/**
 * Two trees (e.g. a `git archive` of the commit before a change, and the work tree) measured against each
 * other on a loaded machine: request-cost.ts runs in each, warmed up, and the batches alternate between
 * the two processes (A B, then B A, ...), so whatever else the machine does at that moment weighs on
 * both. Prints per phase the median CPU ms per request of each tree and the median of the per-pair
 * ratios after/before (the figure to quote), with the load average at start and end.
 *   node -r @swc-node/register bench/experiments/ab-trees.ts --before /tmp/before --after . \
 *     --phases rest-distinct --batch 500 --pairs 20 -- --nodes 1000 --pods 30000 --requests 500
 * `--env-after NODE_ENV=production` with the same tree on both sides: what graphql-js's production mode changes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const argv = process.argv.slice(2);
const split = argv.indexOf('--');
const own = split >= 0 ? argv.slice(0, split) : argv;
const passed = split >= 0 ? argv.slice(split + 1) : [];
const opt = (name: string, fallback: string) => {
  const i = own.indexOf(`--${name}`);
  return i >= 0 ? own[i + 1] : fallback;
};
const phases = opt('phases', 'rest-distinct').split(',');
const batch = Number(opt('batch', '500'));
const pairs = Number(opt('pairs', '20'));
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Worker {
  child: ChildProcess;
  next(): Promise<any>;
}

/** `--env-after K=V` (repeatable): extra environment for the after process only (e.g. NODE_ENV=production). */
const envAfter: Record<string, string> = {};
own.forEach((a, i) => {
  if (a === '--env-after') {
    const [k, ...v] = own[i + 1].split('=');
    envAfter[k] = v.join('=');
  }
});

function start(dir: string, env: Record<string, string> = {}): Worker {
  const child = spawn(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      'bench/experiments/request-cost.ts',
      '--serve',
      '--phases',
      phases.join(','),
      ...passed,
    ],
    { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!line.startsWith('{"ready"') && !line.startsWith('{"phase"')) return; // log lines
    const w = waiting.shift();
    if (w) w(line);
    else lines.push(line);
  });
  return {
    child,
    next: () =>
      new Promise((resolve) => {
        const line = lines.shift();
        if (line !== undefined) resolve(JSON.parse(line));
        else waiting.push((l) => resolve(JSON.parse(l)));
      }),
  };
}

async function main() {
  const load0 = loadavg();
  const before = start(opt('before', '.'));
  const after = start(opt('after', '.'), envAfter);
  await Promise.all([before.next(), after.next()]);
  const ask = async (w: Worker, phase: string) => {
    w.child.stdin!.write(`${phase} ${batch}\n`);
    return (await w.next()).cpuMs as number;
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const out: Record<string, unknown> = { batch, pairs, envAfter, loadStart: load0 };
  for (const phase of phases) {
    const a: number[] = [];
    const b: number[] = [];
    for (let p = 0; p < pairs; p++) {
      if (p % 2 === 0) {
        a.push(await ask(before, phase));
        b.push(await ask(after, phase));
      } else {
        b.push(await ask(after, phase));
        a.push(await ask(before, phase));
      }
    }
    const r = (x: number) => Math.round(x * 1000) / 1000;
    out[phase] = {
      beforeCpuMs: r(median(a)),
      afterCpuMs: r(median(b)),
      ratioMedian: r(median(a.map((x, i) => b[i] / x))),
      ratiosSorted: a.map((x, i) => r(b[i] / x)).sort((x, y) => x - y),
    };
  }
  out.loadEnd = loadavg();
  console.log(JSON.stringify(out));
  before.child.kill();
  after.child.kill();
}
void main();
