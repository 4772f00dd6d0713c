/**
 * A realistic cluster inventory at any size, as Kubernetes objects: one `kind: List` the way
 * `kubectl get nodes,pods -A -o json` prints it, so it goes through `POST /v1/import` unchanged.
 *
 *   node -r @swc-node/register bench/generate-inventory.ts --nodes 5000 --pods 150000 --seed 42 [--now ISO] [--out
 * file.json]
 *
 * Deterministic: everything is a function of (nodes, pods, seed, now, drainSeconds) through a small
 * PRNG (mulberry32). `--now` defaults to the current time (timestamps are relative to it, so the
 * NotReady nodes' NoExecute taints are recent, as in a live cluster); pass it for byte-identical output.
 *
 * The cluster (fractions of --nodes, taints from test/fixtures/real-clusters/TAINTS.md):
 * - control-plane (3-5): `node-role.kubernetes.io/control-plane:NoSchedule`, static pods (Exists:NoExecute)
 * - system (1%): `CriticalAddonsOnly=true:NoSchedule`; coredns, metrics-server, ingress, cert-manager...
 * - general (the rest): no taint; Deployments/StatefulSets/Jobs with nodeSelector os, zone/instance-type
 *   affinities, anti-spot required affinity; a few cordoned (`node.kubernetes.io/unschedulable`),
 *   NotReady (`not-ready` NoSchedule + NoExecute with timeAdded) and unreachable nodes
 * - team pools `dedicated=<team>:NoSchedule` (payments 6%, search 10% = 500 nodes at 5,000, analytics 5%,
 *   ml-platform 3%): pods tolerate their team and select it (nodeSelector or required affinity)
 * - gpu (4%): `nvidia.com/gpu=present:NoSchedule`, allocatable `nvidia.com/gpu: 8`, pods requesting GPUs
 * - spot (12%): `cloud.google.com/gke-spot=true:PreferNoSchedule` (+ a few with the autoscaler's soft taint)
 * - batch-a, batch-b (100 nodes each at 150,000 pods): `dedicated=batch:NoSchedule`, packed to 110 pods
 *   per node; 100 pods per node tolerate `maintenance.example.com/drain:NoExecute` for `drainSeconds`,
 *   the others (10 per node, DaemonSet pods included) do not. The bench taints these pools.
 * - DaemonSets on every node (fluent-bit, node-exporter, pdcsi-node; nvidia-device-plugin on GPU nodes)
 *   with the DaemonSet controller's tolerations and the `matchFields metadata.name` node affinity
 * - every non-DaemonSet pod carries DefaultTolerationSeconds' not-ready/unreachable 300 s tolerations
 * - 1% pending pods (unsatisfiable selectors, too many GPUs, too much CPU, untolerated taints)
 * Taint and label sets are identical across a pool (apart from hostname), as node pools make them.
 */
import { createWriteStream } from 'node:fs';

export interface GenerateOptions {
  nodes: number;
  pods: number;
  seed: number;
  /** Timestamps are relative to this. Default: now. */
  now?: Date;
  /** tolerationSeconds of the drain toleration the batch pools' pods carry. Default 30. */
  drainSeconds?: number;
}

export type { K8sObject } from './inventory/k8s-object';
import type { K8sObject } from './inventory/k8s-object';

export interface GeneratedInventory {
  options: Required<GenerateOptions>;
  /** Nodes first, then pods (so a chunked import never binds a pod to a node it has not seen). */
  items: K8sObject[];
  nodeCount: number;
  podCount: number;
  /** Node names per pool (`pool` label). */
  pools: Record<string, string[]>;
  /** Pod counts by kind of workload, for the report. */
  podsBy: Record<string, number>;
  /** The NoExecute taint the batch pools' pods tolerate for drainSeconds. */
  drainTaint: { key: string; value: string; effect: 'NoExecute' };
  /** Per batch pool: pods that tolerate the drain taint for drainSeconds, and those that do not. */
  dense: { nodesPerPool: number; toleratingPerNode: number; untoleratingPerNode: number };
  /** A few pending pods (namespace/name) for podRef decisions. */
  pendingPods: Array<{ namespace: string; name: string }>;
  /** One node of each pool, for DaemonSet-style decisions. */
  sampleNode: Record<string, string>;
  /** policy/v1 PodDisruptionBudgets in `items` (one per pod ÷ 30: 5,000 at 150,000 pods). */
  budgetCount: number;
  zones: string[];
}

/** What the measurements need of an inventory once it is imported: everything but the objects themselves. */
export type InventoryFacts = Omit<GeneratedInventory, 'items'>;

export function inventoryFacts(inv: GeneratedInventory): InventoryFacts {
  const { items: _objects, ...facts } = inv;
  return facts;
}

export { DRAIN_TAINT } from './inventory/catalog';
import {
  DRAIN_TAINT,
  MACHINES,
  MAX_PODS,
  MI,
  NodeState,
  Rand,
  Workload,
  ZONES,
  mulberry32,
  poolsFor,
} from './inventory/catalog';
import { buildWorkloads } from './inventory/workloads';
import { nodeObject, podObject } from './inventory/objects';
import type { GenContext } from './inventory/context';

export function generateInventory(options: GenerateOptions): GeneratedInventory {
  const opts: Required<GenerateOptions> = { now: new Date(), drainSeconds: 30, ...options };
  const rand = new Rand(mulberry32(opts.seed));
  const now = opts.now.getTime();
  const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const pools = poolsFor(opts.nodes, opts.pods);
  const items: K8sObject[] = [];
  const nodeStates: NodeState[] = [];
  const byPool: Record<string, string[]> = {};
  const podsBy: Record<string, number> = {};
  const usedNames = new Set<string>();

  // ---- nodes
  const general = pools.find((p) => p.name === 'general')!;
  for (const pool of pools) {
    const hash = rand.hex(8);
    byPool[pool.name] = [];
    for (let i = 0; i < pool.count; i++) {
      let name: string;
      do
        name =
          pool.name === 'control-plane'
            ? `prod-control-plane-${rand.suffix(4)}`
            : `gke-prod-${pool.name}-${hash}-${rand.suffix(4)}`;
      while (usedNames.has(name));
      usedNames.add(name);
      const machine = MACHINES[pool.machines[i % pool.machines.length]];
      const zone = ZONES[i % ZONES.length];
      nodeStates.push({
        name,
        pool,
        zone,
        machine,
        cpuFree: machine.cpuMilli,
        memFreeMi: Math.floor(machine.memKi / MI),
        gpuFree: Number(machine.extra?.['nvidia.com/gpu'] ?? 0),
        pods: 0,
        target: 0,
      });
      byPool[pool.name].push(name);
    }
  }
  // A few broken nodes among the general pool (lifecycle taints), and autoscaler soft taints on spot.
  const generalNodes = nodeStates.filter((n) => n.pool === general);
  const pickDistinct = (list: NodeState[], k: number, mark: (n: NodeState) => void) => {
    const free = list.filter((n) => !n.cordoned && !n.notReady);
    for (let i = 0; i < k && free.length > 0; i++) mark(free.splice(rand.int(free.length), 1)[0]);
  };
  pickDistinct(generalNodes, Math.max(1, Math.round(opts.nodes * 0.002)), (n) => (n.cordoned = true));
  pickDistinct(generalNodes, Math.max(1, Math.round(opts.nodes * 0.001)), (n) => (n.notReady = 'NotReady'));
  pickDistinct(generalNodes, Math.max(1, Math.round(opts.nodes * 0.0006)), (n) => (n.notReady = 'Unreachable'));
  const spotNodes = nodeStates.filter((n) => n.pool.name === 'spot');
  const scaleDown = new Set<string>();
  for (let i = 0; i < Math.min(2, spotNodes.length); i++) scaleDown.add(spotNodes[rand.int(spotNodes.length)].name);

  const ctx: GenContext = { opts, rand, now, iso, pools, podsBy, usedNames, scaleDown };
  for (const n of nodeStates) items.push(nodeObject(ctx, n));

  // ---- workloads
  const workloads = buildWorkloads(ctx);
  const pending: K8sObject[] = [];
  const podItems: K8sObject[] = [];

  // DaemonSets and static pods on every node.
  const ds = workloads.filter((w) => w.kind === 'DaemonSet');
  for (const n of nodeStates) {
    for (const w of ds) {
      if (w.nodeSelector?.['cloud.google.com/gke-accelerator'] && n.pool.name !== 'gpu') continue;
      place(w, n);
    }
    if (n.pool.name === 'control-plane') for (const w of workloads.filter((x) => x.kind === 'Node')) place(w, n);
  }
  // Dense batch pools: exactly 110 pods per node.
  const batchTolerating = workloads.filter((w) => w.category === 'batch-tolerating');
  const batchOther = workloads.filter((w) => w.category === 'batch-other');
  let toleratingPerNode = 0;
  let untoleratingPerNode = 0;
  for (const n of nodeStates.filter((x) => x.pool.name.startsWith('batch-'))) {
    const room = MAX_PODS - n.pods;
    const tolerating = Math.min(100, room);
    for (let i = 0; i < tolerating; i++) place(batchTolerating[i % batchTolerating.length], n);
    while (n.pods < MAX_PODS) place(batchOther[n.pods % batchOther.length], n);
    toleratingPerNode = tolerating;
    untoleratingPerNode = MAX_PODS - tolerating;
  }
  // System and GPU pools: their own workloads.
  for (const n of nodeStates.filter((x) => x.pool.name === 'system')) {
    for (const w of workloads.filter((x) => x.category === 'system')) if (n.pods < 24 && rand.chance(0.7)) place(w, n);
  }
  for (const n of nodeStates.filter((x) => x.pool.name === 'gpu')) {
    const gpuWorkloads = workloads.filter((x) => x.category === 'gpu');
    for (let tries = 0; tries < 12 && n.gpuFree > 0; tries++) {
      const w = rand.pick(gpuWorkloads);
      if ((w.requests.gpu ?? 0) <= n.gpuFree) place(w, n);
    }
  }
  // Pending pods: 1%.
  const pendingCount = Math.max(4, Math.round(opts.pods * 0.01));
  const pendingWorkloads = workloads.filter((w) => w.category.startsWith('pending'));
  for (let i = 0; i < pendingCount; i++)
    pending.push(podObject(ctx, pendingWorkloads[i % pendingWorkloads.length], undefined));

  // The rest spread at random over the regular pools, each pod from a workload of its node's pool.
  const regularNodes = nodeStates.filter((n) => n.pool.regular);
  const placed = podItems.length + pending.length;
  let remaining = opts.pods - placed;
  if (remaining < 0)
    throw new Error(
      `--pods ${opts.pods} is too small for --nodes ${opts.nodes} (DaemonSets, batch pools and pending pods alone need ${placed})`,
    );
  const compatible = new Map<string, Workload[]>();
  const workloadsFor = (n: NodeState): Workload[] => {
    const key = `${n.pool.name}/${n.zone}`;
    let list = compatible.get(key);
    if (!list) {
      list = workloads.filter((w) => w.category === `pool:${n.pool.name}` && (!w.zone || w.zone === n.zone));
      compatible.set(key, list);
    }
    return list;
  };
  const tiny = workloads.find((w) => w.category === 'tiny')!;
  let guard = 0;
  while (remaining > 0) {
    if (++guard > opts.pods * 50)
      throw new Error(`could not place ${remaining} more pods: the regular pools are full (110 pods per node)`);
    const n = regularNodes[rand.int(regularNodes.length)];
    if (n.pods >= MAX_PODS) continue;
    const list = workloadsFor(n);
    let w: Workload | undefined = rand.pick(list);
    if (!fits(w, n)) w = n.pool === general && fits(tiny, n) ? tiny : rand.pick(list.filter((x) => fits(x, n)));
    if (!w) continue;
    place(w, n);
    remaining--;
  }

  for (const p of podItems) items.push(p);
  for (const p of pending) items.push(p);
  const budgets = disruptionBudgets(workloads, Math.round((podItems.length + pending.length) / 30));
  for (const b of budgets) items.push(b);
  const sampleNode: Record<string, string> = {};
  for (const [pool, names] of Object.entries(byPool)) sampleNode[pool] = names[Math.floor(names.length / 2)];
  return {
    options: opts,
    items,
    nodeCount: nodeStates.length,
    podCount: podItems.length + pending.length,
    pools: byPool,
    podsBy,
    drainTaint: DRAIN_TAINT,
    dense: { nodesPerPool: byPool['batch-a'].length, toleratingPerNode, untoleratingPerNode },
    pendingPods: pending.slice(0, 16).map((p) => ({ namespace: p.metadata.namespace, name: p.metadata.name })),
    sampleNode,
    budgetCount: budgets.length,
    zones: ZONES,
  };

  // ------------------------------------------------------------------------------------------
  function fits(w: Workload, n: NodeState): boolean {
    return (
      n.pods < MAX_PODS &&
      w.requests.cpuMilli <= n.cpuFree &&
      w.requests.memMi <= n.memFreeMi &&
      (w.requests.gpu ?? 0) <= n.gpuFree
    );
  }

  function place(w: Workload, n: NodeState): void {
    n.pods++;
    n.cpuFree -= w.requests.cpuMilli;
    n.memFreeMi -= w.requests.memMi;
    n.gpuFree -= w.requests.gpu ?? 0;
    podItems.push(podObject(ctx, w, n));
  }
}

/** Splits the items into `kind: List` bodies of at most `size` objects (nodes first, as generated). */
export function chunkList(items: readonly K8sObject[], size: number): K8sObject[] {
  const chunks: K8sObject[] = [];
  for (let i = 0; i < items.length; i += size)
    chunks.push({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items: items.slice(i, i + size) });
  return chunks;
}

// ---------------------------------------------------------------------------------------------
// CLI

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}

async function cli(args: string[]): Promise<void> {
  const nodes = Number(flag(args, 'nodes') ?? 5000);
  const pods = Number(flag(args, 'pods') ?? 150_000);
  const seed = Number(flag(args, 'seed') ?? 42);
  const nowFlag = flag(args, 'now');
  const drainSeconds = Number(flag(args, 'drain-seconds') ?? 30);
  const out = flag(args, 'out');
  const inv = generateInventory({ nodes, pods, seed, drainSeconds, now: nowFlag ? new Date(nowFlag) : new Date() });
  const stream = out ? createWriteStream(out) : process.stdout;
  const write = (s: string) =>
    stream.write(s) ? Promise.resolve() : new Promise<void>((r) => stream.once('drain', () => r()));
  await write('{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[\n');
  for (let i = 0; i < inv.items.length; i++) await write(`${i ? ',\n' : ''}${JSON.stringify(inv.items[i])}`);
  await write('\n]}\n');
  if (out) await new Promise<void>((r) => (stream as NodeJS.WritableStream).end(() => r()));
  process.stderr.write(
    `generated ${inv.nodeCount} nodes, ${inv.podCount} pods (seed ${seed})${out ? ` into ${out}` : ''}\n` +
      `pools: ${Object.entries(inv.pools)
        .map(([p, n]) => `${p}=${n.length}`)
        .join(' ')}\n` +
      `pods: ${Object.entries(inv.podsBy)
        .map(([k, n]) => `${k}=${n}`)
        .join(' ')}\n`,
  );
}

if (require.main === module) {
  cli(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}

/**
 * PodDisruptionBudgets as clusters have them: one per Deployment/StatefulSet workload (selecting its `app`
 * label, in the forms teams write: maxUnavailable 10% or 1, minAvailable 1 or 50%), then stale ones selecting
 * an app that no longer runs (expectedPods 0), up to `target`.
 */
function disruptionBudgets(workloads: readonly Workload[], target: number): K8sObject[] {
  const specs = [{ maxUnavailable: '10%' }, { minAvailable: 1 }, { maxUnavailable: 1 }, { minAvailable: '50%' }];
  const out: K8sObject[] = [];
  const budget = (namespace: string, name: string, app: string, i: number): K8sObject => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace },
    spec: { ...specs[i % specs.length], selector: { matchLabels: { app } } },
  });
  const seen = new Set<string>();
  for (const w of workloads) {
    if (out.length >= target) break;
    if (w.kind !== 'ReplicaSet' && w.kind !== 'StatefulSet') continue;
    const key = `${w.namespace}/${w.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(budget(w.namespace, `${w.name}-pdb`, w.name, out.length));
  }
  const namespaces = [...new Set(workloads.map((w) => w.namespace))].sort();
  for (let i = 0; out.length < target && namespaces.length > 0; i++) {
    out.push(budget(namespaces[i % namespaces.length], `retired-${i}-pdb`, `retired-${i}`, i));
  }
  return out;
}
