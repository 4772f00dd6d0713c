import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiProblems, TAINT_SCHEMA, listSchema } from '../../kernel/http/api-docs';
import { EvictionHistoryService } from '../eviction-history.service';
import { presentEviction } from '../../kernel/persistence/repositories/eviction.repository';

export const EVICTION_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    pod: {
      type: 'object',
      properties: { namespace: { type: 'string' }, name: { type: 'string' }, uid: { type: 'string' } },
    },
    node: { type: 'string' },
    taints: { type: 'array', items: TAINT_SCHEMA, description: 'the NoExecute taints on the node when it was decided' },
    status: { type: 'string', enum: ['Scheduled', 'Held', 'Executed', 'Cancelled', 'Failed'] },
    createdAt: { type: 'string', format: 'date-time' },
    evictAt: {
      type: 'string',
      format: 'date-time',
      description: 'max(taint.timeAdded, pod.boundAt) + tolerationSeconds; createdAt for an immediate eviction',
    },
    executedAt: { type: 'string', format: 'date-time' },
    cancelledAt: { type: 'string', format: 'date-time' },
    reason: { type: 'string', example: 'untolerated NoExecute taint maintenance:NoExecute' },
    heldAt: { type: 'string', format: 'date-time', description: 'Held rows: since when a disruption budget holds it' },
    heldBy: { type: 'array', items: { type: 'string' }, description: 'Held rows: the budgets (namespace/name)' },
    forecast: {
      type: 'boolean',
      description: "a mirrored pod's eviction (SYNC_KUBECONFIG): the cluster evicts, taintwise forecasts it",
    },
    forecastErrorMs: {
      type: 'integer',
      description: 'forecasts the cluster carried out: when the pod left the cluster minus evictAt (ms)',
    },
    overdue: {
      type: 'boolean',
      description:
        'Scheduled forecasts: more than SYNC_FORECAST_GRACE_SECONDS past evictAt, not evicted by the cluster',
    },
  },
};

@ApiTags('evictions')
@Controller('v1/evictions')
export class EvictionsController {
  constructor(private readonly history: EvictionHistoryService) {}

  @Get()
  @ApiOperation({
    summary: 'Eviction history',
    description: 'Newest first. An executed eviction unbound its pod (nodeName null, phase Evicted).',
  })
  @ApiQuery({ name: 'status', required: false, enum: ['Scheduled', 'Held', 'Executed', 'Cancelled', 'Failed'] })
  @ApiQuery({ name: 'node', required: false })
  @ApiQuery({ name: 'namespace', required: false })
  @ApiQuery({ name: 'limit', required: false, example: 500 })
  @ApiQuery({ name: 'continue', required: false })
  @ApiOkResponse({ schema: listSchema(EVICTION_SCHEMA) })
  @ApiProblems(400)
  async list(
    @Query('status') status?: string,
    @Query('node') node?: string,
    @Query('namespace') namespace?: string,
    @Query('limit') limit?: string,
    @Query('continue') token?: string,
  ) {
    const page = await this.history.list({ status, node, namespace, limit, continue: token });
    const clock = this.history.forecastClock();
    return {
      items: page.items.map((e) => presentEviction(e, clock)),
      ...(page.continue ? { continue: page.continue } : {}),
    };
  }
}
