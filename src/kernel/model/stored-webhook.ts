/** A webhook subscription as stored (issue 15). `secret` and `previousSecret` never leave the service. */
export interface StoredWebhook {
  id: string;
  url: string;
  /** Event types delivered; empty = every type. */
  events: string[];
  description: string;
  enabled: boolean;
  disabledReason: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type WebhookDeliveryStatus = 'Pending' | 'Delivered' | 'Failed';

/** One attempt of a delivery, as the delivery log shows it. */
export interface WebhookAttempt {
  at: string;
  statusCode?: number;
  latencyMs: number;
  error?: string;
}

export interface StoredWebhookDelivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  attemptLog: WebhookAttempt[];
  nextAttemptAt: Date;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A due delivery with what its request needs: the event as stored. */
export interface DueWebhookDelivery {
  id: string;
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
  event: {
    id: string;
    type: string;
    actor: string;
    requestId: string | null;
    subjectKind: string;
    subjectName: string;
    createdAt: Date;
    data: Record<string, unknown>;
  } | null;
}
