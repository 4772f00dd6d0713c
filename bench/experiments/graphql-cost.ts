/**
 * CPU per feasible-nodes question through REST and through GraphQL, in-process (Fastify's inject: no
 * sockets, no load generator), on a small generated inventory in embedded mode: what each transport
 * adds around the same decision. Run with --cpu-prof to see where GraphQL's share goes.
 *   node -r @swc-node/register bench/experiments/graphql-cost.ts --nodes 200 --pods 2000 --requests 3000
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/kernel/config/config.schema';
import { chunkList, generateInventory } from '../generate-inventory';
import { graphQLOperation, podMix } from '../scenarios';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

async function main() {
  const config = loadConfig({
    LOG_LEVEL: 'warn',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'tw-gqlcost-')),
    RATE_LIMIT_PER_MINUTE: '0',
  });
  const app = await createApp(config, { logger: pino({ level: 'warn' }) });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const fastify = app.getHttpAdapter().getInstance();
  const post = async (url: string, payload: unknown) => {
    const r = await fastify.inject({
      method: 'POST',
      url,
      payload: payload as any,
      headers: { 'content-type': 'application/json' },
    });
    return { status: r.statusCode, body: r.json() };
  };
  const inv = generateInventory({ nodes: arg('nodes', 200), pods: arg('pods', 2000), seed: 42, drainSeconds: 30 });
  for (const chunk of chunkList(inv.items, 10_000)) {
    const r = await post('/v1/import', chunk);
    if (r.status >= 300) throw new Error(`import ${r.status}`);
  }
  const cases = podMix(inv);
  const op = (await graphQLOperation((b) => post('/graphql', b).then((r) => r.body), 'feasibleNodes'))!;
  const rest = cases.map((c) => JSON.stringify(c.body));
  const gql = cases.map((c) => JSON.stringify({ query: op.query, variables: op.variables(c.body) }));
  const requests = arg('requests', 3000);
  const measure = async (url: string, bodies: string[]) => {
    for (let n = 0; n < 300; n++)
      await fastify.inject({
        method: 'POST',
        url,
        payload: bodies[n % bodies.length],
        headers: { 'content-type': 'application/json' },
      });
    const cpu0 = process.cpuUsage();
    for (let n = 0; n < requests; n++) {
      const r = await fastify.inject({
        method: 'POST',
        url,
        payload: bodies[n % bodies.length],
        headers: { 'content-type': 'application/json' },
      });
      if (r.statusCode !== 200) throw new Error(`${url} ${r.statusCode} ${r.body.slice(0, 200)}`);
    }
    const cpu = process.cpuUsage(cpu0);
    return Math.round(((cpu.user + cpu.system) / 1000 / requests) * 1000) / 1000;
  };
  const restMs = await measure('/v1/decisions/feasible-nodes', rest);
  const gqlMs = await measure('/graphql', gql);
  console.log(
    JSON.stringify({
      requests,
      restCpuMsPerRequest: restMs,
      graphqlCpuMsPerRequest: gqlMs,
      ratio: Math.round((restMs / gqlMs) * 100) / 100,
    }),
  );
  await app.close();
}
void main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
