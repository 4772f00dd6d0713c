import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { AppError } from '../kernel/errors/app-error';
import { parseBody } from '../kernel/http/input/parse-body';
import { decodeContinue, parseLimit, readPage, type Page } from '../kernel/http/paging';
import type {
  StoredWebhook,
  StoredWebhookDelivery,
  WebhookAttempt,
  WebhookDeliveryStatus,
} from '../kernel/model/stored-webhook';
import type { Actor } from '../kernel/persistence/change-set';
import { WebhookDeliveryRepository } from '../kernel/persistence/repositories/webhook-delivery.repository';
import {
  WebhookSubscriptionRepository,
  type WebhookWrite,
} from '../kernel/persistence/repositories/webhook-subscription.repository';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import { createWebhookSchema, replaySchema, updateWebhookSchema } from './webhook-body';
import { WebhookDispatcher } from './webhook-dispatcher';
import { generateWebhookSecret, webhookMessageId } from './webhook-message';
import { refusedWebhookUrl } from './webhook-sender';

/** A subscription as the API shows it: never its secrets. */
export interface PresentedWebhook {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  disabledReason: string | null;
  /** Until when the previous secret also signs (after a rotation), if it still does. */
  previousSecretValidUntil: string | null;
  failingSince: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Create and rotate answers: the subscription and its new secret, shown this once. */
export type WebhookWithSecret = PresentedWebhook & { secret: string };

export interface PresentedDelivery {
  id: string;
  /** The webhook-id header of every attempt. */
  webhookId: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: WebhookAttempt[];
  nextAttemptAt: string | null;
  createdAt: string;
  finishedAt: string | null;
}

const STATUSES: readonly WebhookDeliveryStatus[] = ['Pending', 'Delivered', 'Failed'];

/**
 * Webhook subscriptions (issue 15): CRUD, secret rotation, the delivery log, a manual retry and a bulk
 * replay. Admin only (the transports say so); every change is one transaction with an audit event
 * (`Webhook*`, subject kind Webhook) whose data never holds a secret.
 */
@Injectable()
export class WebhookService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: WebhookDispatcher,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(body: unknown, actor: Actor): Promise<WebhookWithSecret> {
    const parsed = parseBody(createWebhookSchema, body, 'webhook');
    await this.checkUrl(parsed.url);
    const id = randomUUID();
    const write: WebhookWrite = {
      url: parsed.url,
      events: uniqueSorted(parsed.events ?? []),
      description: parsed.description ?? '',
      enabled: true,
      disabledReason: null,
      secret: generateWebhookSecret(),
      previousSecret: null,
      previousSecretUntil: null,
    };
    const { result } = await this.uow.run(actor, async (tx, changes) => {
      const created = await this.subscriptions.create(tx, id, write);
      changes.event({
        type: 'WebhookCreated',
        subjectKind: 'Webhook',
        subjectName: id,
        data: { id, url: created.url, events: created.events, description: created.description },
      });
      return created;
    });
    return { ...present(result, this.uow.now()), secret: result.secret };
  }

  async get(id: string): Promise<PresentedWebhook> {
    return present(await this.find(id), this.uow.now());
  }

  /** By creation time, in pages (`limit`, `continue`). */
  async list(query: { limit?: unknown; continue?: unknown }): Promise<Page<PresentedWebhook>> {
    const limit = parseLimit(query.limit);
    const after = decodeContinue(query.continue, 2);
    const now = this.uow.now();
    const page = await readPage(
      limit,
      (take) =>
        this.subscriptions.list(this.uow.db, after ? { createdAt: new Date(after[0]), id: after[1] } : undefined, take),
      (w) => [w.createdAt.toISOString(), w.id],
    );
    return { ...page, items: page.items.map((w) => present(w, now)) };
  }

  /**
   * Changes what is given: url (checked like at creation), events, description, enabled (re-enabling
   * clears the failure record), rotateSecret (the answer carries the new secret once; the old one keeps
   * signing for the grace period).
   */
  async update(id: string, body: unknown, actor: Actor): Promise<PresentedWebhook | WebhookWithSecret> {
    const parsed = parseBody(updateWebhookSchema, body, 'webhook');
    if (parsed.secretGraceSeconds !== undefined && !parsed.rotateSecret) {
      throw new AppError('BadRequest', 'secretGraceSeconds applies to a rotation only: send rotateSecret: true', [
        { field: 'secretGraceSeconds', type: 'Invalid value', message: 'Invalid value: requires rotateSecret: true' },
      ]);
    }
    if (parsed.url !== undefined) await this.checkUrl(parsed.url);
    const now = this.uow.now();
    const { result } = await this.uow.run(actor, async (tx, changes) => {
      const current = await this.subscriptions.lock(tx, id);
      if (!current) throw notFound(id);
      const write: Partial<WebhookWrite> = {};
      const changed: Record<string, unknown> = {};
      if (parsed.url !== undefined && parsed.url !== current.url) write.url = changed.url = parsed.url;
      if (parsed.events !== undefined) write.events = changed.events = uniqueSorted(parsed.events ?? []);
      if (parsed.description !== undefined) write.description = changed.description = parsed.description ?? '';
      if (parsed.enabled !== undefined && parsed.enabled !== current.enabled) {
        write.enabled = changed.enabled = parsed.enabled;
        write.disabledReason = parsed.enabled ? null : `disabled by ${actor.name}`;
        if (parsed.enabled) write.failingSince = null;
      }
      if (parsed.rotateSecret) {
        const grace = parsed.secretGraceSeconds ?? this.config.WEBHOOK_SECRET_GRACE_SECONDS;
        write.previousSecret = grace > 0 ? current.secret : null;
        write.previousSecretUntil = grace > 0 ? new Date(now.getTime() + grace * 1000) : null;
        write.secret = generateWebhookSecret();
        changed.secretRotated = true;
        changed.previousSecretValidUntil = write.previousSecretUntil?.toISOString() ?? null;
      }
      const updated = Object.keys(write).length ? await this.subscriptions.update(tx, id, write) : current;
      changes.event({ type: 'WebhookUpdated', subjectKind: 'Webhook', subjectName: id, data: { id, ...changed } });
      return updated;
    });
    if (result.enabled) this.dispatcher.wake();
    const presented = present(result, now);
    return parsed.rotateSecret ? { ...presented, secret: result.secret } : presented;
  }

  /** Deletes the subscription and its delivery log; pending deliveries are dropped. */
  async delete(id: string, actor: Actor): Promise<void> {
    await this.uow.run(actor, async (tx, changes) => {
      const current = await this.subscriptions.lock(tx, id);
      if (!current) throw notFound(id);
      await this.subscriptions.delete(tx, id);
      changes.event({
        type: 'WebhookDeleted',
        subjectKind: 'Webhook',
        subjectName: id,
        data: { id, url: current.url },
      });
    });
  }

  /** The delivery log, newest first, in pages; `status` filters. */
  async listDeliveries(
    id: string,
    query: { limit?: unknown; continue?: unknown; status?: unknown },
  ): Promise<Page<PresentedDelivery>> {
    await this.find(id);
    const limit = parseLimit(query.limit, 100);
    const before = decodeContinue(query.continue, 1)?.[0];
    let status: WebhookDeliveryStatus | undefined;
    if (query.status !== undefined && query.status !== '') {
      if (!STATUSES.includes(query.status as WebhookDeliveryStatus))
        throw new AppError('BadRequest', `status must be one of ${STATUSES.join(', ')}`, [
          {
            field: 'status',
            type: 'Unsupported value',
            message: `Unsupported value: ${JSON.stringify(query.status)}: supported values: ${STATUSES.map((s) => `"${s}"`).join(', ')}`,
          },
        ]);
      status = query.status as WebhookDeliveryStatus;
    }
    if (before !== undefined && !/^\d{1,18}$/.test(before)) throw badContinue();
    const page = await readPage(
      limit,
      (take) => this.deliveries.list(this.uow.db, id, { beforeId: before, status }, take),
      (d) => [d.id],
    );
    return { ...page, items: page.items.map(presentDelivery) };
  }

  async getDelivery(id: string, deliveryId: string): Promise<PresentedDelivery> {
    await this.find(id);
    const delivery = await this.deliveries.find(this.uow.db, id, deliveryId);
    if (!delivery) throw deliveryNotFound(id, deliveryId);
    return presentDelivery(delivery);
  }

  /** Sends one delivery again now (whatever its status), keeping its webhook-id. */
  async retryDelivery(id: string, deliveryId: string, actor: Actor): Promise<PresentedDelivery> {
    const { result } = await this.uow.run(actor, async (tx, changes) => {
      const current = await this.subscriptions.lock(tx, id);
      if (!current) throw notFound(id);
      const delivery = await this.deliveries.requeue(tx, id, deliveryId, this.uow.now());
      if (!delivery) throw deliveryNotFound(id, deliveryId);
      changes.event({
        type: 'WebhookDeliveryRetried',
        subjectKind: 'Webhook',
        subjectName: id,
        data: { id, deliveryId, eventId: delivery.eventId },
      });
      return delivery;
    });
    this.dispatcher.wake();
    return presentDelivery(result);
  }

  /**
   * Every event since `since` that the subscription's filter matches, delivered again (rows it had:
   * back to Pending with their ids) or for the first time (events from before it existed).
   */
  async replay(id: string, body: unknown, actor: Actor): Promise<{ requeued: number; added: number }> {
    const parsed = parseBody(replaySchema, body, 'replay');
    const since = new Date(parsed.since);
    const { result } = await this.uow.run(
      actor,
      async (tx, changes) => {
        const current = await this.subscriptions.lock(tx, id);
        if (!current) throw notFound(id);
        const counts = await this.deliveries.replaySince(tx, current, since, this.uow.now());
        changes.event({
          type: 'WebhookReplayed',
          subjectKind: 'Webhook',
          subjectName: id,
          data: { id, since: since.toISOString(), ...counts },
        });
        return counts;
      },
      { timeoutMs: 300_000 },
    );
    this.dispatcher.wake();
    return result;
  }

  private async find(id: string): Promise<StoredWebhook> {
    const found = await this.subscriptions.find(this.uow.db, id);
    if (!found) throw notFound(id);
    return found;
  }

  private async checkUrl(url: string): Promise<void> {
    const reason = await refusedWebhookUrl(url, this.config.WEBHOOK_ALLOW_PRIVATE);
    if (reason) {
      throw new AppError('Invalid', `webhook URL refused: ${reason}`, [
        { field: 'url', type: 'Forbidden', message: `Forbidden: ${reason}` },
      ]);
    }
  }
}

function present(w: StoredWebhook, now: Date): PresentedWebhook {
  const previousValid = w.previousSecret && w.previousSecretUntil && w.previousSecretUntil.getTime() > now.getTime();
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    description: w.description,
    enabled: w.enabled,
    disabledReason: w.disabledReason,
    previousSecretValidUntil: previousValid ? w.previousSecretUntil!.toISOString() : null,
    failingSince: w.failingSince?.toISOString() ?? null,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

function presentDelivery(d: StoredWebhookDelivery): PresentedDelivery {
  return {
    id: d.id,
    webhookId: webhookMessageId(d.id),
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attemptLog,
    nextAttemptAt: d.status === 'Pending' ? d.nextAttemptAt.toISOString() : null,
    createdAt: d.createdAt.toISOString(),
    finishedAt: d.finishedAt?.toISOString() ?? null,
  };
}

function uniqueSorted(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

function notFound(id: string): AppError {
  return new AppError('NotFound', `webhook "${id}" not found`);
}

function deliveryNotFound(id: string, deliveryId: string): AppError {
  return new AppError('NotFound', `delivery "${deliveryId}" of webhook "${id}" not found`);
}

function badContinue(): AppError {
  return new AppError(
    'BadRequest',
    'continue token is not valid: pass the value of `continue` from the previous page',
    [{ field: 'continue', type: 'Invalid value', message: 'Invalid value: not a continue token of this list' }],
  );
}
