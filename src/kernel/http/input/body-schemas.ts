import { z } from 'zod';

/**
 * Structural shapes of the REST/GraphQL inputs (API.md "Objects"). Wrong types, unknown fields and
 * absurd sizes are 400s with the field path; Kubernetes' own rules (effects, operators, label
 * syntax...) are checked afterwards by the domain validators and answered 422 in Kubernetes' words.
 * Enums stay plain strings here on purpose, so a bad effect reaches the domain validator.
 */
const MAX_ITEMS = 1000;
const MAX_STRING = 4096;
const str = z.string().max(MAX_STRING);
const stringMap = z
  .record(z.string().max(MAX_STRING), str)
  .refine((m) => Object.keys(m).length <= MAX_ITEMS, `at most ${MAX_ITEMS} entries`);
const quantity = z.union([str, z.number().finite()]).transform((v) => String(v));
const resourceList = z
  .record(z.string().max(253), quantity)
  .refine((m) => Object.keys(m).length <= 64, 'at most 64 resources');

export const taintSchema = z.strictObject({
  key: str,
  value: str.optional(),
  effect: str,
  timeAdded: z.union([z.iso.datetime({ offset: true }), z.null()]).optional(),
});

export const tolerationSchema = z.strictObject({
  key: str.optional(),
  operator: str.optional(),
  value: str.optional(),
  effect: str.optional(),
  tolerationSeconds: z
    .number()
    .int()
    .min(-(2 ** 53))
    .max(2 ** 53)
    .nullable()
    .optional(),
});

const requirement = z.strictObject({ key: str, operator: str, values: z.array(str).max(MAX_ITEMS).optional() });
const term = z.strictObject({
  matchExpressions: z.array(requirement).max(100).optional(),
  matchFields: z.array(requirement).max(100).optional(),
});
export const affinitySchema = z.strictObject({
  nodeAffinity: z
    .strictObject({
      requiredDuringSchedulingIgnoredDuringExecution: z
        .strictObject({ nodeSelectorTerms: z.array(term).max(100) })
        .nullable()
        .optional(),
      preferredDuringSchedulingIgnoredDuringExecution: z
        .array(z.strictObject({ weight: z.number().int(), preference: term }))
        .max(100)
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
});

const conditionSchema = z.strictObject({
  type: str,
  status: str,
  reason: str.optional(),
  message: str.optional(),
  lastTransitionTime: z.iso.datetime({ offset: true }).optional(),
  lastHeartbeatTime: z.iso.datetime({ offset: true }).optional(),
});

const serverFields = {
  resourceVersion: z
    .union([str, z.number()])
    .transform((v) => String(v))
    .optional(),
  createdAt: str.optional(),
  updatedAt: str.optional(),
};

export const nodeBodySchema = z.strictObject({
  name: str.optional(),
  labels: stringMap.optional(),
  taints: z.array(taintSchema).max(MAX_ITEMS).optional(),
  unschedulable: z.boolean().optional(),
  conditions: z.array(conditionSchema).max(100).optional(),
  allocatable: resourceList.nullable().optional(),
  ...serverFields,
});

export const podSpecSchema = z.strictObject({
  tolerations: z.array(tolerationSchema).max(MAX_ITEMS).optional(),
  nodeSelector: stringMap.optional(),
  affinity: affinitySchema.nullable().optional(),
  resources: z
    .strictObject({ requests: resourceList.optional(), limits: resourceList.optional() })
    .nullable()
    .optional(),
  priority: z
    .number()
    .int()
    .min(-(2 ** 31))
    .max(2 ** 31 - 1)
    .optional(),
  owner: z.strictObject({ kind: str, name: str }).nullable().optional(),
  hostNetwork: z.boolean().optional(),
});

export const podBodySchema = podSpecSchema.extend({
  namespace: str.optional(),
  name: str.optional(),
  uid: str.optional(),
  labels: stringMap.optional(),
  nodeName: str.nullable().optional(),
  phase: str.optional(),
  boundAt: z.union([z.iso.datetime({ offset: true }), z.null()]).optional(),
  ...serverFields,
});

export type NodeBody = z.infer<typeof nodeBodySchema>;
export type PodBody = z.infer<typeof podBodySchema>;
export type PodSpecBody = z.infer<typeof podSpecSchema>;
export type TaintBody = z.infer<typeof taintSchema>;
export type TolerationBody = z.infer<typeof tolerationSchema>;
