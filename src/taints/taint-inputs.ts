import { z } from 'zod';
import { AppError } from '../kernel/errors/app-error';
import type { FieldError, NodeCondition } from '../domain/types';
import { duplicate, notSupported, required } from '../domain/validation/field-errors';

/** `POST /v1/taints` (API.md "Taint mutations"): exactly one of nodes | labelSelector | all. */
export const applyTaintsSchema = z.strictObject({
  nodes: z.array(z.string().min(1).max(253)).max(10_000).optional(),
  labelSelector: z.string().max(4096).optional(),
  all: z.boolean().optional(),
  taints: z.array(z.string().max(4096)).max(100),
  overwrite: z.boolean().optional(),
  dryRun: z.boolean().optional(),
  /** The NoExecute taints added evict only while disruption budgets allow (SEMANTICS B.9.6). */
  respectDisruptionBudgets: z.boolean().optional(),
});
export type ApplyTaintsBody = z.infer<typeof applyTaintsSchema>;

export type NodeSelection =
  { kind: 'names'; names: string[] } | { kind: 'labelSelector'; selector: string } | { kind: 'all' };

/** kubectl's own rules: one way to pick nodes (`--all` and `-l` are exclusive), at least one node and one change. */
export function nodeSelectionOf(body: ApplyTaintsBody): NodeSelection {
  const given = [
    body.nodes !== undefined && 'nodes',
    body.labelSelector !== undefined && 'labelSelector',
    body.all === true && 'all',
  ].filter(Boolean);
  if (given.length !== 1) {
    throw new AppError(
      'BadRequest',
      given.length === 0
        ? 'one or more nodes must be selected: give exactly one of "nodes", "labelSelector" or "all": true'
        : `give exactly one of "nodes", "labelSelector" or "all": true (got ${given.join(', ')})`,
      [{ field: '(body)', type: 'Invalid value', message: 'exactly one of nodes, labelSelector, all' }],
    );
  }
  if (body.taints.length === 0)
    throw new AppError('BadRequest', 'at least one taint update is required', [required('taints')]);
  if (body.nodes !== undefined) {
    if (body.nodes.length === 0)
      throw new AppError('BadRequest', 'one or more nodes must be specified', [required('nodes')]);
    return { kind: 'names', names: [...new Set(body.nodes)].sort() };
  }
  if (body.labelSelector !== undefined) return { kind: 'labelSelector', selector: body.labelSelector };
  return { kind: 'all' };
}

/** `PUT /v1/nodes/{name}/conditions`: the conditions a node reports (type, status; reason and message optional). */
export const conditionsSchema = z
  .array(
    z.strictObject({
      type: z.string().max(316),
      status: z.string().max(32),
      reason: z.string().max(1024).optional(),
      message: z.string().max(32_768).optional(),
    }),
  )
  .max(64);
export type ConditionsBody = z.infer<typeof conditionsSchema>;

const STATUSES = ['False', 'True', 'Unknown'];

/** Kubernetes' words for a bad condition list: a status outside True/False/Unknown, a missing or repeated type. */
export function validateConditions(conditions: ConditionsBody): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    if (c.type === '') errors.push(required(`conditions[${i}].type`));
    else if (seen.has(c.type)) errors.push(duplicate(`conditions[${i}].type`, c.type));
    seen.add(c.type);
    if (!STATUSES.includes(c.status)) errors.push(notSupported(`conditions[${i}].status`, c.status, STATUSES));
  });
  return errors;
}

/** The stored conditions: a condition whose status did not change keeps its lastTransitionTime. */
export function nextConditions(
  reported: ConditionsBody,
  previous: readonly NodeCondition[],
  now: Date,
): NodeCondition[] {
  return reported.map((c) => {
    const old = previous.find((p) => p.type === c.type);
    const since = old && old.status === c.status && old.lastTransitionTime ? new Date(old.lastTransitionTime) : now;
    return {
      type: c.type,
      status: c.status,
      ...(c.reason !== undefined ? { reason: c.reason } : {}),
      ...(c.message !== undefined ? { message: c.message } : {}),
      lastTransitionTime: since,
    };
  });
}
