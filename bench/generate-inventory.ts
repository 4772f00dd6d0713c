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

export type K8sObject = Record<string, any>;

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
  zones: string[];
}

export const DRAIN_TAINT = { key: 'maintenance.example.com/drain', value: 'true', effect: 'NoExecute' as const };
const REGION = 'us-central1';
const ZONES = ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f'];
const MAX_PODS = 110;

// ---------------------------------------------------------------------------------------------
// PRNG

/** mulberry32: tiny, fast, good enough for synthetic data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rand {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
  weighted<T>(list: ReadonlyArray<readonly [T, number]>): T {
    const total = list.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [v, w] of list) if ((r -= w) < 0) return v;
    return list[list.length - 1][0];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** Kubernetes' generateName alphabet (no vowels, no look-alikes). */
  suffix(n: number): string {
    const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[this.int(16)];
    return s;
  }
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[this.int(4)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Resources

interface MachineType {
  name: string;
  cpuMilli: number;
  memKi: number;
  extra?: Record<string, string>;
}

const MACHINES: Record<string, MachineType> = {
  'n2-standard-8': { name: 'n2-standard-8', cpuMilli: 7910, memKi: 29_288_560 },
  'n2-standard-16': { name: 'n2-standard-16', cpuMilli: 15_890, memKi: 59_829_016 },
  'n2-standard-32': { name: 'n2-standard-32', cpuMilli: 31_850, memKi: 121_576_360 },
  'e2-standard-16': { name: 'e2-standard-16', cpuMilli: 15_890, memKi: 60_055_036 },
  'n2-highmem-16': { name: 'n2-highmem-16', cpuMilli: 15_890, memKi: 124_514_276 },
  'a2-highgpu-8g': { name: 'a2-highgpu-8g', cpuMilli: 95_690, memKi: 697_910_392, extra: { 'nvidia.com/gpu': '8' } },
};

const MI = 1024; // Ki per Mi

interface Requests {
  cpuMilli: number;
  memMi: number;
  gpu?: number;
}

function resourceList(r: Requests): Record<string, string> {
  const out: Record<string, string> = {
    cpu: r.cpuMilli % 1000 === 0 ? String(r.cpuMilli / 1000) : `${r.cpuMilli}m`,
    memory: r.memMi % 1024 === 0 ? `${r.memMi / 1024}Gi` : `${r.memMi}Mi`,
  };
  if (r.gpu) out['nvidia.com/gpu'] = String(r.gpu);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tolerations

const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

function daemonSetTolerations(hostNetwork: boolean): K8sObject[] {
  const t: K8sObject[] = [
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
    { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
    { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
  ];
  if (hostNetwork) t.push({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
  return t;
}

// ---------------------------------------------------------------------------------------------
// Pools and workloads

interface Pool {
  name: string;
  count: number;
  machines: string[];
  taints: K8sObject[];
  labels: Record<string, string>;
  /** Regular (non-DaemonSet) pods land here in the random spread. */
  regular: boolean;
}

interface Workload {
  namespace: string;
  name: string;
  kind: 'ReplicaSet' | 'StatefulSet' | 'Job' | 'DaemonSet' | 'Node' | 'none';
  ownerName: string;
  ownerUid: string;
  requests: Requests;
  limits?: Requests;
  tolerations: K8sObject[];
  nodeSelector?: Record<string, string>;
  affinity?: K8sObject;
  priority: number;
  priorityClassName?: string;
  image: string;
  hostNetwork?: boolean;
  /** Only on nodes of this zone. */
  zone?: string;
  ordinal?: number;
  category: string;
}

const TEAMS: Array<{ team: string; fraction: number }> = [
  { team: 'payments', fraction: 0.06 },
  { team: 'search', fraction: 0.1 },
  { team: 'analytics', fraction: 0.05 },
  { team: 'ml-platform', fraction: 0.03 },
];

const NAMESPACES = [
  'shop',
  'checkout',
  'catalog',
  'accounts',
  'notifications',
  'media',
  'recommendations',
  'inventory',
  'shipping',
  'reviews',
  'ads',
  'auth',
  'gateway',
  'reporting',
  'support',
  'marketing',
  'billing',
  'growth',
  'identity',
  'platform',
];
const APP_WORDS = [
  'api',
  'web',
  'worker',
  'frontend',
  'backend',
  'consumer',
  'indexer',
  'cache',
  'sync',
  'scheduler',
  'gateway',
  'processor',
  'renderer',
  'exporter',
  'router',
  'aggregator',
];

function poolsFor(nodes: number, pods: number): Pool[] {
  const frac = (f: number, min = 2) => Math.max(min, Math.round(nodes * f));
  const densePerPool = Math.min(100, Math.max(1, Math.floor(pods / 1500)));
  const base = (pool: string) => ({ pool, 'cloud.google.com/gke-nodepool': pool });
  const pools: Pool[] = [
    {
      name: 'control-plane',
      count: nodes >= 1000 ? 5 : 3,
      machines: ['n2-standard-8'],
      regular: false,
      taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
      labels: { ...base('control-plane'), 'node-role.kubernetes.io/control-plane': '' },
    },
    {
      name: 'system',
      count: frac(0.01),
      machines: ['n2-standard-8'],
      regular: false,
      taints: [{ key: 'CriticalAddonsOnly', value: 'true', effect: 'NoSchedule' }],
      labels: base('system'),
    },
    {
      name: 'gpu',
      count: frac(0.04),
      machines: ['a2-highgpu-8g'],
      regular: false,
      taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }],
      labels: {
        ...base('gpu'),
        'cloud.google.com/gke-accelerator': 'nvidia-tesla-a100',
        'nvidia.com/gpu.present': 'true',
      },
    },
    {
      name: 'spot',
      count: frac(0.12),
      machines: ['e2-standard-16'],
      regular: true,
      taints: [{ key: 'cloud.google.com/gke-spot', value: 'true', effect: 'PreferNoSchedule' }],
      labels: { ...base('spot'), 'cloud.google.com/gke-spot': 'true', 'cloud.google.com/gke-provisioning': 'spot' },
    },
    ...TEAMS.map(({ team, fraction }) => ({
      name: team,
      count: frac(fraction),
      machines: team === 'analytics' ? ['n2-highmem-16'] : ['n2-standard-16'],
      regular: true,
      taints: [{ key: 'dedicated', value: team, effect: 'NoSchedule' }],
      labels: { ...base(team), dedicated: team },
    })),
    ...['batch-a', 'batch-b'].map((name) => ({
      name,
      count: densePerPool,
      machines: ['n2-standard-16'],
      regular: false,
      taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }],
      labels: { ...base(name), dedicated: 'batch' },
    })),
  ];
  const used = pools.reduce((s, p) => s + p.count, 0);
  if (nodes - used < 4) throw new Error(`--nodes ${nodes} is too small for the pools (need at least ${used + 4})`);
  pools.push({
    name: 'general',
    count: nodes - used,
    machines: ['n2-standard-16', 'n2-standard-32'],
    regular: true,
    taints: [],
    labels: base('general'),
  });
  return pools;
}

interface NodeState {
  name: string;
  pool: Pool;
  zone: string;
  machine: MachineType;
  cpuFree: number;
  memFreeMi: number;
  gpuFree: number;
  pods: number;
  /** Target number of regular pods. */
  target: number;
  notReady?: 'NotReady' | 'Unreachable';
  cordoned?: boolean;
}

// ---------------------------------------------------------------------------------------------

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

  for (const n of nodeStates) items.push(nodeObject(n));

  // ---- workloads
  const workloads = buildWorkloads();
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
    pending.push(podObject(pendingWorkloads[i % pendingWorkloads.length], undefined));

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
    podItems.push(podObject(w, n));
  }

  function nodeObject(n: NodeState): K8sObject {
    const created = now - (30 + rand.int(300)) * 86_400_000 - rand.int(86_400_000);
    const taints: K8sObject[] = n.pool.taints.map((t) => ({ ...t }));
    const conditionTime = iso(now - 3_600_000 * (1 + rand.int(200)));
    let ready: K8sObject = {
      type: 'Ready',
      status: 'True',
      lastHeartbeatTime: iso(now - 20_000),
      lastTransitionTime: conditionTime,
      reason: 'KubeletReady',
      message: 'kubelet is posting ready status. AppArmor enabled',
    };
    if (n.cordoned)
      taints.push({
        key: 'node.kubernetes.io/unschedulable',
        effect: 'NoSchedule',
        timeAdded: iso(now - 3_600_000 * (1 + rand.int(48))),
      });
    if (n.notReady === 'NotReady') {
      const since = now - 45_000 - rand.int(60_000);
      ready = {
        type: 'Ready',
        status: 'False',
        lastHeartbeatTime: iso(now - 10_000),
        lastTransitionTime: iso(since),
        reason: 'KubeletNotReady',
        message:
          'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
      };
      taints.push(
        { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: iso(since) },
        { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: iso(since) },
      );
    } else if (n.notReady === 'Unreachable') {
      const since = now - 60_000 - rand.int(60_000);
      ready = {
        type: 'Ready',
        status: 'Unknown',
        lastHeartbeatTime: iso(since - 40_000),
        lastTransitionTime: iso(since),
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      };
      taints.push(
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: iso(since) },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: iso(since) },
      );
    }
    if (scaleDown.has(n.name))
      taints.push({
        key: 'DeletionCandidateOfClusterAutoscaler',
        value: String(Math.floor((now - 600_000) / 1000)),
        effect: 'PreferNoSchedule',
      });
    const pressure = (type: string, reason: string, message: string) => ({
      type,
      status: n.notReady === 'Unreachable' ? 'Unknown' : 'False',
      lastHeartbeatTime: iso(now - 20_000),
      lastTransitionTime: conditionTime,
      reason,
      message,
    });
    const allocatable: Record<string, string> = {
      cpu: `${n.machine.cpuMilli}m`,
      'ephemeral-storage': '47060071478',
      'hugepages-1Gi': '0',
      'hugepages-2Mi': '0',
      memory: `${n.machine.memKi}Ki`,
      pods: String(MAX_PODS),
      ...(n.machine.extra ?? {}),
    };
    const capacity: Record<string, string> = {
      ...allocatable,
      cpu: String(Math.ceil(n.machine.cpuMilli / 1000)),
      'ephemeral-storage': '98831908Ki',
      memory: `${n.machine.memKi + 3_500_000}Ki`,
    };
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: n.name,
        uid: rand.uuid(),
        resourceVersion: String(100_000 + rand.int(9_000_000)),
        creationTimestamp: iso(created),
        labels: {
          'beta.kubernetes.io/arch': 'amd64',
          'beta.kubernetes.io/instance-type': n.machine.name,
          'beta.kubernetes.io/os': 'linux',
          'failure-domain.beta.kubernetes.io/region': REGION,
          'failure-domain.beta.kubernetes.io/zone': n.zone,
          'kubernetes.io/arch': 'amd64',
          'kubernetes.io/hostname': n.name,
          'kubernetes.io/os': 'linux',
          'node.kubernetes.io/instance-type': n.machine.name,
          'topology.kubernetes.io/region': REGION,
          'topology.kubernetes.io/zone': n.zone,
          ...n.pool.labels,
        },
        annotations: {
          'node.alpha.kubernetes.io/ttl': '0',
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        },
      },
      spec: {
        podCIDR: `10.${64 + rand.int(64)}.${rand.int(256)}.0/24`,
        providerID: `gce://prod-cluster/${n.zone}/${n.name}`,
        ...(taints.length ? { taints } : {}),
        ...(n.cordoned ? { unschedulable: true } : {}),
      },
      status: {
        capacity,
        allocatable,
        conditions: [
          pressure('MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
          pressure('DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
          pressure('PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
          ready,
        ],
        addresses: [
          { type: 'InternalIP', address: `10.128.${rand.int(256)}.${rand.int(256)}` },
          { type: 'Hostname', address: n.name },
        ],
        nodeInfo: {
          architecture: 'amd64',
          containerRuntimeVersion: 'containerd://1.7.24',
          kernelVersion: '6.1.112+',
          kubeProxyVersion: 'v1.31.5',
          kubeletVersion: 'v1.31.5',
          operatingSystem: 'linux',
          osImage: 'Container-Optimized OS from Google',
        },
      },
    };
  }

  function podObject(w: Workload, n: NodeState | undefined): K8sObject {
    let name: string;
    const namespace = w.namespace;
    do {
      if (w.kind === 'Node') name = `${w.name}-${n!.name}`;
      else if (w.kind === 'StatefulSet') name = `${w.name}-${(w.ordinal = (w.ordinal ?? -1) + 1)}`;
      else if (w.kind === 'ReplicaSet') name = `${w.ownerName}-${rand.suffix(5)}`;
      else name = `${w.ownerName}-${rand.suffix(5)}`;
    } while (usedNames.has(`${namespace}/${name}`));
    usedNames.add(`${namespace}/${name}`);
    podsBy[w.category] = (podsBy[w.category] ?? 0) + 1;
    const created = now - rand.int(20 * 86_400_000) - 60_000;
    const scheduled = iso(created + 1000);
    const requests = resourceList(w.requests);
    const limits = w.limits
      ? resourceList(w.limits)
      : w.requests.gpu
        ? { 'nvidia.com/gpu': String(w.requests.gpu) }
        : { memory: requests.memory };
    const qos =
      w.limits && w.limits.cpuMilli === w.requests.cpuMilli && w.limits.memMi === w.requests.memMi
        ? 'Guaranteed'
        : 'Burstable';
    const ownerReferences =
      w.kind === 'none'
        ? undefined
        : [
            {
              apiVersion: w.kind === 'Node' ? 'v1' : w.kind === 'Job' ? 'batch/v1' : 'apps/v1',
              kind: w.kind,
              name: w.kind === 'Node' ? n!.name : w.ownerName,
              uid: w.ownerUid,
              controller: true,
              ...(w.kind === 'Node' ? {} : { blockOwnerDeletion: true }),
            },
          ];
    const affinity =
      w.kind === 'DaemonSet'
        ? {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [n!.name] }] }],
              },
            },
          }
        : w.affinity;
    const podIP = `10.${64 + rand.int(64)}.${rand.int(256)}.${2 + rand.int(250)}`;
    return {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        ...(w.kind === 'ReplicaSet' || w.kind === 'DaemonSet' || w.kind === 'Job'
          ? { generateName: `${w.ownerName}-` }
          : {}),
        namespace,
        uid: rand.uuid(),
        resourceVersion: String(100_000 + rand.int(90_000_000)),
        creationTimestamp: iso(created),
        labels: {
          app: w.name,
          'app.kubernetes.io/name': w.name,
          ...(w.kind === 'ReplicaSet' ? { 'pod-template-hash': w.ownerName.slice(w.name.length + 1) } : {}),
        },
        ...(ownerReferences ? { ownerReferences } : {}),
      },
      spec: {
        containers: [
          {
            name: w.name.split('-')[0],
            image: w.image,
            resources: { requests, limits },
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
          },
        ],
        restartPolicy: w.kind === 'Job' ? 'Never' : 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: w.hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst',
        serviceAccountName: w.name,
        ...(w.hostNetwork ? { hostNetwork: true } : {}),
        ...(n ? { nodeName: n.name } : {}),
        ...(w.nodeSelector ? { nodeSelector: w.nodeSelector } : {}),
        ...(affinity ? { affinity } : {}),
        schedulerName: 'default-scheduler',
        tolerations: w.tolerations,
        ...(w.priorityClassName ? { priorityClassName: w.priorityClassName } : {}),
        priority: w.priority,
        enableServiceLinks: true,
        preemptionPolicy: 'PreemptLowerPriority',
      },
      status: n
        ? {
            phase: 'Running',
            conditions: [
              { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: scheduled },
              { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: iso(created + 9000) },
              { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: iso(created + 9000) },
              { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: scheduled },
            ],
            hostIP: '10.128.0.2',
            podIP,
            podIPs: [{ ip: podIP }],
            startTime: scheduled,
            qosClass: qos,
          }
        : {
            phase: 'Pending',
            conditions: [
              {
                type: 'PodScheduled',
                status: 'False',
                lastProbeTime: null,
                lastTransitionTime: iso(created),
                reason: 'Unschedulable',
                message: '0/5000 nodes are available: preemption: 0/5000 nodes are available.',
              },
            ],
            qosClass: qos,
          },
    };
  }

  function buildWorkloads(): Workload[] {
    const list: Workload[] = [];
    const add = (w: Omit<Workload, 'ownerName' | 'ownerUid' | 'image'> & { image?: string }) => {
      const ownerName = w.kind === 'ReplicaSet' ? `${w.name}-${rand.suffix(9 + rand.int(2))}` : w.name;
      list.push({
        ...w,
        image:
          w.image ??
          `registry.example.com/${w.namespace}/${w.name}:v${1 + rand.int(9)}.${rand.int(30)}.${rand.int(10)}`,
        ownerName,
        ownerUid: rand.uuid(),
      });
    };
    const cpuMenu: ReadonlyArray<readonly [number, number]> = [
      [50, 20],
      [100, 30],
      [250, 25],
      [500, 15],
      [1000, 8],
      [2000, 2],
    ];
    const memMenu: ReadonlyArray<readonly [number, number]> = [
      [64, 10],
      [128, 25],
      [256, 30],
      [512, 20],
      [1024, 10],
      [2048, 5],
    ];
    const req = (): Requests => ({ cpuMilli: rand.weighted(cpuMenu), memMi: rand.weighted(memMenu) });
    const kindOf = () =>
      rand.weighted<Workload['kind']>([
        ['ReplicaSet', 80],
        ['StatefulSet', 10],
        ['Job', 7],
        ['none', 3],
      ]);
    const word = () => `${rand.pick(APP_WORDS)}${rand.chance(0.5) ? `-${rand.pick(APP_WORDS)}` : ''}`;

    // DaemonSets (DaemonSet controller tolerations + the chart's own), static control-plane pods.
    const dsCommon = { kind: 'DaemonSet' as const, priority: 2_000_001_000, priorityClassName: 'system-node-critical' };
    add({
      ...dsCommon,
      namespace: 'kube-system',
      name: 'fluent-bit',
      category: 'daemonset',
      requests: { cpuMilli: 100, memMi: 200 },
      tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }, ...daemonSetTolerations(false)],
      image: 'cr.fluentbit.io/fluent/fluent-bit:3.1.9',
    });
    add({
      ...dsCommon,
      namespace: 'monitoring',
      name: 'node-exporter',
      category: 'daemonset',
      hostNetwork: true,
      requests: { cpuMilli: 50, memMi: 64 },
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }, ...daemonSetTolerations(true)],
      image: 'quay.io/prometheus/node-exporter:v1.8.2',
    });
    add({
      ...dsCommon,
      namespace: 'kube-system',
      name: 'pdcsi-node',
      category: 'daemonset',
      requests: { cpuMilli: 20, memMi: 40 },
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [
        { operator: 'Exists', effect: 'NoSchedule' },
        { key: 'CriticalAddonsOnly', operator: 'Exists' },
        ...daemonSetTolerations(false),
      ],
      image: 'gke.gcr.io/gcp-compute-persistent-disk-csi-driver:v1.13.2',
    });
    add({
      ...dsCommon,
      namespace: 'kube-system',
      name: 'nvidia-device-plugin',
      category: 'daemonset',
      requests: { cpuMilli: 50, memMi: 64 },
      nodeSelector: { 'cloud.google.com/gke-accelerator': 'nvidia-tesla-a100' },
      tolerations: [
        { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
        { key: 'CriticalAddonsOnly', operator: 'Exists' },
        ...daemonSetTolerations(false),
      ],
      image: 'nvcr.io/nvidia/k8s-device-plugin:v0.16.2',
    });
    for (const [name, cpu, mem] of [
      ['kube-apiserver', 250, 512],
      ['etcd', 100, 100],
      ['kube-controller-manager', 200, 128],
      ['kube-scheduler', 100, 64],
    ] as const) {
      add({
        kind: 'Node',
        namespace: 'kube-system',
        name,
        category: 'static',
        hostNetwork: true,
        requests: { cpuMilli: cpu, memMi: mem },
        tolerations: [{ operator: 'Exists', effect: 'NoExecute' }],
        priority: 2_000_001_000,
        priorityClassName: 'system-node-critical',
        image: `registry.k8s.io/${name}:v1.31.5`,
      });
    }

    // System add-ons (CriticalAddonsOnly pool).
    const critical = [
      { key: 'CriticalAddonsOnly', operator: 'Exists' },
      { key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
      ...DEFAULT_TOLERATIONS,
    ];
    for (const [namespace, name] of [
      ['kube-system', 'coredns'],
      ['kube-system', 'metrics-server'],
      ['kube-system', 'konnectivity-agent'],
      ['kube-system', 'cluster-autoscaler'],
      ['kube-system', 'kube-dns-autoscaler'],
      ['ingress-nginx', 'ingress-nginx-controller'],
      ['cert-manager', 'cert-manager'],
      ['cert-manager', 'cert-manager-webhook'],
      ['external-dns', 'external-dns'],
      ['monitoring', 'prometheus-operator'],
      ['monitoring', 'kube-state-metrics'],
      ['argocd', 'argocd-repo-server'],
      ['argocd', 'argocd-application-controller'],
      ['kyverno', 'kyverno-admission-controller'],
      ['velero', 'velero'],
      ['gatekeeper-system', 'gatekeeper-controller-manager'],
    ]) {
      add({
        kind: 'ReplicaSet',
        namespace,
        name,
        category: 'system',
        requests: { cpuMilli: 100, memMi: 256 },
        tolerations: critical,
        nodeSelector: { pool: 'system' },
        priority: 2_000_000_000,
        priorityClassName: 'system-cluster-critical',
      });
    }

    // Regular pools.
    const antiSpot = { key: 'cloud.google.com/gke-spot', operator: 'DoesNotExist' };
    for (let i = 0; i < 160; i++) {
      const namespace = NAMESPACES[i % NAMESPACES.length];
      const style = rand.weighted<string>([
        ['plain', 45],
        ['zone', 15],
        ['type', 10],
        ['antispot', 15],
        ['prefer', 15],
      ]);
      const zone = style === 'zone' ? rand.pick(ZONES) : undefined;
      const affinity =
        style === 'type'
          ? {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [
                    {
                      matchExpressions: [
                        {
                          key: 'node.kubernetes.io/instance-type',
                          operator: 'In',
                          values: ['n2-standard-16', 'n2-standard-32'],
                        },
                      ],
                    },
                  ],
                },
              },
            }
          : style === 'antispot'
            ? {
                nodeAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: {
                    nodeSelectorTerms: [
                      {
                        matchExpressions: [
                          antiSpot,
                          { key: 'topology.kubernetes.io/zone', operator: 'In', values: ZONES },
                        ],
                      },
                    ],
                  },
                },
              }
            : style === 'prefer'
              ? {
                  nodeAffinity: {
                    preferredDuringSchedulingIgnoredDuringExecution: [
                      {
                        weight: 50,
                        preference: {
                          matchExpressions: [
                            { key: 'topology.kubernetes.io/zone', operator: 'In', values: [rand.pick(ZONES)] },
                          ],
                        },
                      },
                    ],
                  },
                }
              : undefined;
      add({
        kind: kindOf(),
        namespace,
        name: word(),
        category: 'pool:general',
        zone,
        requests: req(),
        tolerations: DEFAULT_TOLERATIONS,
        nodeSelector: zone
          ? { 'kubernetes.io/os': 'linux', 'topology.kubernetes.io/zone': zone }
          : { 'kubernetes.io/os': 'linux' },
        affinity,
        priority: 0,
      });
    }
    add({
      kind: 'ReplicaSet',
      namespace: 'shop',
      name: 'sidecar-injector',
      category: 'tiny',
      requests: { cpuMilli: 10, memMi: 32 },
      tolerations: DEFAULT_TOLERATIONS,
      priority: 0,
    });
    for (let i = 0; i < 40; i++) {
      const namespace = NAMESPACES[i % NAMESPACES.length];
      add({
        kind: rand.weighted<Workload['kind']>([
          ['ReplicaSet', 70],
          ['Job', 30],
        ]),
        namespace,
        name: `${word()}-spot`,
        category: 'pool:spot',
        requests: req(),
        tolerations: [
          { key: 'cloud.google.com/gke-spot', operator: 'Equal', value: 'true', effect: 'PreferNoSchedule' },
          ...DEFAULT_TOLERATIONS,
        ],
        nodeSelector: { 'cloud.google.com/gke-spot': 'true' },
        affinity: rand.chance(0.5)
          ? {
              nodeAffinity: {
                preferredDuringSchedulingIgnoredDuringExecution: [
                  {
                    weight: 100,
                    preference: {
                      matchExpressions: [{ key: 'cloud.google.com/gke-spot', operator: 'In', values: ['true'] }],
                    },
                  },
                ],
              },
            }
          : undefined,
        priority: 0,
      });
    }
    for (const { team } of TEAMS) {
      for (let i = 0; i < 30; i++) {
        const drainTolerant = team === 'search' && i % 5 === 0;
        const selectStyle = i % 2 === 0;
        add({
          kind: kindOf(),
          namespace: team,
          name: word(),
          category: `pool:${team}`,
          requests: req(),
          tolerations: [
            { key: 'dedicated', operator: 'Equal', value: team, effect: 'NoSchedule' },
            ...DEFAULT_TOLERATIONS,
            ...(drainTolerant
              ? [{ key: DRAIN_TAINT.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 600 }]
              : []),
          ],
          nodeSelector: selectStyle ? { dedicated: team } : undefined,
          affinity: selectStyle
            ? undefined
            : {
                nodeAffinity: {
                  requiredDuringSchedulingIgnoredDuringExecution: {
                    nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: [team] }] }],
                  },
                },
              },
          priority: team === 'payments' ? 1000 : 0,
        });
      }
    }
    for (const gpu of [1, 1, 2, 4, 8]) {
      add({
        kind: rand.weighted<Workload['kind']>([
          ['Job', 60],
          ['ReplicaSet', 40],
        ]),
        namespace: 'ml-training',
        name: `trainer-${gpu}g-${rand.suffix(3)}`,
        category: 'gpu',
        requests: { cpuMilli: 4000 * gpu, memMi: 16_384 * gpu, gpu },
        limits: { cpuMilli: 4000 * gpu, memMi: 16_384 * gpu, gpu },
        tolerations: [...DEFAULT_TOLERATIONS, { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        nodeSelector: { 'cloud.google.com/gke-accelerator': 'nvidia-tesla-a100' },
        priority: 0,
      });
    }
    // Batch pools: 100 pods per node tolerate the drain taint for drainSeconds; the rest do not.
    for (let i = 0; i < 8; i++) {
      add({
        kind: 'Job',
        namespace: 'batch',
        name: `etl-shard-${i}`,
        category: 'batch-tolerating',
        requests: { cpuMilli: 100, memMi: 128 },
        tolerations: [
          { key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'NoSchedule' },
          ...DEFAULT_TOLERATIONS,
          { key: DRAIN_TAINT.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: opts.drainSeconds },
        ],
        nodeSelector: { dedicated: 'batch' },
        priority: 0,
      });
    }
    for (let i = 0; i < 3; i++) {
      add({
        kind: 'Job',
        namespace: 'batch',
        name: `report-${i}`,
        category: 'batch-other',
        requests: { cpuMilli: 100, memMi: 128 },
        tolerations: [
          { key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'NoSchedule' },
          ...DEFAULT_TOLERATIONS,
        ],
        nodeSelector: { dedicated: 'batch' },
        priority: 0,
      });
    }
    // Pending: never placeable (a zone that does not exist, too many GPUs, too much CPU, an untolerated taint).
    add({
      kind: 'ReplicaSet',
      namespace: 'shop',
      name: 'web-canary',
      category: 'pending-selector',
      requests: { cpuMilli: 250, memMi: 256 },
      tolerations: DEFAULT_TOLERATIONS,
      nodeSelector: { 'topology.kubernetes.io/zone': 'us-central1-d' },
      priority: 0,
    });
    add({
      kind: 'Job',
      namespace: 'ml-training',
      name: 'trainer-16g',
      category: 'pending-gpu',
      requests: { cpuMilli: 8000, memMi: 65_536, gpu: 16 },
      limits: { cpuMilli: 8000, memMi: 65_536, gpu: 16 },
      tolerations: [...DEFAULT_TOLERATIONS, { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      priority: 0,
    });
    add({
      kind: 'StatefulSet',
      namespace: 'analytics',
      name: 'clickhouse-xl',
      category: 'pending-cpu',
      requests: { cpuMilli: 64_000, memMi: 262_144 },
      tolerations: [
        { key: 'dedicated', operator: 'Equal', value: 'analytics', effect: 'NoSchedule' },
        ...DEFAULT_TOLERATIONS,
      ],
      nodeSelector: { dedicated: 'analytics' },
      priority: 0,
    });
    add({
      kind: 'ReplicaSet',
      namespace: 'search',
      name: 'indexer-untolerating',
      category: 'pending-taint',
      requests: { cpuMilli: 500, memMi: 512 },
      tolerations: DEFAULT_TOLERATIONS,
      nodeSelector: { dedicated: 'search' },
      priority: 0,
    });
    return list;
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
