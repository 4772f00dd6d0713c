import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * The Standard Webhooks message (https://www.standardwebhooks.com, issue 15): the body
 * `{ type, timestamp, data }` carries an event exactly as the event stream has it (its type, when it was
 * committed, its data), plus what the stream says besides (`eventId`, `subject: { kind, name }`,
 * `actor`, `requestId`: the data alone does not name the node or pod it is about); the headers `webhook-id` (the
 * delivery's id: the same on every retry, so receivers can de-duplicate), `webhook-timestamp` (this
 * attempt, seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>` per
 * secret, space-separated during a rotation).
 * Signing is the `standardwebhooks` library's, the same code receivers verify with.
 */

export interface WebhookEvent {
  id: string;
  type: string;
  actor: string;
  requestId: string | null;
  subjectKind: string;
  subjectName: string;
  createdAt: Date;
  data: Record<string, unknown>;
}

export function webhookBody(event: WebhookEvent): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    data: event.data,
    eventId: event.id,
    subject: { kind: event.subjectKind, name: event.subjectName },
    actor: event.actor,
    requestId: event.requestId,
  });
}

/** `msg_<delivery id>`: one id per (event, subscription), kept across retries and replays. */
export function webhookMessageId(deliveryId: string): string {
  return `msg_${deliveryId}`;
}

/** A new secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

const signers = new Map<string, Webhook>();

function signer(secret: string): Webhook {
  let found = signers.get(secret);
  if (!found) {
    if (signers.size > 1000) signers.clear();
    found = new Webhook(secret);
    signers.set(secret, found);
  }
  return found;
}

/** The three Standard Webhooks headers for one attempt, signed with every given secret (current first). */
export function webhookHeaders(
  messageId: string,
  at: Date,
  body: string,
  secrets: readonly string[],
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  // The library signs with the timestamp in whole seconds; the header must carry the same value.
  const seconds = Math.floor(at.getTime() / 1000);
  const timestamp = new Date(seconds * 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': secrets.map((s) => signer(s).sign(messageId, timestamp, body)).join(' '),
  };
}

/** The secrets that sign now: the current one, and the previous one until its grace period ends. */
export function signingSecrets(
  subscription: { secret: string; previousSecret: string | null; previousSecretUntil: Date | null },
  now: Date,
): string[] {
  const previous =
    subscription.previousSecret &&
    subscription.previousSecretUntil &&
    subscription.previousSecretUntil.getTime() > now.getTime()
      ? [subscription.previousSecret]
      : [];
  return [subscription.secret, ...previous];
}

/** When the next attempt is due after `attemptsMade` failed attempts, or null when the schedule is spent. */
export function nextRetryAt(scheduleMs: readonly number[], attemptsMade: number, now: Date): Date | null {
  const delay = scheduleMs[attemptsMade - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay);
}
