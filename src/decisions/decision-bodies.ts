import { z } from 'zod';
import { podSpecSchema, taintSchema, tolerationSchema } from '../kernel/http/input/body-schemas';
import { MAX_TAINT_IMPACT_LIMIT } from './taint-impact-paging';

/**
 * Structural shapes of the decision requests (API.md "Decisions"). As for the inventory: wrong types
 * and unknown fields are 400s with field paths; Kubernetes' rules are checked afterwards (422).
 */
export const MAX_FEASIBLE_LIMIT = 5000;
export const DEFAULT_FEASIBLE_LIMIT = 100;
const MAX_NAMES = 10_000;
const name = z.string().min(1).max(253);

export const feasibleNodesBodySchema = z.strictObject({
  pod: podSpecSchema.optional(),
  podRef: z.strictObject({ namespace: name, name }).optional(),
  nodeNames: z.array(name).max(MAX_NAMES).optional(),
  labelSelector: z.string().max(4096).optional(),
  limit: z.number().int().min(0).max(MAX_FEASIBLE_LIMIT).optional(),
});

export const taintImpactBodySchema = z.strictObject({
  taints: z.array(z.string().max(600)).min(1).max(100),
  nodes: z.array(name).max(MAX_NAMES).optional(),
  labelSelector: z.string().max(4096).optional(),
  all: z.boolean().optional(),
  at: z.iso.datetime({ offset: true }).optional(),
  /** The counts form (taint-impact-summary.ts) instead of the lists. */
  summary: z.boolean().optional(),
  /** Pages over evictions then tolerating pods (taint-impact-paging.ts). */
  limit: z.number().int().min(1).max(MAX_TAINT_IMPACT_LIMIT).optional(),
  continue: z.string().min(1).max(4096).optional(),
  /** Where each evicted pod would go, per workload, and the stranded ones (disruption-impact.ts). */
  replacement: z.boolean().optional(),
});

export const tolerationMatchBodySchema = z.strictObject({
  taints: z.array(taintSchema).max(1000),
  tolerations: z.array(tolerationSchema).max(1000),
});

export type FeasibleNodesBody = z.infer<typeof feasibleNodesBodySchema>;
export type TaintImpactBody = z.infer<typeof taintImpactBodySchema>;
export type TolerationMatchBody = z.infer<typeof tolerationMatchBodySchema>;
