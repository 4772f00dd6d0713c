import { z } from 'zod';

/**
 * The bodies of the webhook routes (REST and GraphQL alike): structure only, 400 with field paths when
 * wrong; the URL policy is the service's (422 with the reason).
 */
const eventType = z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,99}$/, 'an event type such as TaintsApplied');
const events = z.array(eventType).max(100);

export const createWebhookSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  events: events.nullable().optional(),
  description: z.string().max(1000).nullable().optional(),
});
export type CreateWebhookBody = z.infer<typeof createWebhookSchema>;

export const updateWebhookSchema = z.strictObject({
  url: z.string().min(1).max(2048).optional(),
  events: events.nullable().optional(),
  description: z.string().max(1000).nullable().optional(),
  enabled: z.boolean().optional(),
  /** A new secret; the current one keeps signing too for `secretGraceSeconds` (WEBHOOK_SECRET_GRACE_SECONDS). */
  rotateSecret: z.boolean().optional(),
  secretGraceSeconds: z
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .optional(),
});
export type UpdateWebhookBody = z.infer<typeof updateWebhookSchema>;

export const replaySchema = z.strictObject({
  since: z.iso.datetime({ offset: true }),
});
