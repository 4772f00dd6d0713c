/**
 * `npm run bench` (scripts/bench.mjs → here). Generates the inventory, then per mode (embedded
 * PGlite + in-process timers; PostgreSQL + Redis) starts taintwise as a child process and measures:
 * import, start-up with the inventory stored, resident memory, feasible-nodes (REST and GraphQL),
 * taint-impact, a NoExecute taint over 100 dense nodes, eviction lag; then the in-process ceiling.
 * Writes bench/results/latest.json + bench/REPORT.md (or, with --quick, bench/results/quick.json +
 * bench/results/REPORT-quick.md). Exit 0 when every measurement ran, 1 when the bench broke.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureCeiling } from './ceiling';
import {
  chunkList,
  generateInventory,
  inventoryFacts,
  type GeneratedInventory,
  type InventoryFacts,
} from './generate-inventory';
import { http, listAll } from './lib/http';
import { measureKubeLists, type KubeListFigures } from './lib/kube-lists';
import { runLoadInChild, type ChildLoadRequest } from './lib/load-process';
import { runOpenLoopInChild } from './lib/open-loop-process';
import { ForeignCpuSampler } from './lib/foreign-cpu';
import { pausesAround, sweepsInWindow } from './lib/around-slowest';
import { load, machineInfo, versions } from './lib/machine';
import { compileService, REPO_ROOT, Service, settle, sleep } from './lib/service';
import { collectOwnGarbage } from './lib/own-heap';
import { watchEvictionsInChild } from './lib/eviction-stream-process';
import { summarize } from './lib/stats';
import { BenchWebhookReceiver } from './lib/webhook-receiver';
import { countDelayedJobs, createStorage, type ModeName, type Storage } from './lib/storage';
import { evaluateTargets, renderReport, type Figure, type ModeResult, type Results } from './report';
import {
  DRAIN_REMOVE_SPEC,
  DRAIN_SPEC,
  distinctPodBody,
  graphQLOperation,
  podMix,
  taintImpactBody,
  type PodCase,
} from './scenarios';
import { measureMirrorInitialSync, measureMirrorWatchLag } from './mirror';

interface Settings {
  quick: boolean;
  nodes: number;
  pods: number;
  seed: number;
  modes: ModeName[];
  durationSec: number;
  warmupSec: number;
  connections: number;
  chunkSize: number;
  drainSeconds: number;
  ceilingSec: number;
  /** The open-loop run: requests per second and seconds. */
  openRate: number;
  openDurationSec: number;
  /** Seconds the open loop runs before its measured window (the loader's own process warms up). */
  openWarmSec: number;
  /** Issue 14: watch events/s streamed to a mirror, and for how long. */
  mirrorRate: number;
  mirrorSeconds: number;
  postgresUrl: string;
  redisUrl: string;
  profile: boolean;
  /** Run the service from this folder (e.g. a copy of a known-good tree) instead of the repository. */
  serviceDir?: string;
  /** Extra settings for the service (`--service-env K=V`, repeatable): for experiments; recorded in the report. */
  serviceEnv: Record<string, string>;
  /** Run src/main.ts through swc (the development entry) instead of the compiled service. */
  fromSource: boolean;
}

function parseArgs(argv: string[]): Settings {
  const get = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    if (i >= 0 && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) return argv[i + 1];
    return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  };
  const has = (name: string) => argv.includes(`--${name}`);
  const quick = has('quick');
  const num = (name: string, fallback: number) => {
    const v = get(name);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, not ${v}`);
    return n;
  };
  const modes = (get('modes') ?? 'embedded,postgres')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  for (const m of modes)
    if (m !== 'embedded' && m !== 'postgres') throw new Error(`--modes: unknown mode ${m} (embedded, postgres)`);
  const pgBase = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  return {
    quick,
    nodes: num('nodes', quick ? 200 : 5000),
    pods: num('pods', quick ? 2000 : 150_000),
    seed: num('seed', 42),
    modes: modes as ModeName[],
    durationSec: num('duration', quick ? 2 : 20),
    warmupSec: quick ? 0.5 : 5,
    connections: num('connections', 16),
    chunkSize: num('chunk', 10_000),
    drainSeconds: num('drain-seconds', quick ? 5 : 30),
    ceilingSec: quick ? 2 : 10,
    openRate: num('rate', quick ? 200 : 1000),
    openDurationSec: num('open-duration', quick ? 5 : 60),
    openWarmSec: num('open-warm', quick ? 2 : 10),
    mirrorRate: num('mirror-rate', quick ? 200 : 1000),
    mirrorSeconds: num('mirror-seconds', quick ? 3 : 30),
    postgresUrl: get('postgres') ?? pgBase,
    redisUrl: get('redis') ?? process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    profile: has('profile'),
    fromSource: has('from-source'),
    serviceDir: get('service-dir'),
    serviceEnv: Object.fromEntries(
      argv.flatMap((a, i) =>
        a === '--service-env' && argv[i + 1]?.includes('=') ? [argv[i + 1].split(/=(.*)/s).slice(0, 2)] : [],
      ),
    ),
  };
}

const log = (msg: string) => process.stdout.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));
const fail = (e: unknown): Figure => ({ status: 'error', note: errorText(e).slice(0, 500) });
const notAvailable = (what: string, status: number): Figure => ({
  status: 'not available',
  note: `${what} answered ${status}${status === 404 ? ' (route not there yet)' : ''}`,
});

let current: { service?: Service; storage?: Storage } = {};
/** dist/main.js of the compiled service (undefined: --from-source). */
let serviceEntry: string | undefined;

async function main(): Promise<number> {
  const settings = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const results: Results = {
    version: 1,
    quick: settings.quick,
    startedAt: new Date(started).toISOString(),
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: machineInfo(),
    versions: await versions(settings.postgresUrl, settings.redisUrl),
    settings: { ...settings, postgresUrl: undefined, redisUrl: undefined },
    inventory: {},
    modes: [],
    targets: [],
    brokenBecause: [],
  };
  if (settings.serviceDir) {
    let label = 'unknown';
    try {
      label = readFileSync(join(settings.serviceDir, 'BENCH_TREE'), 'utf8').trim();
    } catch {
      // no label file
    }
    results.versions.commit = `${label} (the service ran from ${settings.serviceDir})`;
  }
  log(
    `machine: ${results.machine.nproc} CPUs, load ${results.machine.loadAverage.join('/')}; node ${results.versions.node}, PostgreSQL ${results.versions.postgresql}, Redis ${results.versions.redis}`,
  );

  let entry: string | undefined;
  if (!settings.fromSource) {
    const built = compileService(settings.serviceDir ?? REPO_ROOT);
    entry = built.entry;
    results.versions.entry = `compiled (tsconfig.build.json → ${entry}, ${Math.round(built.ms / 1000)} s${built.note ? `; ${built.note}` : ''})`;
    log(`compiled the service in ${Math.round(built.ms / 1000)} s: ${entry}${built.note ? ` (${built.note})` : ''}`);
  } else results.versions.entry = 'src/main.ts through @swc-node/register (--from-source)';
  serviceEntry = entry;

  log(`generating ${settings.nodes} nodes, ${settings.pods} pods (seed ${settings.seed})`);
  const generateObjects = () =>
    generateInventory({
      nodes: settings.nodes,
      pods: settings.pods,
      seed: settings.seed,
      drainSeconds: settings.drainSeconds,
    });
  const generate = (): ImportBatch => {
    const inv = generateObjects();
    return { inv, chunks: chunkList(inv.items, settings.chunkSize).map((c) => JSON.stringify(c)) };
  };
  // The objects and their import chunks (~340 MB at full size) are held only until a mode has imported them
  // (runMode takes them). A process holding them ran major collections on 1.5 cores for ~0.4 s a second after a
  // busy phase (seen in open-loop-stalls.ts: the service left one core, the open loop's requests queued).
  let batch: ImportBatch | undefined = generate();
  results.inventory = describeInventory(batch, settings);
  const facts = inventoryFacts(batch.inv);
  const cases = podMix(batch.inv);
  log(
    `inventory: ${facts.nodeCount} nodes, ${facts.podCount} pods, ${results.inventory.megabytes.toFixed(1)} MB in ${batch.chunks.length} chunks`,
  );

  for (const mode of settings.modes) {
    log(`=== mode ${mode}`);
    // A mode after the first imports objects generated at its start: the NotReady nodes' NoExecute taints are
    // minutes old, as in a live cluster, not overdue because an earlier mode took a while (same seed: same objects).
    const take = (): ImportBatch => {
      const taken = batch ?? generate();
      batch = undefined;
      return taken;
    };
    results.modes.push(await runMode(mode, settings, facts, cases, take));
    batch = undefined; // a mode without storage took nothing: the next generates objects of its own
  }

  log('ceiling: decideFeasibleNodes in-process');
  try {
    results.ceiling = settings.serviceDir
      ? await ceilingIn(settings)
      : { status: 'ok', ...measureCeiling(generateObjects(), cases, settings.ceilingSec) };
    log(`ceiling: ${Math.round((results.ceiling as any).opsPerSec)} ops/s`);
  } catch (e) {
    results.ceiling = fail(e);
  }

  results.targets = evaluateTargets(results.modes, results.ceiling as Figure | undefined);
  results.machine.loadAverageEnd = load();
  results.finishedAt = new Date().toISOString();
  results.durationSec = (Date.now() - started) / 1000;
  for (const m of results.modes) {
    if (m.status === 'error') results.brokenBecause.push(`${m.mode}: ${m.note}`);
    for (const [k, f] of Object.entries(m))
      if (f && typeof f === 'object' && (f as Figure).status === 'error')
        results.brokenBecause.push(`${m.mode} ${k}: ${(f as Figure).note}`);
  }
  if ((results.ceiling as Figure | undefined)?.status === 'error')
    results.brokenBecause.push(`ceiling: ${(results.ceiling as Figure).note}`);

  const resultsDir = join(REPO_ROOT, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const rerun = settings.quick
    ? 'npm run bench -- --quick'
    : 'npm run bench            # full size, both modes\nnpm run bench -- --quick # CI-sized';
  writeFileSync(
    join(resultsDir, settings.quick ? 'quick.json' : 'latest.json'),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  const report = renderReport(results, rerun);
  writeFileSync(settings.quick ? join(resultsDir, 'REPORT-quick.md') : join(REPO_ROOT, 'bench', 'REPORT.md'), report);
  log(
    `wrote ${settings.quick ? 'bench/results/quick.json, bench/results/REPORT-quick.md' : 'bench/results/latest.json, bench/REPORT.md'}`,
  );
  for (const t of results.targets)
    log(`${t.verdict.padEnd(4)} ${t.mode.padEnd(8)} ${t.label}: ${t.measured} (target ${t.target})`);
  if (results.brokenBecause.length) {
    log(`the bench broke:\n  ${results.brokenBecause.join('\n  ')}`);
    return 1;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------

async function runMode(
  mode: ModeName,
  s: Settings,
  inv: InventoryFacts,
  cases: PodCase[],
  takeObjects: () => ImportBatch,
): Promise<ModeResult> {
  const result: ModeResult = { mode, storage: '', status: 'ok', loadAverage: { start: load() } };
  let storage: Storage;
  try {
    storage = await createStorage(mode, s);
  } catch (e) {
    return { ...result, status: 'skipped', note: `no storage for this mode: ${errorText(e)}` };
  }
  result.storage = storage.describe;
  current = { storage };
  // --expose-gc + BENCH_OPS_ROUTES: the live heap after a forced full collection (POST /ops/heap) and
  // the GC pauses inside the open-loop window (GET /ops/gc-pauses). Neither changes how V8 collects.
  // --profile: a folder per service process, named with the spawn's Date.now() (to place a wall-clock moment in
  // the profile); in it Node writes one profile per thread, CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile:
  // thread 0 is the service's, thread 1 embedded PGlite's (one name for all would keep only the last written).
  const profileArgs = (tag: string) => [
    '--expose-gc',
    ...(s.profile
      ? [
          '--cpu-prof',
          '--cpu-prof-dir',
          join(REPO_ROOT, 'bench', 'results', 'profiles', `${mode}-${tag}-${Date.now()}`),
        ]
      : []),
  ];
  // WEBHOOK_ALLOW_PRIVATE: the webhook scenario's receiver listens on loopback.
  const env = { BENCH_OPS_ROUTES: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', ...s.serviceEnv, ...storage.env };
  let service: Service | undefined;
  try {
    // 1. Cold start on empty storage, then the import.
    const cold = await Service.start({
      cwd: s.serviceDir,
      entry: serviceEntry,
      env,
      logLevel: 'warn',
      nodeArgs: profileArgs('import'),
    });
    service = current.service = cold.service;
    result.coldStart = { status: 'ok', readyMs: cold.readyMs };
    log(`${mode}: cold start ${Math.round(cold.readyMs)} ms; importing`);
    result.import = await measureImport(service, takeObjects());
    result.loadAverage.import = load();
    log(
      `${mode}: import ${result.import.status} ${result.import.objectsPerSec ? `${Math.round(result.import.objectsPerSec)} objects/s` : (result.import.note ?? '')}`,
    );
    if (result.import.status !== 'ok' && !result.import.loaded)
      throw new Error(`the inventory could not be loaded: ${result.import.note}`);
    await service.stop();
    // The imported objects are garbage now: collected here, not by V8's memory reducer during a measurement.
    const ownGcMs = await collectOwnGarbage();
    log(`${mode}: the bench's own heap collected after the import (${Math.round(ownGcMs)} ms)`);

    // 2. Start-up with the inventory stored (info: the `snapshot loaded` line), then once more at warn for the
    // measurements.
    const restarted = await Service.start({
      cwd: s.serviceDir,
      entry: serviceEntry,
      env,
      logLevel: 'info',
      nodeArgs: profileArgs('startup').slice(0, 1),
    });
    service = current.service = restarted.service;
    const loaded = service.logLine('snapshot loaded');
    const startup: Figure = {
      status: 'ok',
      readyMs: restarted.readyMs,
      snapshotLoadedMs: loaded?.ms,
      snapshotNodes: loaded?.nodes,
      snapshotPods: loaded?.pods,
      listeningStartupMs: service.logLine('taintwise listening')?.startupMs,
    };
    if (!s.quick) {
      // --quick keeps the info-level child to save a restart.
      await service.stop();
      const warm = await Service.start({
        cwd: s.serviceDir,
        entry: serviceEntry,
        env,
        logLevel: 'warn',
        nodeArgs: profileArgs('serve'),
      });
      service = current.service = warm.service;
      startup.readyMsWarn = warm.readyMs;
    }
    result.startup = startup;
    result.loadAverage.startup = load();
    const rssIdle = service.memory();
    result.heapIdle = await measureHeap(service);
    log(
      `${mode}: start-up ${Math.round(restarted.readyMs)} ms (snapshot loaded ${loaded?.ms ?? '?'} ms, ${loaded?.nodes ?? '?'} nodes, ${loaded?.pods ?? '?'} pods), RSS ${Math.round(rssIdle.rssMiB)} MiB`,
    );

    // 3. Reads. A service that dies mid-run fails the mode with its last words (stderr, log).
    const alive = (f: Figure): Figure => {
      if (service!.exitCode === undefined) return f;
      throw new Error(
        `the service exited with ${service!.exitCode}${service!.exitSignal ? ` (signal ${service!.exitSignal}, not sent by the bench)` : ''} during the measurements (${f.status}: ${f.note ?? ''})\nstderr:\n${service!.stderr.join('').slice(-4000)}${service!.logTail()}`,
      );
    };
    await settle(service.url);
    result.feasibleRest = alive(await measureFeasibleRest(service, s, cases, inv));
    result.loadAverage.feasibleRest = load();
    log(`${mode}: feasible-nodes REST ${describeLoad(result.feasibleRest)}`);
    await settle(service.url);
    result.feasibleRestDistinct = alive(await measureFeasibleRestDistinct(service, s, cases));
    result.loadAverage.feasibleRestDistinct = load();
    log(`${mode}: feasible-nodes REST, every request distinct ${describeLoad(result.feasibleRestDistinct)}`);
    await settle(service.url);
    result.feasibleGraphql = alive(await measureFeasibleGraphql(service, s, cases));
    result.loadAverage.feasibleGraphql = load();
    log(`${mode}: feasible-nodes GraphQL ${describeLoad(result.feasibleGraphql)}`);
    await settle(service.url);
    result.feasibleGraphqlDistinct = alive(await measureFeasibleGraphql(service, s, cases, true));
    log(`${mode}: feasible-nodes GraphQL, every request distinct ${describeLoad(result.feasibleGraphqlDistinct)}`);
    await settle(service.url);
    result.openLoop = alive(await measureOpenLoop(service, s, cases));
    result.loadAverage.openLoop = load();
    log(`${mode}: open loop ${describeOpenLoop(result.openLoop)}`);
    await settle(service.url);
    result.taintImpact = alive(await measureTaintImpact(service, s, inv, 1));
    await settle(service.url);
    result.taintImpactSummary = alive(await measureTaintImpact(service, s, inv, 1, { summary: true }));
    await settle(service.url);
    result.taintImpactReplacement = alive(await measureTaintImpact(service, s, inv, 1, { replacement: true }));
    log(`${mode}: taint-impact with re-placement ${describeLoad(result.taintImpactReplacement)}`);
    if (!s.quick) await settle(service.url);
    result.taintImpactC16 = s.quick
      ? { status: 'skipped', note: 'not in --quick' }
      : await measureTaintImpact(service, s, inv, s.connections);
    result.loadAverage.taintImpact = load();
    log(
      `${mode}: taint-impact ${describeLoad(result.taintImpact)} | c16 ${describeLoad(result.taintImpactC16)} | summary ${describeLoad(result.taintImpactSummary)}`,
    );
    await settle(service.url);
    result.kubeLists = alive(await measureKubeListsFigure(service, inv));
    const lists = result.kubeLists as Figure & Partial<KubeListFigures>;
    log(
      `${mode}: Kubernetes API lists ${lists.nodeList && lists.podsAll ? `node list ${Math.round(lists.nodeList.ms)} ms, kubectl get pods -A ${(lists.podsAll.ms / 1000).toFixed(1)} s (${lists.podsAll.rows} pods, ${lists.podsAll.client})` : lists.note}`,
    );
    const afterReads = service.memory();
    result.heap = await measureHeap(service);
    log(
      `${mode}: heap after a full collection ${result.heap.status === 'ok' ? `${Math.round(result.heap.usedMiB)} MiB, the collection took ${Math.round(result.heap.gcMs)} ms` : result.heap.note}`,
    );
    result.memory = {
      status: 'ok',
      rssMiB: afterReads.rssMiB,
      rssIdleMiB: rssIdle.rssMiB,
      peakMiB: afterReads.peakMiB,
      importPeakMiB: result.import.peakMiB,
    };

    // 3b. Issue 14: a mirror of this service (its whole inventory through the Kubernetes API), then watch lag.
    const mirrorSettings = {
      postgresUrl: s.postgresUrl,
      redisUrl: s.redisUrl,
      serviceDir: s.serviceDir ?? REPO_ROOT,
      serviceEntry,
      watchRate: s.mirrorRate,
      watchSeconds: s.mirrorSeconds,
    };
    result.mirrorSync = alive(
      await measureMirrorInitialSync(mode, service, mirrorSettings, { nodes: inv.nodeCount, pods: inv.podCount }),
    );
    log(
      `${mode}: mirror initial sync ${result.mirrorSync.status} ${result.mirrorSync.readyMs !== undefined ? `${Math.round(result.mirrorSync.readyMs)} ms to ready (sync ${result.mirrorSync.syncSeconds} s, ${result.mirrorSync.nodes} nodes, ${result.mirrorSync.pods} pods)` : (result.mirrorSync.note ?? '')}`,
    );
    result.mirrorWatch = await measureMirrorWatchLag(mode, mirrorSettings);
    result.loadAverage.mirror = load();
    log(
      `${mode}: mirror watch ${result.mirrorWatch.status} ${result.mirrorWatch.lagMs ? `${result.mirrorWatch.applied}/${result.mirrorWatch.sent} events in ${result.mirrorWatch.transactions} transactions, lag p50 ${Math.round(result.mirrorWatch.lagMs.p50)} ms p99 ${Math.round(result.mirrorWatch.lagMs.p99)} ms` : (result.mirrorWatch.note ?? '')}`,
    );

    // 4. Writes: the 11,000-eviction taint, then eviction lag.
    await settle(service.url);
    result.taintCommit = alive(await measureTaintCommit(service, storage, s, inv));
    result.loadAverage.taintCommit = load();
    result.budgetStatus = alive(await measureBudgetStatus(service));
    log(
      `${mode}: budget status after the taint: ${result.budgetStatus.ms !== undefined ? `${Math.round(result.budgetStatus.ms)} ms for ${result.budgetStatus.budgets} budgets` : result.budgetStatus.note}`,
    );
    log(
      `${mode}: taint commit ${result.taintCommit.status} ${result.taintCommit.ms !== undefined ? `${Math.round(result.taintCommit.ms)} ms` : (result.taintCommit.note ?? '')}`,
    );
    // 4b. Webhooks (issue 15): the same NoExecute taint again, its events delivered to one receiver, then
    // removed again before its evictions fall due (so they do not disturb the eviction lag).
    await settle(service.url);
    result.webhookLag = alive(await measureWebhookLag(service, inv, result.taintCommit));
    result.loadAverage.webhookLag = load();
    log(
      `${mode}: webhook lag ${result.webhookLag.status} ${result.webhookLag.lagMs ? `${result.webhookLag.delivered}/${result.webhookLag.events} delivered, first ${Math.round(result.webhookLag.firstMs)} ms, p50 ${Math.round(result.webhookLag.lagMs.p50)} ms p99 ${Math.round(result.webhookLag.lagMs.p99)} ms, last ${Math.round(result.webhookLag.lagMs.max)} ms after the answer; commit ${Math.round(result.webhookLag.commitMs)} ms (${Math.round(result.webhookLag.baselineCommitMs ?? NaN)} ms without a webhook)` : (result.webhookLag.note ?? '')}`,
    );
    await settle(service.url);
    result.evictionLag = alive(await measureEvictionLag(service, s, inv));
    result.loadAverage.evictionLag = load();
    log(
      `${mode}: eviction lag ${result.evictionLag.status} ${result.evictionLag.lagMs ? `p50 ${Math.round(result.evictionLag.lagMs.p50)} ms p99 ${Math.round(result.evictionLag.lagMs.p99)} ms` : (result.evictionLag.note ?? '')}`,
    );
    const end = service.memory();
    Object.assign(result.memory, { rssEndMiB: end.rssMiB, peakMiB: end.peakMiB });
    await service.stop();
    if (service.exitCode !== 0) result.note = `the service exited with ${service.exitCode} on SIGTERM`;
  } catch (e) {
    result.status = 'error';
    result.note = errorText(e).slice(0, 6000);
    log(`${mode}: ${result.note}`);
  } finally {
    service?.kill();
    await storage.cleanup();
    current = {};
  }
  return result;
}

function describeOpenLoop(f: Figure): string {
  if (f.status !== 'ok') return `${f.status}${f.note ? ` (${f.note})` : ''}`;
  const l = f.latencyMs;
  return `${Math.round(f.achievedRate)}/${f.ratePerSec} req/s: p50 ${l.p50.toFixed(1)} p99 ${l.p99.toFixed(1)} p99.9 ${l.p999.toFixed(1)} max ${l.max.toFixed(1)} ms; ${f.errors} errors, ${f.non2xx} non-2xx; GC longest ${f.gc?.longestMs?.toFixed(1) ?? '?'} ms, ${f.gc?.over20ms ?? '?'} over 20 ms`;
}

function describeLoad(f: Figure): string {
  if (f.status !== 'ok') return `${f.status}${f.note ? ` (${f.note})` : ''}`;
  return `p50 ${f.latencyMs.p50.toFixed(1)} ms p99 ${f.latencyMs.p99.toFixed(1)} ms ${Math.round(f.rps)} req/s (${f.non2xx} non-2xx)`;
}

// ---------------------------------------------------------------------------------------------
// Import

/** A generated inventory and its import chunks. */
interface ImportBatch {
  inv: GeneratedInventory;
  chunks: string[];
}

function describeInventory({ inv, chunks }: ImportBatch, settings: Settings) {
  const taintSets = new Set(
    inv.items
      .filter((i) => i.kind === 'Node')
      .map((n) => JSON.stringify((n.spec.taints ?? []).map((t: any) => [t.key, t.value ?? '', t.effect]))),
  );
  return {
    seed: settings.seed,
    nodes: inv.nodeCount,
    pods: inv.podCount,
    pending: inv.items.filter((i) => i.kind === 'Pod' && !i.spec.nodeName).length,
    megabytes: chunks.reduce((s, c) => s + Buffer.byteLength(c), 0) / 1e6,
    chunkSize: settings.chunkSize,
    chunks: chunks.length,
    distinctTaintSets: taintSets.size,
    pools: Object.fromEntries(Object.entries(inv.pools).map(([k, v]) => [k, v.length])),
    podsBy: inv.podsBy,
    dense: inv.dense,
    drainSeconds: settings.drainSeconds,
  };
}

async function measureImport(service: Service, { chunks, inv }: ImportBatch): Promise<Figure> {
  const chunkMs: number[] = [];
  let itemErrors = 0;
  const started = performance.now();
  for (let i = 0; i < chunks.length; i++) {
    const answer = await http(service.url, 'POST', '/v1/import', chunks[i]);
    if (answer.status === 404 && i === 0) {
      const fallback = await loadThroughPut(service, inv);
      return {
        ...notAvailable('POST /v1/import', 404),
        loaded: fallback.ok,
        note: `POST /v1/import answered 404 (route not there yet); loaded through PUT /v1/nodes and PUT pods instead: ${fallback.note}`,
      };
    }
    if (answer.status >= 300)
      return {
        status: 'error',
        note: `chunk ${i + 1}/${chunks.length} answered ${answer.status}: ${answer.text.slice(0, 400)}`,
      };
    chunkMs.push(answer.ms);
    const errors = answer.body?.errors;
    if (Array.isArray(errors)) itemErrors += errors.length;
    if (Array.isArray(errors) && errors.length && i === 0)
      log(`import: first item error: ${JSON.stringify(errors[0])}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const objects = inv.nodeCount + inv.podCount;
  return {
    status: 'ok',
    loaded: true,
    objects,
    chunks: chunks.length,
    seconds,
    objectsPerSec: objects / seconds,
    chunkMs: summarize(chunkMs),
    itemErrors,
    peakMiB: service.memory().peakMiB,
  };
}

/** While POST /v1/import is missing: the same objects through the PUT routes (8 at a time). */
async function loadThroughPut(service: Service, inv: GeneratedInventory): Promise<{ ok: boolean; note: string }> {
  const { mapManifests } = await import('../src/inventory/import');
  const mapped = mapManifests([{ apiVersion: 'v1', kind: 'List', items: inv.items }], new Date());
  const jobs: Array<() => Promise<number>> = [
    ...mapped.nodes.map(
      (n) => async () => (await http(service.url, 'PUT', `/v1/nodes/${encodeURIComponent(n.name)}`, n)).status,
    ),
    ...mapped.pods.map(
      (p) => async () =>
        (await http(service.url, 'PUT', `/v1/namespaces/${p.namespace}/pods/${encodeURIComponent(p.name)}`, p)).status,
    ),
  ];
  const started = performance.now();
  let failed = 0;
  let firstFailure = '';
  let next = 0;
  const nodeJobs = mapped.nodes.length;
  const worker = async (limit: number) => {
    while (next < limit) {
      const job = jobs[next++];
      const status = await job();
      if (status >= 300) {
        failed++;
        firstFailure ||= String(status);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, () => worker(nodeJobs)));
  await Promise.all(Array.from({ length: 8 }, () => worker(jobs.length)));
  const sec = (performance.now() - started) / 1000;
  return {
    ok: failed < jobs.length / 10,
    note: `${jobs.length} objects in ${sec.toFixed(1)} s (${Math.round(jobs.length / sec)} objects/s), ${failed} failed${firstFailure ? ` (first ${firstFailure})` : ''}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Reads

async function measureFeasibleRest(
  service: Service,
  s: Settings,
  cases: PodCase[],
  inv: InventoryFacts,
): Promise<Figure> {
  try {
    const usable: PodCase[] = [];
    let totalNodes: number | undefined;
    const rejected: string[] = [];
    for (const c of cases) {
      const probe = await http(service.url, 'POST', '/v1/decisions/feasible-nodes', c.body);
      if (probe.status === 404 && probe.body?.detail === undefined)
        return notAvailable('POST /v1/decisions/feasible-nodes', 404);
      if (probe.status === 404 && usable.length === 0 && c === cases[0])
        return notAvailable('POST /v1/decisions/feasible-nodes', 404);
      if (probe.status !== 200) {
        rejected.push(`${c.name}: ${probe.status} ${probe.text.slice(0, 200)}`);
        continue;
      }
      if (probe.body.totalNodes !== inv.nodeCount)
        rejected.push(`${c.name}: totalNodes ${probe.body.totalNodes} ≠ ${inv.nodeCount}`);
      totalNodes = probe.body.totalNodes;
      usable.push(c);
    }
    if (usable.length === 0)
      return { status: 'error', note: `every pod of the mix was refused: ${rejected.join('; ')}` };
    const requests: ChildLoadRequest[] = usable.map((c) => ({
      method: 'POST',
      path: '/v1/decisions/feasible-nodes',
      body: JSON.stringify(c.body),
    }));
    const r = await runLoadInChild(
      {
        url: service.url,
        requests,
        tag: 'mix',
        connections: s.connections,
        durationSec: s.durationSec,
        warmupSec: s.warmupSec,
      },
      () => service.cpuSeconds(),
    );
    return {
      status: 'ok',
      ...r,
      cases: usable.length,
      totalNodes,
      ...(rejected.length ? { note: `left out of the mix: ${rejected.join('; ')}` } : {}),
    };
  } catch (e) {
    return fail(e);
  }
}

/**
 * The same inline pods, each request made distinct (scenarios.ts `distinctPodBody`), so none is answered
 * from the service's answer cache. Stored-pod (`podRef`) cases are left out: their body cannot vary
 * without changing the question.
 */
async function measureFeasibleRestDistinct(service: Service, s: Settings, cases: PodCase[]): Promise<Figure> {
  try {
    const inline = cases.filter((c) => c.body.pod);
    for (const c of inline) {
      const probe = await http(
        service.url,
        'POST',
        '/v1/decisions/feasible-nodes',
        JSON.parse(distinctPodBody(c.body, -1)),
      );
      const plain = await http(service.url, 'POST', '/v1/decisions/feasible-nodes', c.body);
      if (probe.status !== 200)
        return { status: 'error', note: `${c.name}: ${probe.status} ${probe.text.slice(0, 200)}` };
      if (probe.text !== plain.text)
        return { status: 'error', note: `${c.name}: the distinct body changed the answer` };
    }
    const requests: ChildLoadRequest[] = inline.map((c) => ({
      method: 'POST',
      path: '/v1/decisions/feasible-nodes',
      distinctFrom: c.body,
    }));
    const r = await runLoadInChild(
      {
        url: service.url,
        requests,
        tag: 'distinct',
        connections: s.connections,
        durationSec: s.durationSec,
        warmupSec: s.warmupSec,
      },
      () => service.cpuSeconds(),
    );
    return { status: 'ok', ...r, cases: inline.length };
  } catch (e) {
    return fail(e);
  }
}

/**
 * feasibleNodes over GraphQL, c=16: the mix repeated (answered from the answer cache from its third asking, as
 * REST's repeated mix is from the decision cache), or with `distinct` the mix's inline pods made distinct per
 * request as the REST distinct run does (neither side answers from a cache).
 */
async function measureFeasibleGraphql(
  service: Service,
  s: Settings,
  cases: PodCase[],
  distinct = false,
): Promise<Figure> {
  try {
    const post = async (body: unknown) => (await http(service.url, 'POST', '/graphql', body)).body;
    const op = await graphQLOperation(post, 'feasibleNodes');
    if (!op) return { status: 'not available', note: 'no Query.feasibleNodes in the GraphQL schema yet' };
    const usable: Array<{ body: Record<string, any>; from: Record<string, any> }> = [];
    const rejected: string[] = [];
    const asked = distinct ? cases.filter((c) => c.body.pod) : cases;
    for (const c of asked) {
      const body = { query: op.query, variables: op.variables(c.body) };
      const probe = await http(service.url, 'POST', '/graphql', body);
      const data = probe.body?.data?.[op.field];
      if (probe.status !== 200 || !data || probe.body?.errors) {
        rejected.push(`${c.name}: ${probe.status} ${JSON.stringify(probe.body?.errors ?? probe.text).slice(0, 300)}`);
        continue;
      }
      usable.push({ body, from: c.body });
    }
    if (usable.length === 0)
      return { status: 'error', note: `every pod of the mix was refused: ${rejected.join('; ')}` };
    const requests: ChildLoadRequest[] = usable.map(({ body, from }) =>
      distinct
        ? {
            method: 'POST',
            path: '/graphql',
            distinctFrom: from,
            distinctGraphql: { query: op.query, shape: op.shape },
          }
        : { method: 'POST', path: '/graphql', body: JSON.stringify(body) },
    );
    const r = await runLoadInChild(
      {
        url: service.url,
        requests,
        tag: distinct ? 'graphql-distinct' : 'graphql',
        connections: s.connections,
        durationSec: s.durationSec,
        warmupSec: s.warmupSec,
      },
      () => service.cpuSeconds(),
    );
    return {
      status: 'ok',
      ...r,
      cases: usable.length,
      ...(rejected.length ? { note: `left out of the mix: ${rejected.join('; ')}` } : {}),
    };
  } catch (e) {
    return fail(e);
  }
}

/**
 * The open loop (lib/open-loop.ts): the inline pods of the mix round-robin, each request distinct, at a
 * fixed rate; then the service's GC pauses inside the window (GET /ops/gc-pauses).
 */
async function measureOpenLoop(service: Service, s: Settings, cases: PodCase[]): Promise<Figure> {
  try {
    const inline = cases.filter((c) => c.body.pod);
    // The loader runs in a process of its own that holds only its requests: this process keeps the
    // generated inventory, and its collections stopped the loader (lib/open-loop-process.ts says more).
    let cpuBefore = service.cpuSeconds();
    // what the rest of the machine takes meanwhile, from the end of the warm-up (lib/foreign-cpu.ts)
    let others: ForeignCpuSampler | undefined;
    const r = await runOpenLoopInChild(
      {
        url: service.url,
        path: '/v1/decisions/feasible-nodes',
        bodies: inline.map((c) => c.body),
        tag: 'open',
        ratePerSec: s.openRate,
        durationSec: s.openDurationSec,
        warmSec: s.openWarmSec,
      },
      () => {
        cpuBefore = service.cpuSeconds();
        others = new ForeignCpuSampler();
      },
    );
    const cpuMs = (service.cpuSeconds() - cpuBefore) * 1000;
    const foreign = others?.stop();
    const figure: Figure = {
      status: 'ok',
      ...r,
      // the other processes' CPU over the window, and from 300 ms before the slowest request left to its answer
      foreignCpu: foreign && {
        ...foreign,
        aroundMax: others!.during(r.maxAt - 300, r.maxAt + r.latencyMs.max),
      },
      cases: inline.length,
      warmSec: s.openWarmSec,
      serverCpuMsPerRequest: r.ok ? cpuMs / r.ok : undefined,
    };
    const pauses = await http(service.url, 'GET', `/ops/gc-pauses?since=${r.windowStart}`);
    if (pauses.status === 200) {
      const inside: Array<{ at: number; ms: number; kind: string; reasons?: string[] }> = pauses.body.pauses.filter(
        (p: { at: number }) => p.at <= r.windowEnd,
      );
      // why V8 ran each major collection ('ordinary': its heap limit, no flag), e.g. external memory pressure
      const majorReasons: Record<string, number> = {};
      for (const p of inside)
        if (p.kind === 'major')
          for (const reason of p.reasons ?? ['ordinary']) majorReasons[reason] = (majorReasons[reason] ?? 0) + 1;
      const longest = inside.reduce((m, p) => (p.ms > m.ms ? p : m), { at: 0, ms: 0, kind: '—' });
      const byKind: Record<string, { count: number; totalMs: number; maxMs: number }> = {};
      for (const p of inside) {
        const k = (byKind[p.kind] ??= { count: 0, totalMs: 0, maxMs: 0 });
        k.count++;
        k.totalMs += p.ms;
        k.maxMs = Math.max(k.maxMs, p.ms);
      }
      figure.gc = {
        count: inside.length,
        longestMs: longest.ms,
        longestKind: longest.kind,
        over20ms: inside.filter((p) => p.ms > 20).length,
        totalMs: inside.reduce((t, p) => t + p.ms, 0),
        byKind,
        majorReasons,
      };
      figure.gcAroundMax = pausesAround(inside, r.maxAt - 300, r.maxAt + r.latencyMs.max);
    } else figure.gcNote = `GET /ops/gc-pauses answered ${pauses.status} (a service without the bench routes)`;
    figure.sweeps = await sweepsInWindow(service.url, r.windowStart, r.windowEnd, r.maxAt).catch((e: unknown) => ({
      note: errorText(e),
    }));
    if (r.errors || r.non2xx)
      figure.note = `${r.errors} errors, ${r.non2xx} non-2xx (${JSON.stringify(r.statusCodes)})`;
    return figure;
  } catch (e) {
    return fail(e);
  }
}

/** POST /ops/heap: a forced full collection (timed), then V8's heap statistics. */
async function measureHeap(service: Service): Promise<Figure> {
  try {
    const answer = await http(service.url, 'POST', '/ops/heap');
    if (answer.status !== 200) return notAvailable('POST /ops/heap', answer.status);
    if (!answer.body.collected) return { status: 'not available', note: 'the service runs without --expose-gc' };
    const h = answer.body.heap;
    return {
      status: 'ok',
      gcMs: answer.body.gcMs,
      usedMiB: h.used_heap_size / 2 ** 20,
      totalMiB: h.total_heap_size / 2 ** 20,
      externalMiB: h.external_memory / 2 ** 20,
      rssMiB: service.memory().rssMiB,
    };
  } catch (e) {
    return fail(e);
  }
}

async function measureTaintImpact(
  service: Service,
  s: Settings,
  inv: InventoryFacts,
  connections: number,
  extra: Record<string, unknown> = {},
): Promise<Figure> {
  try {
    const body = { ...taintImpactBody(), ...extra };
    const probe = await http(service.url, 'POST', '/v1/decisions/taint-impact', body);
    if (probe.status === 404) return notAvailable('POST /v1/decisions/taint-impact', 404);
    if (probe.status !== 200)
      return extra.summary && probe.status === 400
        ? notAvailable('taint-impact with summary: true', 400)
        : { status: 'error', note: `answered ${probe.status}: ${probe.text.slice(0, 300)}` };
    const counts = probe.body.counts;
    const evictions = counts ? counts.evictNow + counts.evictAfter : probe.body.evictions?.length;
    const tolerating = counts ? counts.tolerating : probe.body.tolerating?.length;
    const r = await runLoadInChild(
      {
        url: service.url,
        requests: [{ method: 'POST', path: '/v1/decisions/taint-impact', body: JSON.stringify(body) }],
        tag: 'taint-impact',
        connections,
        durationSec: s.durationSec,
        warmupSec: s.warmupSec,
      },
      () => service.cpuSeconds(),
    );
    return { status: 'ok', ...r, poolNodes: inv.pools.search.length, evictions, tolerating, firstAnswerMs: probe.ms };
  } catch (e) {
    return fail(e);
  }
}

/** The first list of every budget after a change: every status is derived again from the snapshot. */
/** Issue 12: the full node list and `kubectl get pods -A` through the Kubernetes API. */
async function measureKubeListsFigure(service: Service, inv: InventoryFacts): Promise<Figure> {
  try {
    return { status: 'ok', ...(await measureKubeLists(service.url, inv.podCount)) };
  } catch (e) {
    return fail(e);
  }
}

async function measureBudgetStatus(service: Service): Promise<Figure> {
  try {
    const r = await http(service.url, 'GET', '/v1/poddisruptionbudgets?limit=5000');
    if (r.status === 404) return notAvailable('GET /v1/poddisruptionbudgets', 404);
    if (r.status !== 200) return { status: 'error', note: `answered ${r.status}: ${r.text.slice(0, 300)}` };
    const items = r.body.items as Array<{ status: { expectedPods: number } }>;
    return {
      status: 'ok',
      ms: r.ms,
      budgets: items.length,
      selectingPods: items.filter((b) => b.status.expectedPods > 0).length,
    };
  } catch (e) {
    return fail(e);
  }
}

// ---------------------------------------------------------------------------------------------
// Writes

async function evictionsOn(
  service: Service,
  status: string,
  nodes: Set<string>,
): Promise<{ status: number; items: any[] }> {
  const all = await listAll(service.url, `/v1/evictions?status=${status}`);
  return { status: all.status, items: all.items.filter((e) => nodes.has(e.node ?? e.nodeName)) };
}

async function measureTaintCommit(
  service: Service,
  storage: Storage,
  s: Settings,
  inv: InventoryFacts,
): Promise<Figure> {
  try {
    const names = inv.pools['batch-a'];
    const nodes = new Set(names);
    const answer = await http(service.url, 'POST', '/v1/taints', { nodes: names, taints: [DRAIN_SPEC] });
    if (answer.status === 404) return notAvailable('POST /v1/taints', 404);
    if (answer.status !== 200)
      return { status: 'error', note: `answered ${answer.status}: ${answer.text.slice(0, 400)}` };
    const committedAt = performance.now();
    const figure: Figure = {
      status: 'ok',
      ms: answer.ms,
      nodes: names.length,
      evictions: answer.body.evictions,
      expectedEvictions: names.length * 110,
    };
    // Timers armed: Redis delayed jobs (postgres mode), polled until they reach the scheduled count.
    const expectedScheduled = answer.body.evictions?.scheduled ?? inv.dense.toleratingPerNode * names.length;
    if (storage.redisPrefix) {
      let armed = { delayed: 0, waiting: 0, active: 0 };
      const deadline = committedAt + 15_000;
      while (performance.now() < deadline) {
        armed = await countDelayedJobs(s.redisUrl, storage.redisPrefix);
        if (armed.delayed + armed.waiting + armed.active >= expectedScheduled) break;
        await sleep(50);
      }
      figure.timersArmed = armed.delayed + armed.waiting + armed.active;
      figure.timerStates = armed;
      if (figure.timersArmed >= expectedScheduled) figure.timersArmedMs = performance.now() - committedAt;
      figure.timersNote =
        'BullMQ jobs under the prefix: delayed + waiting (already due) + active; other scheduled evictions of the inventory included';
    }
    const scheduled = await evictionsOn(service, 'Scheduled', nodes);
    if (scheduled.status === 404) figure.scheduledRows = 'not available (GET /v1/evictions 404)';
    else if (scheduled.status !== 200) figure.scheduledRows = `GET /v1/evictions answered ${scheduled.status}`;
    else figure.scheduledRows = scheduled.items.length;
    // Remove the taint again before its evictions fall due (cancels the scheduled ones).
    const untaint = await http(service.url, 'POST', '/v1/taints', { nodes: names, taints: [DRAIN_REMOVE_SPEC] });
    if (untaint.status === 200) {
      figure.untaintMs = untaint.ms;
      figure.untaintCancelled = untaint.body.evictions?.cancelled;
      figure.untaintBeforeDue = (performance.now() - committedAt) / 1000 < s.drainSeconds;
    } else figure.untaintNote = `removing the taint answered ${untaint.status}: ${untaint.text.slice(0, 200)}`;
    return figure;
  } catch (e) {
    return fail(e);
  }
}

async function measureEvictionLag(service: Service, s: Settings, inv: InventoryFacts): Promise<Figure> {
  try {
    const names = inv.pools['batch-b'];
    const nodes = new Set(names);
    const answer = await http(service.url, 'POST', '/v1/taints', { nodes: names, taints: [DRAIN_SPEC] });
    if (answer.status === 404) return notAvailable('POST /v1/taints', 404);
    if (answer.status !== 200)
      return { status: 'error', note: `POST /v1/taints answered ${answer.status}: ${answer.text.slice(0, 400)}` };
    const expected: number = answer.body.evictions?.scheduled ?? inv.dense.toleratingPerNode * names.length;
    const committedAt = Date.now();
    const dueAt = committedAt + s.drainSeconds * 1000;
    // What a platform listening to the live stream sees: each EvictionExecuted event is published
    // after its transaction commits, so its arrival is when the eviction became real. (executedAt,
    // below, is the instant the sweep decided: its transaction's start.) The watcher is a process of
    // its own (lib/eviction-stream-process.ts), and the service is asked for nothing else until every
    // event arrived: the paged list of Executed evictions below, read during the sweep, was work the
    // service did between the sweep's batches.
    const stream = watchEvictionsInChild(service.url, nodes);
    await sleep(Math.max(0, dueAt - Date.now()));
    const seen = await stream.stop(expected, 120_000);
    const deadline = Date.now() + 120_000;
    let lags: number[] = [];
    let afterCommit: number[] = [];
    let executed = 0;
    for (;;) {
      const list = await evictionsOn(service, 'Executed', nodes);
      if (list.status === 404) return notAvailable('GET /v1/evictions', 404);
      if (list.status !== 200) return { status: 'error', note: `GET /v1/evictions answered ${list.status}` };
      // The scheduled ones: evictAt tolerationSeconds after the taint, not the immediate evictions.
      const timed = list.items.filter(
        (e) =>
          e.executedAt && e.evictAt && Date.parse(e.evictAt) - Date.parse(e.createdAt) > (s.drainSeconds * 1000) / 2,
      );
      executed = timed.length;
      lags = timed.map((e) => Date.parse(e.executedAt) - Date.parse(e.evictAt));
      afterCommit = timed.map((e) => Date.parse(e.executedAt) - Math.max(Date.parse(e.evictAt), committedAt));
      if (executed >= expected || Date.now() > deadline) break;
      await sleep(1000);
    }
    const figure: Figure = {
      status: 'ok',
      expected,
      executed,
      commitMs: answer.ms,
      drainSeconds: s.drainSeconds,
      immediate: answer.body.evictions?.immediate,
      lagMs: summarize(lags),
      lagAfterCommitMs: summarize(afterCommit),
      ...(seen.length
        ? { observedLagMs: summarize(seen), observed: seen.length }
        : { observedNote: stream.error ?? 'no EvictionExecuted event arrived on GET /v1/events' }),
    };
    if (executed < expected)
      figure.note = `${expected - executed} of ${expected} had not executed 120 s after they were due`;
    if (executed === 0)
      return {
        ...figure,
        status: 'error',
        note: `none of the ${expected} scheduled evictions executed within 120 s of being due`,
      };
    return figure;
  } catch (e) {
    return fail(e);
  }
}

/**
 * Issue 15's bench: one healthy receiver on loopback subscribed to every event type, then the
 * NoExecute taint on `batch-a` again (the taint-commit step removed it): its ~10,000 EvictionScheduled
 * events (plus the per-node ones) are outbox rows written in the taint's transaction. Measured: the
 * taint's own answer time (against the same taint's answer without a subscription, taint-commit),
 * and per message its arrival − the answer (the commit), over every event the taint committed
 * (counted in the audit log by the request id the bench sends).
 */
async function measureWebhookLag(service: Service, inv: InventoryFacts, baseline?: Figure): Promise<Figure> {
  const receiver = await new BenchWebhookReceiver().start();
  let hookId: string | undefined;
  try {
    const hook = await http(service.url, 'POST', '/v1/webhooks', { url: receiver.url, description: 'bench' });
    if (hook.status === 404) return notAvailable('POST /v1/webhooks', 404);
    if (hook.status !== 201)
      return { status: 'error', note: `POST /v1/webhooks answered ${hook.status}: ${hook.text}` };
    hookId = hook.body.id;
    // The WebhookCreated event itself: a warm connection before the measurement.
    for (const until = performance.now() + 10_000; receiver.messages.length === 0 && performance.now() < until;)
      await sleep(20);
    const names = inv.pools['batch-a'];
    const requestId = `bench-webhooks-${Date.now()}`;
    const since = new Date(Date.now() - 1000).toISOString();
    const answer = await http(
      service.url,
      'POST',
      '/v1/taints',
      { nodes: names, taints: [DRAIN_SPEC] },
      { 'x-request-id': requestId },
    );
    const answeredAt = performance.now();
    if (answer.status !== 200)
      return { status: 'error', note: `POST /v1/taints answered ${answer.status}: ${answer.text.slice(0, 400)}` };
    // Every event the taint committed, from the audit log (its request id).
    const history = await listAll<{ requestId: string | null }>(
      service.url,
      `/v1/events/history?since=${encodeURIComponent(since)}`,
    );
    if (history.status !== 200) return { status: 'error', note: `GET /v1/events/history answered ${history.status}` };
    const events = history.items.filter((e) => e.requestId === requestId).length;
    const mine = () => receiver.messages.filter((m) => m.requestId === requestId);
    const deadline = answeredAt + 60_000;
    while (mine().length < events && performance.now() < deadline) await sleep(50);
    const arrived = mine();
    const lags = arrived.map((m) => Math.max(0, m.arrivedAt - answeredAt));
    const figure: Figure = {
      status: 'ok',
      events,
      delivered: arrived.length,
      duplicates: arrived.length - new Set(arrived.map((m) => m.webhookId)).size,
      commitMs: answer.ms,
      baselineCommitMs: baseline?.status === 'ok' ? baseline.ms : undefined,
      evictions: answer.body.evictions,
      lagMs: summarize(lags),
      firstMs: lags.reduce((a, b) => Math.min(a, b), Infinity),
    };
    if (arrived.length < events)
      figure.note = `${events - arrived.length} of ${events} not delivered 60 s after the commit`;
    return figure;
  } catch (e) {
    return fail(e);
  } finally {
    if (hookId) await http(service.url, 'DELETE', `/v1/webhooks/${hookId}`).catch(() => undefined);
    await receiver.stop();
    await http(service.url, 'POST', '/v1/taints', { nodes: inv.pools['batch-a'], taints: [DRAIN_REMOVE_SPEC] }).catch(
      () => undefined,
    );
  }
}

/** The ceiling with the service tree's own src/ (its bench/ceiling-cli.ts), so both sides run the same code. */
async function ceilingIn(s: Settings): Promise<Figure> {
  const dir = s.serviceDir!;
  if (!existsSync(join(dir, 'bench', 'ceiling-cli.ts')))
    return {
      status: 'not available',
      note: `${dir} has no bench/ceiling-cli.ts (a tree older than the bench's ceiling CLI)`,
    };
  const args = [
    '--max-old-space-size=8192',
    '-r',
    '@swc-node/register',
    'bench/ceiling-cli.ts',
    '--nodes',
    String(s.nodes),
    '--pods',
    String(s.pods),
    '--seed',
    String(s.seed),
    '--sec',
    String(s.ceilingSec),
    '--drain-seconds',
    String(s.drainSeconds),
  ];
  const out = execFileSync(process.execPath, args, { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const last = out.trim().split('\n').pop()!;
  return { status: 'ok', ...JSON.parse(last), note: `measured with the src/ of ${dir}` };
}

// ---------------------------------------------------------------------------------------------

async function cleanupAndExit(code: number): Promise<never> {
  current.service?.kill();
  await current.storage?.cleanup().catch(() => undefined);
  process.exit(code);
}

process.on('SIGINT', () => void cleanupAndExit(130));
process.on('SIGTERM', () => void cleanupAndExit(143));

main().then(
  (code) => process.exit(code),
  async (e: unknown) => {
    process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    await cleanupAndExit(1);
  },
);
