import { ArgsType, Field, Float, ID, InputType, Int, ObjectType } from '@nestjs/graphql';
import type { PresentedDelivery, PresentedWebhook, WebhookWithSecret } from '../webhook.service';

@ObjectType('Webhook', { description: 'A webhook subscription (issue 15); its secret is never listed.' })
export class WebhookModel {
  @Field(() => ID) id!: string;
  @Field() url!: string;
  @Field(() => [String], { description: 'event types delivered; empty = every type' }) events!: string[];
  @Field() description!: string;
  @Field() enabled!: boolean;
  @Field(() => String, { nullable: true }) disabledReason!: string | null;
  @Field(() => String, { nullable: true, description: 'until when the previous secret also signs' })
  previousSecretValidUntil!: string | null;
  @Field(() => String, { nullable: true, description: 'since when every attempt has failed' })
  failingSince!: string | null;
  @Field() createdAt!: string;
  @Field() updatedAt!: string;
}

@ObjectType('WebhookWithSecret', { description: 'A webhook just created or rotated, with its secret shown this once.' })
export class WebhookWithSecretModel extends WebhookModel {
  @Field({ description: 'whsec_<base64>: verify deliveries with it (Standard Webhooks)' }) secret!: string;
}

@ObjectType('UpdatedWebhook', {
  description: 'A webhook after a change; `secret` only when it was rotated (shown once).',
})
export class UpdatedWebhookModel extends WebhookModel {
  @Field(() => String, { nullable: true, description: 'the new whsec_ secret after rotateSecret; null otherwise' })
  secret!: string | null;
}

@ObjectType('WebhookAttempt')
export class WebhookAttemptModel {
  @Field() at!: string;
  @Field(() => Int, { nullable: true }) statusCode?: number | null;
  @Field(() => Float) latencyMs!: number;
  @Field(() => String, { nullable: true }) error?: string | null;
}

@ObjectType('WebhookDelivery')
export class WebhookDeliveryModel {
  @Field(() => ID) id!: string;
  @Field({ description: 'the webhook-id header of every attempt' }) webhookId!: string;
  @Field() eventId!: string;
  @Field() eventType!: string;
  @Field({ description: 'Pending, Delivered or Failed' }) status!: string;
  @Field(() => [WebhookAttemptModel]) attempts!: WebhookAttemptModel[];
  @Field(() => String, { nullable: true }) nextAttemptAt!: string | null;
  @Field() createdAt!: string;
  @Field(() => String, { nullable: true }) finishedAt!: string | null;
}

@ObjectType('WebhookReplay')
export class WebhookReplayModel {
  @Field(() => Int, { description: 'deliveries sent again with their webhook-ids' }) requeued!: number;
  @Field(() => Int, { description: 'events the webhook had no delivery for' }) added!: number;
}

@InputType('CreateWebhookInput')
export class CreateWebhookInput {
  @Field() url!: string;
  @Field(() => [String], { nullable: true }) events?: string[] | null;
  @Field(() => String, { nullable: true }) description?: string | null;
}

@InputType('UpdateWebhookInput')
export class UpdateWebhookInput {
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => [String], { nullable: true }) events?: string[] | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
  @Field(() => Boolean, { nullable: true }) rotateSecret?: boolean | null;
  @Field(() => Int, { nullable: true }) secretGraceSeconds?: number | null;
}

@ArgsType()
export class WebhooksArgs {
  @Field(() => Int, { nullable: true, defaultValue: 100 }) first?: number;
  @Field({ nullable: true }) after?: string;
}

@ArgsType()
export class WebhookDeliveriesArgs {
  @Field(() => ID) id!: string;
  @Field({ nullable: true, description: 'Pending, Delivered or Failed' }) status?: string;
  @Field(() => Int, { nullable: true, defaultValue: 100 }) first?: number;
  @Field({ nullable: true }) after?: string;
}

export function toWebhookModel(w: PresentedWebhook | WebhookWithSecret): WebhookModel {
  return Object.assign(new WebhookModel(), w);
}

export function toDeliveryModel(d: PresentedDelivery): WebhookDeliveryModel {
  return Object.assign(new WebhookDeliveryModel(), d);
}
