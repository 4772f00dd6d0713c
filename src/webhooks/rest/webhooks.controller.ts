import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { ApiProblems, listSchema } from '../../kernel/http/api-docs';
import { WebhookService } from '../webhook.service';

const WEBHOOK_SCHEMA = {
  type: 'object',
  description: 'A webhook subscription; its secret is shown only when created or rotated',
  example: {
    id: '0b6f3c1e-4d7a-4a8e-9f3e-2b1c5d6e7f80',
    url: 'https://hooks.example.com/taintwise',
    events: ['EvictionExecuted'],
    description: 'drain the real pod',
    enabled: true,
    disabledReason: null,
    previousSecretValidUntil: null,
    failingSince: null,
    createdAt: '2026-11-25T08:00:00.000Z',
    updatedAt: '2026-11-25T08:00:00.000Z',
  },
};
const WITH_SECRET_SCHEMA = {
  ...WEBHOOK_SCHEMA,
  example: { ...WEBHOOK_SCHEMA.example, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
};
const DELIVERY_SCHEMA = {
  type: 'object',
  example: {
    id: '42',
    webhookId: 'msg_42',
    eventId: '1017',
    eventType: 'EvictionExecuted',
    status: 'Delivered',
    attempts: [
      { at: '2026-11-25T08:00:01.000Z', statusCode: 503, latencyMs: 12.5, error: 'HTTP 503' },
      { at: '2026-11-25T08:00:06.000Z', statusCode: 200, latencyMs: 3.1 },
    ],
    nextAttemptAt: null,
    createdAt: '2026-11-25T08:00:01.000Z',
    finishedAt: '2026-11-25T08:00:06.000Z',
  },
};

/** Webhook subscriptions and their delivery log (issue 15): admin only. */
@ApiTags('webhooks')
@Controller('v1/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhookService) {}

  @Post()
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Register a webhook',
    description:
      '`{ url, events?, description? }`. The answer carries the signing secret (`whsec_…`) this once. URLs must be http(s); link-local and metadata addresses are refused, private and loopback ones unless WEBHOOK_ALLOW_PRIVATE (422 with the reason).',
  })
  @ApiBody({
    schema: {
      type: 'object',
      example: { url: 'https://hooks.example.com/taintwise', events: ['EvictionExecuted'], description: 'pager' },
    },
  })
  @ApiCreatedResponse({ schema: WITH_SECRET_SCHEMA })
  @ApiProblems(400, 422)
  create(@Body() body: unknown, @Actor() actor: Actor) {
    return this.webhooks.create(body, actor);
  }

  @Get()
  @RequiresRole('admin')
  @ApiOperation({ summary: 'List webhooks', description: 'By creation time; no secrets.' })
  @ApiQuery({ name: 'limit', required: false })
  @ApiQuery({ name: 'continue', required: false })
  @ApiOkResponse({ schema: listSchema(WEBHOOK_SCHEMA) })
  @ApiProblems(400)
  list(@Query('limit') limit?: string, @Query('continue') token?: string) {
    return this.webhooks.list({ limit, continue: token });
  }

  @Get(':id')
  @RequiresRole('admin')
  @ApiOperation({ summary: 'Get a webhook' })
  @ApiOkResponse({ schema: WEBHOOK_SCHEMA })
  @ApiProblems(404)
  get(@Param('id') id: string) {
    return this.webhooks.get(id);
  }

  @Patch(':id')
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Change a webhook',
    description:
      '`{ url?, events?, description?, enabled?, rotateSecret?, secretGraceSeconds? }`. With `rotateSecret: true` the answer carries the new secret once; the previous one also signs for `secretGraceSeconds` (default WEBHOOK_SECRET_GRACE_SECONDS).',
  })
  @ApiBody({ schema: { type: 'object', example: { enabled: false } } })
  @ApiOkResponse({ schema: WEBHOOK_SCHEMA })
  @ApiProblems(400, 404, 422)
  update(@Param('id') id: string, @Body() body: unknown, @Actor() actor: Actor) {
    return this.webhooks.update(id, body, actor);
  }

  @Delete(':id')
  @RequiresRole('admin')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a webhook', description: 'Its pending deliveries are dropped with it.' })
  @ApiProblems(404)
  async delete(@Param('id') id: string, @Actor() actor: Actor): Promise<void> {
    await this.webhooks.delete(id, actor);
  }

  @Get(':id/deliveries')
  @RequiresRole('admin')
  @ApiOperation({
    summary: "A webhook's delivery log",
    description: 'Newest first; each delivery with its attempts (time, status code, latency, error).',
  })
  @ApiQuery({ name: 'status', required: false, enum: ['Pending', 'Delivered', 'Failed'] })
  @ApiQuery({ name: 'limit', required: false })
  @ApiQuery({ name: 'continue', required: false })
  @ApiOkResponse({ schema: listSchema(DELIVERY_SCHEMA) })
  @ApiProblems(400, 404)
  deliveries(
    @Param('id') id: string,
    @Query('status') status?: string,
    @Query('limit') limit?: string,
    @Query('continue') token?: string,
  ) {
    return this.webhooks.listDeliveries(id, { status, limit, continue: token });
  }

  @Get(':id/deliveries/:deliveryId')
  @RequiresRole('admin')
  @ApiOperation({ summary: 'One delivery with its attempts' })
  @ApiOkResponse({ schema: DELIVERY_SCHEMA })
  @ApiProblems(404)
  delivery(@Param('id') id: string, @Param('deliveryId') deliveryId: string) {
    return this.webhooks.getDelivery(id, deliveryId);
  }

  @Post(':id/deliveries/:deliveryId/retry')
  @RequiresRole('admin')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a delivery again now', description: 'Same webhook-id; whatever its status.' })
  @ApiOkResponse({ schema: DELIVERY_SCHEMA })
  @ApiProblems(404)
  retry(@Param('id') id: string, @Param('deliveryId') deliveryId: string, @Actor() actor: Actor) {
    return this.webhooks.retryDelivery(id, deliveryId, actor);
  }

  @Post(':id/replay')
  @RequiresRole('admin')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Deliver every matching event since a time again',
    description:
      '`{ since }` (RFC 3339). Deliveries of those events go back to Pending with their webhook-ids; events the webhook had no delivery for (from before it existed) get one.',
  })
  @ApiBody({ schema: { type: 'object', example: { since: '2026-11-25T07:00:00Z' } } })
  @ApiOkResponse({ schema: { type: 'object', example: { requeued: 12, added: 3 } } })
  @ApiProblems(400, 404)
  replay(@Param('id') id: string, @Body() body: unknown, @Actor() actor: Actor) {
    return this.webhooks.replay(id, body, actor);
  }
}
