/**
 * CPU per request around the decision, in-process (Fastify's inject: no sockets, no load generator), on
 * a generated inventory in embedded mode. Phases, alternated round after round so a busy machine
 * weighs on each alike (CPU time from process.cpuUsage, which the load barely moves):
 *   rest-distinct  POST /v1/decisions/feasible-nodes, every body distinct (scenarios.ts distinctPodBody)
 *   rest-mix       the same inline pods repeated (answered from the decision cache)
 *   gql-mix        the feasibleNodes query over /graphql for the 10-pod mix (what the bench's ratio uses)
 *   gql-distinct   the same, every pod distinct
 *   impact         taint-impact of the drain taint over pool=search (full list), and `impact-summary`
 *   impact-replace the same with `replacement: true` (every evicted pod re-placed in turn, issue 13)
 * Prints the median CPU ms per request of each phase over the rounds (and the main thread's share);
 * `--profile <file>` writes a CPU profile of the measured rounds (bench/experiments/top-functions.mjs reads it).
 *   node -r @swc-node/register bench/experiments/request-cost.ts --nodes 1000 --pods 30000 --requests 2000 --rounds 3
 *   ... --phases rest-distinct,gql-mix   (a subset)
 * The service's own config is built from the arguments here (NODE_ENV stays development for it), so
 * `NODE_ENV=production node ...` shows what graphql-js's production mode alone changes.
 * Two trees against each other, batches alternated between two warmed-up processes: ab-trees.ts.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/kernel/config/config.schema';
import { chunkList, generateInventory } from '../generate-inventory';
import { distinctPodBody, graphQLOperation, podMix, taintImpactBody } from '../scenarios';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const argText = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

async function main() {
  const config = loadConfig({
    LOG_LEVEL: 'warn',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'tw-reqcost-')),
    RATE_LIMIT_PER_MINUTE: '0',
  });
  const app = await createApp(config, { logger: pino({ level: 'warn' }) });
  await app.init();
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.ready();
  const send = (url: string, payload: string) =>
    fastify.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
  const inv = generateInventory({ nodes: arg('nodes', 1000), pods: arg('pods', 30000), seed: 42, drainSeconds: 30 });
  for (const chunk of chunkList(inv.items, 10_000)) {
    const r = await send('/v1/import', JSON.stringify(chunk));
    if (r.statusCode >= 300) throw new Error(`import ${r.statusCode}`);
  }
  const cases = podMix(inv);
  const inline = cases.filter((c) => c.body.pod);
  const op = (await graphQLOperation(
    async (b) => (await send('/graphql', JSON.stringify(b))).json(),
    'feasibleNodes',
  ))!;
  const gqlBody = (body: Record<string, any>) => JSON.stringify({ query: op.query, variables: op.variables(body) });
  const requests = arg('requests', 2000);
  let serial = 0;
  const phases: Record<string, { url: string; body: (n: number) => string; count: number }> = {
    'rest-distinct': {
      url: '/v1/decisions/feasible-nodes',
      body: (n) => distinctPodBody(inline[n % inline.length].body, `${serial}-${n}`),
      count: requests,
    },
    'rest-mix': {
      url: '/v1/decisions/feasible-nodes',
      body: (n) => JSON.stringify(cases[n % cases.length].body),
      count: requests,
    },
    'gql-mix': { url: '/graphql', body: (n) => gqlBody(cases[n % cases.length].body), count: requests },
    'gql-distinct': {
      url: '/graphql',
      body: (n) => gqlBody(JSON.parse(distinctPodBody(inline[n % inline.length].body, `${serial}-${n}`))),
      count: requests,
    },
    impact: {
      url: '/v1/decisions/taint-impact',
      body: () => JSON.stringify(taintImpactBody()),
      count: Math.max(20, Math.round(requests / 50)),
    },
    'impact-summary': {
      url: '/v1/decisions/taint-impact',
      body: () => JSON.stringify({ ...taintImpactBody(), summary: true }),
      count: Math.max(20, Math.round(requests / 50)),
    },
    // the bench's issue-13 line: the same taint, every evicted pod re-placed in turn
    'impact-replace': {
      url: '/v1/decisions/taint-impact',
      body: () => JSON.stringify({ ...taintImpactBody(), replacement: true }),
      count: Math.max(5, Math.round(requests / 200)),
    },
  };
  const chosen = argText('phases', Object.keys(phases).join(',')).split(',');
  const results: Record<string, number[]> = {};
  const run = async (name: string, count: number) => {
    const phase = phases[name];
    serial++;
    // bodies built before the clock starts: only the service's work is timed
    const bodies = Array.from({ length: count }, (_, n) => phase.body(n));
    const cpu0 = process.cpuUsage();
    const main0 = mainThreadCpuMs();
    for (const body of bodies) {
      const r = await send(phase.url, body);
      if (r.statusCode !== 200 || r.body.includes('"errors"'))
        throw new Error(`${name} ${r.statusCode} ${r.body.slice(0, 300)}`);
    }
    const cpu = process.cpuUsage(cpu0);
    (mainMs[name] ??= []).push((mainThreadCpuMs() - main0) / count);
    return (cpu.user + cpu.system) / 1000 / count;
  };
  const mainMs: Record<string, number[]> = {};
  // warm-up: one full round not counted (the JIT, and the heap settling after the import)
  for (const name of chosen) await run(name, phases[name].count);
  if (process.argv.includes('--serve')) {
    // driven by ab-trees.ts: one line `<phase> <count>` per batch on stdin, one JSON line back
    console.log(JSON.stringify({ ready: true }));
    for await (const line of createInterface({ input: process.stdin })) {
      const [name, count] = line.trim().split(' ');
      if (!name) continue;
      const cpuMs = await run(name, Number(count));
      console.log(JSON.stringify({ phase: name, cpuMs }));
    }
    await app.close();
    return;
  }
  // --profile <file>: a CPU profile of the measured rounds only (not the start-up and import)
  const profileTo = argText('profile', '');
  const session = profileTo ? new Session() : undefined;
  const post = (method: string) =>
    new Promise<any>((resolve, reject) => session!.post(method, (e, r) => (e ? reject(e) : resolve(r))));
  if (session) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.start');
  }
  for (let round = 0; round < arg('rounds', 3); round++)
    for (const name of chosen) (results[name] ??= []).push(await run(name, phases[name].count));
  if (session) writeFileSync(profileTo, JSON.stringify((await post('Profiler.stop')).profile));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const out: Record<string, unknown> = { nodes: inv.nodeCount, pods: inv.podCount, requests };
  for (const [name, xs] of Object.entries(results))
    out[name] = {
      cpuMsMedian: Math.round(median(xs) * 1000) / 1000,
      rounds: xs.map((x) => Math.round(x * 1000) / 1000),
      // the main thread alone (10 ms ticks): the rest of cpuMs is V8's helper threads (GC marking, compiling)
      mainThreadMsMedian: Math.round(median(mainMs[name].slice(-xs.length)) * 100) / 100,
    };
  console.log(JSON.stringify(out));
  await app.close();
}
/** CPU time of the process's main thread, ms (/proc/self/task/<pid>/stat: utime + stime, in 10 ms ticks). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

void main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
