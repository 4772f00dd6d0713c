import { z } from 'zod';

/**
 * The body of `PUT /v1/namespaces/{ns}/poddisruptionbudgets/{name}` and of the Kubernetes API's writes:
 * a policy/v1 PodDisruptionBudget (apiVersion, kind and status may be sent and are ignored; metadata
 * keeps name, namespace, labels, uid and resourceVersion). Structure only: Kubernetes' rules are the
 * domain validator's (validate-budget.ts), answered 422 in its words.
 */
const str = z.string().max(4096);
const stringMap = z
  .record(z.string().max(4096), str)
  .refine((m) => Object.keys(m).length <= 1000, 'at most 1000 entries');
const intOrString = z.union([
  z
    .number()
    .int()
    .min(-(2 ** 31))
    .max(2 ** 31 - 1),
  z.string().max(64),
]);
const selector = z.strictObject({
  matchLabels: stringMap.nullable().optional(),
  matchExpressions: z
    .array(z.strictObject({ key: str, operator: str, values: z.array(str).max(1000).nullable().optional() }))
    .max(100)
    .nullable()
    .optional(),
});

export const budgetBodySchema = z.strictObject({
  apiVersion: str.optional(),
  kind: str.optional(),
  metadata: z
    .looseObject({
      name: str.optional(),
      namespace: str.optional(),
      uid: str.optional(),
      labels: stringMap.nullable().optional(),
      resourceVersion: str.optional(),
    })
    .optional(),
  spec: z.strictObject({
    minAvailable: intOrString.nullable().optional(),
    maxUnavailable: intOrString.nullable().optional(),
    selector: selector.nullable().optional(),
    unhealthyPodEvictionPolicy: str.nullable().optional(),
  }),
  status: z.unknown().optional(),
});

export type BudgetBody = z.infer<typeof budgetBodySchema>;
