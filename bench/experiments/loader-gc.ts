/**
 * The open-loop loader's own pauses, without the service: the loader against a stub server (its own
 * process, answering every POST at once with a fixed 5 KB body), run (a) in this process while it holds
 * the generated inventory and its import chunks, as bench/run.ts did, and (b) in a process of its own
 * (lib/open-loop-process.ts), alternated round after round. What differs is only what the loader's heap
 * holds, so its GC pauses and send lag show what the inventory cost the open-loop figure.
 *   node --max-old-space-size=8192 -r @swc-node/register bench/experiments/loader-gc.ts \
 *     --nodes 5000 --pods 150000 --rate 1000 --duration 20 --rounds 2
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { runOpenLoop, type OpenLoopResult } from '../lib/open-loop';
import { runOpenLoopInChild } from '../lib/open-loop-process';
import { chunkList, generateInventory } from '../generate-inventory';
import { distinctPodBody, podMix } from '../scenarios';

const argv = process.argv.slice(2);
const num = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const log = (msg: string) => process.stdout.write(`[loader-gc ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join('/');

const STUB = `
const answer = JSON.stringify({ nodes: Array.from({ length: 20 }, (_, i) => ({ name: 'node-' + i, feasible: true, score: 100, scores: { TaintToleration: 100, NodeAffinity: 0 } })), pad: 'x'.repeat(3000) });
require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end(answer); }); })
  .listen(0, '127.0.0.1', function () { process.send(this.address().port); });
`;

async function main() {
  const nodes = num('nodes', 5000);
  const pods = num('pods', 150_000);
  const rate = num('rate', 1000);
  const duration = num('duration', 20);
  const rounds = num('rounds', 2);
  const inv = generateInventory({ nodes, pods, seed: 42 });
  const chunks = chunkList(inv.items, 10_000).map((c) => JSON.stringify(c));
  const inline = podMix(inv).filter((c) => c.body.pod);
  log(
    `holding ${inv.items.length} objects and ${chunks.length} chunks; heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MiB`,
  );
  const stub = spawn(process.execPath, ['-e', STUB], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => stub.once('message', (p) => resolve(Number(p))));
  const url = `http://127.0.0.1:${port}`;
  const path = '/v1/decisions/feasible-nodes';
  const show = (where: string, r: OpenLoopResult) =>
    log(
      `${where.padEnd(28)} p99 ${r.latencyMs.p99.toFixed(1)} max ${r.latencyMs.max.toFixed(1)} ms; send lag p99 ${r.sendLagMs.p99.toFixed(1)} max ${r.sendLagMs.max.toFixed(1)} ms; loader GC ${r.loaderGc.count} pauses, ${r.loaderGc.totalMs.toFixed(0)} ms in all, longest ${r.loaderGc.longestMs.toFixed(1)} ms, major ${r.loaderGc.majorCount} (longest ${r.loaderGc.majorLongestMs.toFixed(1)} ms); ok ${r.ok}; load ${load()}`,
    );
  for (let round = 0; round < rounds; round++)
    for (const where of round % 2 === 0 ? ['inline', 'child'] : ['child', 'inline']) {
      const r =
        where === 'inline'
          ? await runOpenLoop({
              url,
              path,
              body: (n) => distinctPodBody(inline[n % inline.length].body, `gc-${round}-${n}`),
              ratePerSec: rate,
              durationSec: duration,
            })
          : await runOpenLoopInChild({
              url,
              path,
              bodies: inline.map((c) => c.body),
              tag: `gc-${round}`,
              ratePerSec: rate,
              durationSec: duration,
            });
      show(`round ${round} ${where === 'inline' ? 'in the bench process' : 'in its own process'}`, r);
    }
  log(`(still holding ${inv.items.length + chunks.length} values)`);
  stub.kill();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
