import { z } from 'zod';

/** `POST /v1/namespaces/{ns}/pods/{name}/binding` body (API.md): the node, and `force` to skip the scheduler checks. */
export const bindingBodySchema = z.strictObject({
  nodeName: z.string().min(1).max(253),
  force: z.boolean().optional(),
});

export type BindingBody = z.infer<typeof bindingBodySchema>;
