/**
 * CPU per call of the pieces of a feasible-nodes request that the issue-16 levers replaced, old and new
 * side by side in one process, alternated (A B A B ...) so machine load weighs on both alike:
 *   helmet     @fastify/helmet's per-request `helmet(options)(req, res)` vs the recorded header calls
 *   utf8       the byte length of a request's label keys and values as validation counts them:
 *              TextEncoder.encode(s).length vs utf8ByteLength(s) (per request: all of one body's strings)
 *   body       feasibleNodesBodySchema.parse (zod) vs readFeasibleNodesBody, on the bench's inline pods
 *   node -r @swc-node/register bench/experiments/hot-path-parts.ts [--calls 20000] [--pairs 5]
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { helmetHeaderChanges, SECURITY_HEADERS } from '../../src/kernel/http/security';
import { feasibleNodesBodySchema, readFeasibleNodesBody } from '../../src/decisions/decision-bodies';
import { FALLBACK } from '../../src/kernel/http/input/fast-body';
import { utf8ByteLength } from '../../src/domain/validation/label-names';
import { generateInventory } from '../generate-inventory';
import { distinctPodBody, podMix } from '../scenarios';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const calls = arg('calls', 20000);

const inv = generateInventory({ nodes: 200, pods: 2000, seed: 42, drainSeconds: 30 });
const inline = podMix(inv).filter((c) => c.body.pod);
const bodies = Array.from({ length: 1000 }, (_, n) => JSON.parse(distinctPodBody(inline[n % inline.length].body, n)));
for (const b of bodies) if (readFeasibleNodesBody(b) === FALLBACK) throw new Error('a bench body falls back');

// the label keys and values validation counts in bytes (toleration keys, nodeSelector, affinity keys and values)
const labelStrings = bodies.slice(0, 100).map((b) => {
  const out: string[] = [];
  JSON.stringify(b.pod, (key, value: unknown) => {
    if (typeof value === 'string' && ['key', 'value', 'values'].includes(key)) out.push(value);
    if (key === 'nodeSelector') for (const [k, v] of Object.entries(value as object)) out.push(k, v as string);
    return value;
  });
  return out;
});
const encoder = new TextEncoder();
let sink = 0; // keeps the results alive
const response = () => new ServerResponse(new IncomingMessage(new Socket()));
const responses = Array.from({ length: 256 }, response);
const changes = helmetHeaderChanges(SECURITY_HEADERS);
const done = () => undefined;

const cases: Record<string, [() => void, () => void]> = {
  helmet: [
    () => {
      for (let n = 0; n < calls; n++) {
        const res = responses[n & 255];
        helmet(SECURITY_HEADERS)(res.req, res, done);
      }
    },
    () => {
      for (let n = 0; n < calls; n++) {
        const res = responses[n & 255];
        for (const [name, value] of changes) {
          if (value === undefined) res.removeHeader(name);
          else res.setHeader(name, value);
        }
      }
    },
  ],
  utf8: [
    () => {
      for (let n = 0; n < calls; n++)
        for (const s of labelStrings[n % labelStrings.length]) sink += encoder.encode(s).length;
    },
    () => {
      for (let n = 0; n < calls; n++) for (const s of labelStrings[n % labelStrings.length]) sink += utf8ByteLength(s);
    },
  ],
  body: [
    () => {
      for (let n = 0; n < calls; n++) feasibleNodesBodySchema.parse(bodies[n % bodies.length]);
    },
    () => {
      for (let n = 0; n < calls; n++) readFeasibleNodesBody(bodies[n % bodies.length]);
    },
  ],
};

const cpuUs = (f: () => void) => {
  const t = process.cpuUsage();
  f();
  const d = process.cpuUsage(t);
  return d.user + d.system;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out: Record<string, unknown> = { calls };
for (const [name, [before, after]] of Object.entries(cases)) {
  before();
  after(); // warm-up
  const a: number[] = [];
  const b: number[] = [];
  for (let p = 0; p < arg('pairs', 5); p++) {
    a.push(cpuUs(before) / calls);
    b.push(cpuUs(after) / calls);
  }
  out[name] = { beforeUsPerCall: Math.round(median(a) * 100) / 100, afterUsPerCall: Math.round(median(b) * 100) / 100 };
}
console.log(JSON.stringify({ ...out, sink: sink > 0 }));
