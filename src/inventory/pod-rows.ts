import type { Affinity, PodResources, ResourceVector, Toleration } from '../domain/types';
import type { StoredPod } from './model';

/**
 * Pods read with plain SQL, for the reads that return thousands of rows: the start-up snapshot
 * (150,000 pods) and the bound pods of the nodes a taint mutation changes (11,000 for 100 full
 * nodes). Prisma's findMany maps every row and JSON column itself and took 3–6x longer for the same
 * rows. Select `POD_COLUMNS`, then map each row, as an array in that order, with `podFromRow`.
 */
export const POD_COLUMNS = `id::text, namespace, name, uid, node_name, phase, bound_at, tolerations::text, node_selector::text, affinity::text, priority,
  owner_kind, owner_name, resources::text, requests::text, host_network, resource_version, created_at, updated_at`;

type PodRow = [
  string, string, string, string, string | null, string, Date | string | null, string, string, string | null, number,
  string | null, string | null, string, string, boolean, number, Date | string, Date | string,
];

export function podFromRow(row: readonly unknown[], json: JsonInterner): StoredPod {
  const [, namespace, name, uid, nodeName, phase, boundAt, tolerations, nodeSelector, affinity, priority, ownerKind, ownerName, resources, requests, hostNetwork, rv, createdAt, updatedAt] =
    row as PodRow;
  return {
    namespace, name, uid, nodeName, phase,
    boundAt: boundAt === null ? null : toDate(boundAt),
    tolerations: json.parse(tolerations) as Toleration[],
    nodeSelector: json.parse(nodeSelector) as Record<string, string>,
    affinity: affinity === null ? null : (json.parse(affinity) as Affinity),
    priority,
    owner: ownerKind && ownerName ? { kind: ownerKind, name: ownerName } : null,
    resources: json.parse(resources) as PodResources,
    requests: json.parse(requests) as ResourceVector,
    hostNetwork,
    resourceVersion: String(rv),
    createdAt: toDate(createdAt),
    updatedAt: toDate(updatedAt),
  };
}

/**
 * One parsed object per distinct JSON text. Pods of one workload share their tolerations, selectors
 * and resources, so 150,000 pods carry a few thousand distinct JSON values: interning cuts the parse
 * work and the memory alike. The shared objects are never mutated: readers only read them, and
 * writes replace whole StoredPod/StoredNode values.
 */
export class JsonInterner {
  private readonly parsed = new Map<string, unknown>();

  parse(text: string): unknown {
    let value = this.parsed.get(text);
    if (value === undefined) {
      value = JSON.parse(text);
      this.parsed.set(text, value);
    }
    return value;
  }
}

export function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}
