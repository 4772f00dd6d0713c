import type { FilterPlugin } from '../domain/scheduling/filter-reason';
import type { TaintEffect } from '../domain/types';

/**
 * The answers of the decision endpoints (API.md "Decisions"), shared by REST and GraphQL. Times are
 * `Date`s: REST serialises them as RFC 3339, GraphQL as `DateTime`.
 */
export interface PodRef {
  namespace: string;
  name: string;
}

export interface TaintView {
  key: string;
  value: string;
  effect: TaintEffect;
  timeAdded?: Date;
}

export interface ReasonView {
  plugin: FilterPlugin;
  message: string;
  taint?: TaintView;
  resource?: string;
}

export interface NodeDecisionView {
  name: string;
  feasible: boolean;
  score?: number;
  scores?: { TaintToleration: number; NodeAffinity: number };
  reasons?: ReasonView[];
}

export interface FeasibleNodesAnswer {
  totalNodes: number;
  feasibleCount: number;
  message: string;
  nodes: NodeDecisionView[];
}

export interface WorkloadImpactView {
  namespace: string;
  /** The pods' owner (ownerReferences' controller); null for bare pods. */
  owner: { kind: string; name: string } | null;
  evicted: number;
  rePlaced: number;
  stranded: number;
}

export interface BudgetImpactView {
  namespace: string;
  name: string;
  /** The budget's allowance before the change. */
  disruptionsAllowed: number;
  desiredHealthy: number;
  currentHealthy: number;
  /** Its pods the change evicts at once, and in all (at once and later). */
  evictedNow: number;
  evictedTotal: number;
  /** Whether the healthy (Running) pods evicted in all exceed the allowance: the budget would be broken. */
  violated: boolean;
}

export interface TaintImpactEvictionView {
  pod: PodRef;
  node: string;
  action: 'EvictNow' | 'EvictAfter';
  afterSeconds: number;
  evictAt: Date;
  /** With `replacement: true`: where the pod would go if re-created now; null when nowhere (see `unplacedReason`). */
  placement?: { node: string } | null;
  unplacedReason?: string;
}

export interface TaintImpactAnswer {
  /** The instant the change is evaluated at (`at`, or now). */
  at: Date;
  evictions: TaintImpactEvictionView[];
  tolerating: Array<{ pod: PodRef; node: string }>;
  unschedulablePending: Array<{ pod: PodRef }>;
  schedulablePending: Array<{ pod: PodRef }>;
  /** Removals that match nothing on a node: kubectl would refuse the command; the what-if ignores them there. */
  warnings: string[];
  /** Every disruption budget selecting an evicted pod (first page only when paged). */
  budgets: BudgetImpactView[];
  /** With `replacement: true`: per workload (owner) evicted / re-placed / stranded, and the stranded pods. */
  workloads?: WorkloadImpactView[];
  stranded?: PodRef[];
  /** Paged answers (`limit`): the token for the next page, absent on the last one. */
  continue?: string;
  /** Paged answers: evictions and tolerating pods after this page. */
  remainingItemCount?: number;
}

export interface TolerationMatchAnswer {
  matches: Array<{ taint: TaintView; tolerated: boolean; tolerationIndex?: number }>;
  schedulable: boolean;
  preferAvoid: boolean;
  eviction: { action: 'None' | 'EvictNow' | 'EvictAfter'; afterSeconds?: number };
}
