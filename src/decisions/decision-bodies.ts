import { z } from 'zod';
import { podSpecSchema, taintSchema, tolerationSchema } from '../kernel/http/input/body-schemas';
import {
  FALLBACK,
  isString,
  onlyKeys,
  plainObject,
  readArray,
  readPodSpec,
  type Fast,
} from '../kernel/http/input/fast-body';
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

const FEASIBLE_NODES_KEYS = new Set(['pod', 'podRef', 'nodeNames', 'labelSelector', 'limit']);
const POD_REF_KEYS = new Set(['namespace', 'name']);
const isName = (value: unknown): value is string => isString(value, 253) && value.length >= 1;
const readName = (value: unknown): Fast<string> => (isName(value) ? value : FALLBACK);

/**
 * feasibleNodesBodySchema's output for a body it is sure is valid, else FALLBACK (then the schema
 * decides, and words the 400): fast-body.ts.
 */
export function readFeasibleNodesBody(value: unknown): Fast<FeasibleNodesBody> {
  const body = plainObject(value);
  if (body === undefined || !onlyKeys(body, FEASIBLE_NODES_KEYS)) return FALLBACK;
  const out: FeasibleNodesBody = {};
  if ('pod' in body) {
    const pod = readPodSpec(body.pod);
    if (pod === FALLBACK) return FALLBACK;
    out.pod = pod;
  }
  if ('podRef' in body) {
    const ref = plainObject(body.podRef);
    if (ref === undefined || !onlyKeys(ref, POD_REF_KEYS) || !isName(ref.namespace) || !isName(ref.name))
      return FALLBACK;
    out.podRef = { namespace: ref.namespace, name: ref.name };
  }
  if ('nodeNames' in body) {
    const names = readArray(body.nodeNames, MAX_NAMES, readName);
    if (names === FALLBACK) return FALLBACK;
    out.nodeNames = names;
  }
  if ('labelSelector' in body) {
    if (!isString(body.labelSelector, 4096)) return FALLBACK;
    out.labelSelector = body.labelSelector;
  }
  if ('limit' in body) {
    const limit = body.limit;
    if (!Number.isSafeInteger(limit) || (limit as number) < 0 || (limit as number) > MAX_FEASIBLE_LIMIT)
      return FALLBACK;
    out.limit = limit as number;
  }
  return out;
}

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
