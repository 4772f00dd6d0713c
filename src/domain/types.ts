/**
 * Plain types of the Kubernetes objects taintwise reasons about. They mirror the fields of
 * k8s.io/api/core/v1 that the rules read (SEMANTICS.md Part B), in Kubernetes' JSON spelling.
 * No framework, no I/O: these are the words of the domain.
 */

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
export type TaintEffect = (typeof TAINT_EFFECTS)[number];

export const TOLERATION_OPERATORS = ['Equal', 'Exists', 'Gt', 'Lt'] as const;
export type TolerationOperator = (typeof TOLERATION_OPERATORS)[number];

/** A node taint. Unique on a node by (key, effect) (B.1.3). */
export interface Taint {
  key: string;
  /** Absent and `""` are the same value. */
  value?: string;
  effect: TaintEffect;
  /** When the taint was first added to the node; the eviction clock starts here (A.3). */
  timeAdded?: Date;
  /**
   * taintwise: added with `respectDisruptionBudgets` — the evictions this NoExecute taint causes wait while
   * a disruption budget forbids them (SEMANTICS B.9.6). Present only when true.
   */
  respectBudgets?: true;
}

/**
 * A pod toleration. Fields are strings, not enums, on purpose: matching must treat an unknown
 * operator or effect exactly as upstream does (no match), even if validation would reject it.
 */
export interface Toleration {
  key?: string;
  /** `""`/absent means Equal. */
  operator?: string;
  value?: string;
  /** `""`/absent means every effect. */
  effect?: string;
  /** Only meaningful with effect NoExecute; absent = tolerate forever. */
  tolerationSeconds?: number | null;
}

export interface NodeCondition {
  type: string;
  status: string; // "True" | "False" | "Unknown"
  reason?: string;
  message?: string;
  lastTransitionTime?: Date;
}

/** Resource amounts in canonical units: cpu in millicores, memory/storage in bytes, others as counts. */
export type ResourceVector = Record<string, number>;

/** Raw Kubernetes resource lists, quantities as strings (`"100m"`, `"128Mi"`). */
export type ResourceList = Record<string, string>;

export interface NodeSelectorRequirement {
  key: string;
  operator: string; // In | NotIn | Exists | DoesNotExist | Gt | Lt
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

export interface NodeAffinity {
  requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] } | null;
  preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[] | null;
}

export interface Affinity {
  nodeAffinity?: NodeAffinity | null;
}

export interface PodResources {
  requests?: ResourceList;
  limits?: ResourceList;
}

export interface OwnerRef {
  kind: string;
  name: string;
}

/** What the scheduling rules read of a pod (API.md "PodSpec"). */
export interface PodSpec {
  tolerations: Toleration[];
  nodeSelector?: Record<string, string>;
  affinity?: Affinity | null;
  resources?: PodResources | null;
  priority?: number;
  owner?: OwnerRef | null;
  hostNetwork?: boolean;
}

/** What the scheduling rules read of a node. `requested` is the sum of its bound pods' requests. */
export interface SchedulingNode {
  name: string;
  labels: Record<string, string>;
  taints: readonly Taint[];
  unschedulable: boolean;
  /** null: no resource limit is applied (API.md). */
  allocatable: ResourceVector | null;
  /** Sum of the requests of pods bound to the node, including `pods` (their count). */
  requested: ResourceVector;
}

/** One field-level validation error, worded as k8s.io/apimachinery/pkg/util/validation/field does. */
export type FieldErrorType =
  'Invalid value' | 'Unsupported value' | 'Required value' | 'Duplicate value' | 'Forbidden' | 'Too long' | 'Too many';

export interface FieldError {
  /** Path in taintwise's JSON: `tolerations[0].operator`, `taints[1].effect`. */
  field: string;
  type: FieldErrorType;
  /** `Unsupported value: "Foo": supported values: "Equal", "Exists"` (no path prefix). */
  message: string;
}
