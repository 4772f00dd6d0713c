/** The workloads of the generated cluster: teams' deployments, DaemonSets, batch jobs, pending pods. */
import type { GenContext } from './context';
import {
  APP_WORDS,
  DEFAULT_TOLERATIONS,
  DRAIN_TAINT,
  NAMESPACES,
  Requests,
  TEAMS,
  Workload,
  ZONES,
  daemonSetTolerations,
} from './catalog';

/** What the sections share: the generator's context, the list being built, and its random pickers. */
interface WorkloadBuilder {
  ctx: GenContext;
  add: (w: Omit<Workload, 'ownerName' | 'ownerUid' | 'image'> & { image?: string }) => void;
  req: () => Requests;
  kindOf: () => Workload['kind'];
  word: () => string;
}

export function buildWorkloads(ctx: GenContext): Workload[] {
  const list: Workload[] = [];
  const add = (w: Omit<Workload, 'ownerName' | 'ownerUid' | 'image'> & { image?: string }) => {
    const ownerName = w.kind === 'ReplicaSet' ? `${w.name}-${ctx.rand.suffix(9 + ctx.rand.int(2))}` : w.name;
    list.push({
      ...w,
      image:
        w.image ??
        `registry.example.com/${w.namespace}/${w.name}:v${1 + ctx.rand.int(9)}.${ctx.rand.int(30)}.${ctx.rand.int(10)}`,
      ownerName,
      ownerUid: ctx.rand.uuid(),
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
  const req = (): Requests => ({ cpuMilli: ctx.rand.weighted(cpuMenu), memMi: ctx.rand.weighted(memMenu) });
  const kindOf = () =>
    ctx.rand.weighted<Workload['kind']>([
      ['ReplicaSet', 80],
      ['StatefulSet', 10],
      ['Job', 7],
      ['none', 3],
    ]);
  const word = () => `${ctx.rand.pick(APP_WORDS)}${ctx.rand.chance(0.5) ? `-${ctx.rand.pick(APP_WORDS)}` : ''}`;

  const b: WorkloadBuilder = { ctx, add, req, kindOf, word };
  // the order matters: every section draws from the one seeded random source
  daemonSets(b);
  systemAddOns(b);
  regularPools(b);
  batchPools(b);
  pendingWorkloads(b);
  return list;
}

/** DaemonSets (DaemonSet controller tolerations + the chart's own) and static control-plane pods. */
function daemonSets(b: WorkloadBuilder): void {
  const { add } = b;
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
}

/** System add-ons on the CriticalAddonsOnly pool. */
function systemAddOns(b: WorkloadBuilder): void {
  const { add } = b;
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
}

/** Teams' workloads on the regular pools, GPU jobs on the GPU pools. */
function regularPools(b: WorkloadBuilder): void {
  const { ctx, add, req, kindOf, word } = b;
  const antiSpot = { key: 'cloud.google.com/gke-spot', operator: 'DoesNotExist' };
  for (let i = 0; i < 160; i++) {
    const namespace = NAMESPACES[i % NAMESPACES.length];
    const style = ctx.rand.weighted<string>([
      ['plain', 45],
      ['zone', 15],
      ['type', 10],
      ['antispot', 15],
      ['prefer', 15],
    ]);
    const zone = style === 'zone' ? ctx.rand.pick(ZONES) : undefined;
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
                          { key: 'topology.kubernetes.io/zone', operator: 'In', values: [ctx.rand.pick(ZONES)] },
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
      kind: ctx.rand.weighted<Workload['kind']>([
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
      affinity: ctx.rand.chance(0.5)
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
      kind: ctx.rand.weighted<Workload['kind']>([
        ['Job', 60],
        ['ReplicaSet', 40],
      ]),
      namespace: 'ml-training',
      name: `trainer-${gpu}g-${ctx.rand.suffix(3)}`,
      category: 'gpu',
      requests: { cpuMilli: 4000 * gpu, memMi: 16_384 * gpu, gpu },
      limits: { cpuMilli: 4000 * gpu, memMi: 16_384 * gpu, gpu },
      tolerations: [...DEFAULT_TOLERATIONS, { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      nodeSelector: { 'cloud.google.com/gke-accelerator': 'nvidia-tesla-a100' },
      priority: 0,
    });
  }
}

/** Batch pools: 100 pods per node tolerate the drain taint for drainSeconds; the rest do not. */
function batchPools(b: WorkloadBuilder): void {
  const { ctx, add } = b;
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
        { key: DRAIN_TAINT.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: ctx.opts.drainSeconds },
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
}

/** Pending pods that can never be placed (no such zone, too many GPUs, too much CPU, an untolerated taint). */
function pendingWorkloads(b: WorkloadBuilder): void {
  const { add } = b;
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
}
