/**
 * Issue 13's re-placement line without HTTP: taint-impact with `replacement: true` for the drain taint
 * over the 500-node `search` pool (the bench's body, scenarios.ts), answered by TaintImpactService and
 * turned into the bytes the REST controller sends, over a generated inventory mapped straight into an
 * InventorySnapshot (no import, no database: the same computation both storage modes run). The bytes:
 * `taintImpactBytes(answer)` in a tree that has rest/taint-impact-bytes.ts; in an older tree the
 * controller returned `presentTaintImpact(answer)` and Fastify stringified and UTF-8 encoded it, timed
 * here as `Buffer.from(JSON.stringify(presentTaintImpact(answer)))` (Fastify also measured the text's
 * byte length for Content-Length: left out, so an older tree is timed a little short).
 *
 * Trees side by side in ONE process: `--trees before=/tmp/before,after=.` loads each tree's own modules
 * (a `git archive` of the commit before, and this work tree), builds each one's snapshot from the same
 * inventory, checks that their answers are the same text, then alternates calls (A B, B A, ...) so
 * whatever else the machine does weighs on both. Per call: CPU ms (process.cpuUsage, which the load
 * barely moves) and wall ms; printed per tree: median and max CPU, p50/p99/max wall, and the median of
 * the per-pair CPU ratios against the first tree.
 *   node --max-old-space-size=8192 -r @swc-node/register bench/experiments/re-placement.ts \
 *     --trees before=/tmp/before,after=. --nodes 5000 --pods 150000 --pairs 20
 * `--profile <file>`: a CPU profile of the alternated calls only (bench/experiments/top-functions.mjs reads it).
 * `--parts` also times the pieces of one answer (the what-if, then its bytes) for the last tree.
 * `--form lists|summary` answers the same question without re-placement: the plain lists, or the counts
 * (`summary: true`: `taintImpactSummaryJson` where the tree has it, else through `presentTaintImpactSummary`)
 * — issue 16's two taint-impact lines.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { resolve } from 'node:path';
import { generateInventory } from '../generate-inventory';
import { taintImpactBody } from '../scenarios';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Tree {
  label: string;
  /** One answer as the REST controller sends it. */
  answer(body: unknown): Buffer;
  parts(body: unknown): Record<string, number>;
}

/* eslint-disable @typescript-eslint/no-require-imports -- each tree's own modules, loaded by path */
function loadTree(label: string, dir: string, inv: ReturnType<typeof generateInventory>, now: Date): Tree {
  const root = resolve(dir);
  const { mapManifests } = require(`${root}/src/inventory/import/map-manifests`);
  const { requestsVector } = require(`${root}/src/kernel/model/pod-requests-vector`);
  const { InventorySnapshot } = require(`${root}/src/kernel/snapshot/inventory-snapshot`);
  const { TaintImpactService } = require(`${root}/src/decisions/taint-impact.service`);
  const { presentTaintImpact, presentTaintImpactSummary } = require(`${root}/src/decisions/rest/present-taint-impact`);
  const writer = `${root}/src/decisions/rest/taint-impact-bytes`;
  const bytes: (answer: unknown) => Buffer = existsSync(`${writer}.ts`)
    ? require(writer).taintImpactBytes
    : (answer) => Buffer.from(JSON.stringify(presentTaintImpact(answer)));
  /* eslint-enable @typescript-eslint/no-require-imports */
  const mapped = mapManifests([{ apiVersion: 'v1', kind: 'List', items: inv.items }], now);
  if (mapped.errors.length) throw new Error(`${label}: the importer refused ${mapped.errors.length} objects`);
  const stamp = { resourceVersion: '1', createdAt: now, updatedAt: now };
  const snapshot = new InventorySnapshot();
  snapshot.load(
    mapped.nodes.map((n: object) => ({ ...n, ...stamp })),
    mapped.pods.map((p: any) => ({ ...p, uid: p.uid ?? '', requests: requestsVector(p.resources), ...stamp })),
    mapped.budgets.map((b: any) => ({ ...b, uid: b.uid ?? '', generation: 1, ...stamp })),
  );
  snapshot.schedulingNodes();
  const service = new TaintImpactService({ snapshot }, { COMPARISON_OPERATORS: true }, { now: () => now });
  return {
    label,
    // the controller's paths: the summary's counts; JSON text from the columns where the tree has it (whole
    // lists, no re-placement); otherwise the answer's bytes
    answer: (body: any) => {
      if (body.summary)
        return service.taintImpactSummaryJson
          ? service.taintImpactSummaryJson(body)
          : Buffer.from(JSON.stringify(presentTaintImpactSummary(service.taintImpactSummary(body))));
      // JSON text in an older tree (Fastify encoded it), bytes since
      const json = service.taintImpactJson?.(body) as string | Buffer | undefined;
      if (json !== undefined) return typeof json === 'string' ? Buffer.from(json) : json;
      const columns = service.taintImpactReplacementBytes?.(body) as Buffer | undefined;
      return columns ?? bytes(service.taintImpact(body));
    },
    parts: (body) => {
      if (service.taintImpactReplacementBytes && (body as { replacement?: boolean }).replacement)
        return columnParts(root, service, body);
      const t = performance.now();
      const answer = service.taintImpact(body);
      const whatIf = performance.now() - t;
      const w = performance.now();
      const sent = bytes(answer);
      return { whatIfMs: whatIf, bytesMs: performance.now() - w, kib: sent.length / 1024 };
    },
  };
}

/**
 * The pieces of the columns path (the what-if and re-placement, pending, the bytes), CPU ms each, for a
 * tree that answers re-placement from the pod columns: the steps of
 * TaintImpactService.taintImpactReplacementBytes, called one by one.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the tree's own modules */
function columnParts(root: string, service: any, body: any): Record<string, number> {
  const { rePlaceFromColumns } = require(`${root}/src/decisions/re-placement-columns`);
  const { taintImpactReplacementBytes } = require(`${root}/src/decisions/taint-impact-replacement-bytes`);
  const { BudgetTally } = require(`${root}/src/decisions/disruption-impact`);
  /* eslint-enable @typescript-eslint/no-require-imports */
  const cpu = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  const t0 = cpu();
  const proposal = service.proposeTaints(body);
  const { snapshot } = proposal;
  const nodes = proposal.targets.map(({ node, taints }: any) => ({
    name: node.name,
    slots: snapshot.boundSlotsInNameOrder(node.name),
    taints,
  }));
  const t1 = cpu();
  const budgets = new BudgetTally(snapshot);
  const answer = rePlaceFromColumns(snapshot, nodes, proposal.after, proposal.at, service.matchOptions, budgets);
  const t2 = cpu();
  const pending = service.pendingOf(proposal);
  const t3 = cpu();
  const sent = taintImpactReplacementBytes(snapshot.podColumns(), nodes, answer, proposal.at, {
    unschedulablePending: pending.lost.map((pod: any) => ({ pod: { namespace: pod.namespace, name: pod.name } })),
    schedulablePending: pending.gained.map((pod: any) => ({ pod: { namespace: pod.namespace, name: pod.name } })),
    warnings: proposal.warnings,
    budgets: budgets.views(),
  });
  const t4 = cpu();
  return { proposeMs: t1 - t0, rePlaceMs: t2 - t1, pendingMs: t3 - t2, bytesMs: t4 - t3, kib: sent.length / 1024 };
}

function main(): void {
  const nodes = Number(arg('nodes', '5000'));
  const pods = Number(arg('pods', '150000'));
  const pairs = Number(arg('pairs', '20'));
  const now = new Date('2026-11-25T12:00:00Z');
  const inv = generateInventory({ nodes, pods, seed: 42, drainSeconds: 30, now });
  // Through JSON, as an import or the database hands the service its objects: the generator builds names
  // by concatenation (V8 keeps those as rope strings, slower to compare and read), a parsed name is flat.
  inv.items = JSON.parse(JSON.stringify(inv.items));
  const trees = arg('trees', 'tree=.')
    .split(',')
    .map((spec) => {
      const [label, dir] = spec.split('=');
      return loadTree(label, dir, inv, now);
    });
  (inv as { items?: unknown }).items = undefined;
  const form = arg('form', 'replacement');
  const body = { ...taintImpactBody(), ...(form === 'summary' ? { summary: true } : {}) };
  if (form === 'replacement') Object.assign(body, { replacement: true });
  const load0 = loadavg();

  // Same text from every tree, and a warm-up (JIT) of each.
  const answer = (t: Tree) => t.answer(body);
  const texts = trees.map(answer);
  const parsed = JSON.parse(texts[0].toString());
  for (let i = 1; i < trees.length; i++)
    if (!texts[i].equals(texts[0])) throw new Error(`${trees[i].label} answers differently from ${trees[0].label}`);
  for (let w = 0; w < 2; w++) for (const t of trees) answer(t);

  const profileTo = arg('profile', '');
  const session = profileTo ? new Session() : undefined;
  const post = (method: string) => {
    let result: any;
    session!.post(method, (e, r) => {
      if (e) throw e;
      result = r;
    });
    return result; // the inspector answers synchronously within the process
  };
  if (session) {
    session.connect();
    post('Profiler.enable');
    post('Profiler.start');
  }
  const cpu: number[][] = trees.map(() => []);
  const wall: number[][] = trees.map(() => []);
  for (let pair = 0; pair < pairs; pair++) {
    const order = pair % 2 === 0 ? trees.keys() : [...trees.keys()].reverse();
    for (const k of order) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      answer(trees[k]);
      wall[k].push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu[k].push((c.user + c.system) / 1000);
    }
  }
  if (session) writeFileSync(profileTo, JSON.stringify(post('Profiler.stop').profile));
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const at = (xs: number[], q: number) => sorted(xs)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)];
  const r = (x: number) => Math.round(x * 10) / 10;
  const out: Record<string, unknown> = {
    nodes: inv.nodeCount,
    pods: inv.podCount,
    form,
    evictions: parsed.evictions?.length ?? parsed.counts.evictNow + parsed.counts.evictAfter,
    stranded: parsed.stranded?.length,
    answerKiB: Math.round(texts[0].length / 1024),
    pairs,
    load: `${load0} → ${loadavg()}`,
  };
  trees.forEach((t, k) => {
    out[t.label] = {
      cpuMsMedian: r(at(cpu[k], 0.5)),
      cpuMsMax: r(at(cpu[k], 1)),
      wallMs: { p50: r(at(wall[k], 0.5)), p99: r(at(wall[k], 0.99)), max: r(at(wall[k], 1)) },
      ...(k > 0
        ? {
            cpuRatioMedian:
              Math.round(
                at(
                  cpu[k].map((x, i) => x / cpu[0][i]),
                  0.5,
                ) * 1000,
              ) / 1000,
          }
        : {}),
    };
  });
  if (process.argv.includes('--parts') && form !== 'summary') {
    const last = trees[trees.length - 1];
    const runs = Array.from({ length: 9 }, () => last.parts(body));
    out.parts = Object.fromEntries(
      Object.keys(runs[0]).map((key) => [
        key,
        r(
          at(
            runs.map((p) => p[key]),
            0.5,
          ),
        ),
      ]),
    );
  }
  console.log(JSON.stringify(out));
}

main();
