/**
 * The shapes the importer produces and the REST bodies of `PUT /v1/nodes/{name}` and
 * `PUT /v1/namespaces/{ns}/pods/{name}` accept: API.md's Node and Pod objects without the server
 * fields (`resourceVersion`, `createdAt`, `updatedAt`). Plain data, no behaviour.
 */
import type { Affinity, NodeCondition, OwnerRef, PodResources, Taint, Toleration } from '../../domain/types';

/** API.md "Node" without server fields. */
export interface NodeInput {
  name: string;
  labels: Record<string, string>;
  /**
   * As the cluster has them. `value` is always present (`""` when the object had none); `timeAdded`
   * is kept when the object had one and is otherwise undefined: the service stamps it.
   * `effect` is copied as given: validation (one of the three effects) is the service's.
   */
  taints: Taint[];
  unschedulable: boolean;
  conditions: NodeCondition[];
  /** Quantity strings as the cluster printed them; null when the object had no `status.allocatable`. */
  allocatable: Record<string, string> | null;
}

/** Pod phases Kubernetes reports, plus taintwise's own `Evicted`. Unknown phases are kept as given. */
export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown' | 'Evicted' | (string & {});

/** API.md "Pod" without server fields. */
export interface PodInput {
  namespace: string;
  name: string;
  /** The cluster's uid when the object had one. */
  uid?: string;
  /** metadata.labels; `{}` when the object had none. */
  labels: Record<string, string>;
  nodeName: string | null;
  phase: PodPhase;
  /** When the pod was bound to `nodeName`; null when unbound. */
  boundAt: Date | null;
  /** In the object's order, each with only the fields it had. */
  tolerations: Toleration[];
  nodeSelector: Record<string, string>;
  /** `{ nodeAffinity }` only (pod (anti-)affinity is not modelled); null when the pod has no node affinity. */
  affinity: Affinity | null;
  priority: number;
  owner: OwnerRef | null;
  /** The pod's effective requests and limits (containers, init containers, sidecars, overhead). */
  resources: PodResources;
  hostNetwork: boolean;
}

/** Where a decode error is in the body: 0-based `offset`, 1-based `line` and `column`. */
export interface TextPosition {
  offset: number;
  line: number;
  column: number;
}

/**
 * One problem with the input. Decode errors (`kind: "Document"`) make the whole body unusable;
 * mapping errors concern one item, which is then left out while the rest is imported.
 */
export interface ImportError {
  /** 0-based index of the item among all items of all documents; for decode errors, of the document. */
  index: number;
  /** 0-based index of the document holding the item (mapping errors). */
  document?: number;
  /**
   * The item's kind (`Node`, `Pod`, `Unknown` when it cannot be told); for decode errors `Document`,
   * or the list's kind when its envelope is wrong (`PodList` with `items` not an array).
   */
  kind: string;
  /** `name` for nodes, `namespace/name` for pods, when known. */
  name?: string;
  /** Where in the document: `items[3].spec.taints[0].effect`. */
  field?: string;
  message: string;
  /** Decode errors only. */
  position?: TextPosition;
}
