import type { StoredPod } from '../kernel/model/stored-objects';
import { derivedUid, kubeTime } from './object-meta';

/**
 * A taintwise pod as a core/v1 Pod. taintwise keeps what scheduling reads, so some parts are derived:
 * - one container named `main` carries the pod's resources (Kubernetes requires a container);
 * - the owner becomes an ownerReference (controller: true) with a uid derived from kind and name;
 * - an evicted pod (taintwise: unbound, phase `Evicted`) is gone from the Kubernetes API (GET answers NotFound,
 *   lists leave it out), as the taint manager or the Eviction API deletes it in a cluster; `kubectl drain` waits
 *   for exactly that. Converted, it reads as the taint manager leaves a pod just before deleting it: phase
 *   `Failed`, reason `Evicted`, a `DisruptionTarget` condition with reason `DeletionByTaintManager` (kubernetes
 *   pkg/controller/tainteviction/taint_eviction.go addConditionAndDeletePod) — the form a watch's last MODIFIED
 *   carries. `nodeName` is absent: taintwise clears it on eviction.
 */
export interface KubePod {
  kind: 'Pod';
  apiVersion: 'v1';
  metadata: {
    name: string;
    namespace: string;
    uid: string;
    resourceVersion: string;
    creationTimestamp?: string;
    labels?: Record<string, string>;
    ownerReferences?: Array<{ apiVersion: string; kind: string; name: string; uid: string; controller: boolean }>;
  };
  spec: Record<string, unknown> & { nodeName?: string };
  status: { phase: string; reason?: string; message?: string; conditions?: object[]; startTime?: string };
}

const OWNER_API_VERSIONS: Record<string, string> = {
  ReplicaSet: 'apps/v1',
  DaemonSet: 'apps/v1',
  StatefulSet: 'apps/v1',
  Deployment: 'apps/v1',
  Job: 'batch/v1',
  CronJob: 'batch/v1',
};

export function toKubePod(pod: StoredPod): KubePod {
  const spec: KubePod['spec'] = {
    containers: [{ name: 'main', image: 'taintwise/none', resources: pod.resources ?? {} }],
  };
  if (pod.nodeName) spec.nodeName = pod.nodeName;
  if (pod.tolerations.length) spec.tolerations = pod.tolerations;
  if (Object.keys(pod.nodeSelector).length) spec.nodeSelector = pod.nodeSelector;
  if (pod.affinity) spec.affinity = pod.affinity;
  spec.priority = pod.priority;
  if (pod.hostNetwork) spec.hostNetwork = true;
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: {
      name: pod.name,
      namespace: pod.namespace,
      uid: pod.uid,
      resourceVersion: pod.resourceVersion,
      creationTimestamp: kubeTime(pod.createdAt),
      ...(Object.keys(pod.labels).length ? { labels: pod.labels } : {}),
      ...(pod.owner
        ? {
            ownerReferences: [
              {
                apiVersion: OWNER_API_VERSIONS[pod.owner.kind] ?? 'v1',
                kind: pod.owner.kind,
                name: pod.owner.name,
                uid: derivedUid(pod.namespace, pod.owner.kind, pod.owner.name),
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec,
    status: podStatus(pod),
  };
}

function podStatus(pod: StoredPod): KubePod['status'] {
  if (pod.phase === 'Evicted') {
    return {
      phase: 'Failed',
      reason: 'Evicted',
      message: 'Taint manager: deleting due to NoExecute taint',
      conditions: [
        {
          type: 'DisruptionTarget',
          status: 'True',
          reason: 'DeletionByTaintManager',
          message: 'Taint manager: deleting due to NoExecute taint',
          lastTransitionTime: kubeTime(pod.updatedAt),
        },
      ],
    };
  }
  const started = kubeTime(pod.boundAt);
  return { phase: pod.phase, ...(started ? { startTime: started } : {}) };
}
