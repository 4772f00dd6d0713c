/** Kubernetes Node and Pod objects as `kubectl get -o json` prints them, for the generated cluster. */
import type { GenContext } from './context';
import { MAX_PODS, NodeState, REGION, Workload, resourceList } from './catalog';
import type { K8sObject } from './k8s-object';

export function nodeObject(ctx: GenContext, n: NodeState): K8sObject {
  const created = ctx.now - (30 + ctx.rand.int(300)) * 86_400_000 - ctx.rand.int(86_400_000);
  const taints: K8sObject[] = n.pool.taints.map((t) => ({ ...t }));
  const conditionTime = ctx.iso(ctx.now - 3_600_000 * (1 + ctx.rand.int(200)));
  let ready: K8sObject = {
    type: 'Ready',
    status: 'True',
    lastHeartbeatTime: ctx.iso(ctx.now - 20_000),
    lastTransitionTime: conditionTime,
    reason: 'KubeletReady',
    message: 'kubelet is posting ready status. AppArmor enabled',
  };
  if (n.cordoned)
    taints.push({
      key: 'node.kubernetes.io/unschedulable',
      effect: 'NoSchedule',
      timeAdded: ctx.iso(ctx.now - 3_600_000 * (1 + ctx.rand.int(48))),
    });
  if (n.notReady === 'NotReady') {
    const since = ctx.now - 45_000 - ctx.rand.int(60_000);
    ready = {
      type: 'Ready',
      status: 'False',
      lastHeartbeatTime: ctx.iso(ctx.now - 10_000),
      lastTransitionTime: ctx.iso(since),
      reason: 'KubeletNotReady',
      message:
        'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
    };
    taints.push(
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule', timeAdded: ctx.iso(since) },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: ctx.iso(since) },
    );
  } else if (n.notReady === 'Unreachable') {
    const since = ctx.now - 60_000 - ctx.rand.int(60_000);
    ready = {
      type: 'Ready',
      status: 'Unknown',
      lastHeartbeatTime: ctx.iso(since - 40_000),
      lastTransitionTime: ctx.iso(since),
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
    };
    taints.push(
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: ctx.iso(since) },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: ctx.iso(since) },
    );
  }
  if (ctx.scaleDown.has(n.name))
    taints.push({
      key: 'DeletionCandidateOfClusterAutoscaler',
      value: String(Math.floor((ctx.now - 600_000) / 1000)),
      effect: 'PreferNoSchedule',
    });
  const pressure = (type: string, reason: string, message: string) => ({
    type,
    status: n.notReady === 'Unreachable' ? 'Unknown' : 'False',
    lastHeartbeatTime: ctx.iso(ctx.now - 20_000),
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
      uid: ctx.rand.uuid(),
      resourceVersion: String(100_000 + ctx.rand.int(9_000_000)),
      creationTimestamp: ctx.iso(created),
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
      podCIDR: `10.${64 + ctx.rand.int(64)}.${ctx.rand.int(256)}.0/24`,
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
        { type: 'InternalIP', address: `10.128.${ctx.rand.int(256)}.${ctx.rand.int(256)}` },
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

export function podObject(ctx: GenContext, w: Workload, n: NodeState | undefined): K8sObject {
  let name: string;
  const namespace = w.namespace;
  do {
    if (w.kind === 'Node') name = `${w.name}-${n!.name}`;
    else if (w.kind === 'StatefulSet') name = `${w.name}-${(w.ordinal = (w.ordinal ?? -1) + 1)}`;
    else if (w.kind === 'ReplicaSet') name = `${w.ownerName}-${ctx.rand.suffix(5)}`;
    else name = `${w.ownerName}-${ctx.rand.suffix(5)}`;
  } while (ctx.usedNames.has(`${namespace}/${name}`));
  ctx.usedNames.add(`${namespace}/${name}`);
  ctx.podsBy[w.category] = (ctx.podsBy[w.category] ?? 0) + 1;
  const created = ctx.now - ctx.rand.int(20 * 86_400_000) - 60_000;
  const scheduled = ctx.iso(created + 1000);
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
  const podIP = `10.${64 + ctx.rand.int(64)}.${ctx.rand.int(256)}.${2 + ctx.rand.int(250)}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      ...(w.kind === 'ReplicaSet' || w.kind === 'DaemonSet' || w.kind === 'Job'
        ? { generateName: `${w.ownerName}-` }
        : {}),
      namespace,
      uid: ctx.rand.uuid(),
      resourceVersion: String(100_000 + ctx.rand.int(90_000_000)),
      creationTimestamp: ctx.iso(created),
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
            { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: ctx.iso(created + 9000) },
            {
              type: 'ContainersReady',
              status: 'True',
              lastProbeTime: null,
              lastTransitionTime: ctx.iso(created + 9000),
            },
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
              lastTransitionTime: ctx.iso(created),
              reason: 'Unschedulable',
              message: '0/5000 nodes are available: preemption: 0/5000 nodes are available.',
            },
          ],
          qosClass: qos,
        },
  };
}
