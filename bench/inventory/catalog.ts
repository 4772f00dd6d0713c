/** The generated cluster's vocabulary: machine types, pools, teams, names, and a seeded random source. */
import type { K8sObject } from './k8s-object';

export const DRAIN_TAINT = { key: 'maintenance.example.com/drain', value: 'true', effect: 'NoExecute' as const };
export const REGION = 'us-central1';
export const ZONES = ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f'];
export const MAX_PODS = 110;

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

export class Rand {
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

export interface MachineType {
  name: string;
  cpuMilli: number;
  memKi: number;
  extra?: Record<string, string>;
}

export const MACHINES: Record<string, MachineType> = {
  'n2-standard-8': { name: 'n2-standard-8', cpuMilli: 7910, memKi: 29_288_560 },
  'n2-standard-16': { name: 'n2-standard-16', cpuMilli: 15_890, memKi: 59_829_016 },
  'n2-standard-32': { name: 'n2-standard-32', cpuMilli: 31_850, memKi: 121_576_360 },
  'e2-standard-16': { name: 'e2-standard-16', cpuMilli: 15_890, memKi: 60_055_036 },
  'n2-highmem-16': { name: 'n2-highmem-16', cpuMilli: 15_890, memKi: 124_514_276 },
  'a2-highgpu-8g': { name: 'a2-highgpu-8g', cpuMilli: 95_690, memKi: 697_910_392, extra: { 'nvidia.com/gpu': '8' } },
};

export const MI = 1024; // Ki per Mi

export interface Requests {
  cpuMilli: number;
  memMi: number;
  gpu?: number;
}

export function resourceList(r: Requests): Record<string, string> {
  const out: Record<string, string> = {
    cpu: r.cpuMilli % 1000 === 0 ? String(r.cpuMilli / 1000) : `${r.cpuMilli}m`,
    memory: r.memMi % 1024 === 0 ? `${r.memMi / 1024}Gi` : `${r.memMi}Mi`,
  };
  if (r.gpu) out['nvidia.com/gpu'] = String(r.gpu);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tolerations

export const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

export function daemonSetTolerations(hostNetwork: boolean): K8sObject[] {
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

export interface Pool {
  name: string;
  count: number;
  machines: string[];
  taints: K8sObject[];
  labels: Record<string, string>;
  /** Regular (non-DaemonSet) pods land here in the random spread. */
  regular: boolean;
}

export interface Workload {
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

export const TEAMS: Array<{ team: string; fraction: number }> = [
  { team: 'payments', fraction: 0.06 },
  { team: 'search', fraction: 0.1 },
  { team: 'analytics', fraction: 0.05 },
  { team: 'ml-platform', fraction: 0.03 },
];

export const NAMESPACES = [
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
export const APP_WORDS = [
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

export function poolsFor(nodes: number, pods: number): Pool[] {
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

export interface NodeState {
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
