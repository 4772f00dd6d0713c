import { Body, Controller, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { ApiProblems, POD_SCHEMA } from '../../kernel/http/api-docs';
import { presentPod } from '../../kernel/http/presenters';
import { EvictionApiService } from '../eviction-api.service';

@ApiTags('evictions')
@Controller('v1')
export class EvictionApiController {
  constructor(private readonly evictions: EvictionApiService) {}

  @Post('namespaces/:namespace/pods/:name/eviction')
  @RequiresRole('operator')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Evict a pod through the Eviction API, respecting its disruption budget',
    description:
      "The eviction subresource's rules (SEMANTICS B.9.3): a pod that is not Running is evicted without a budget check; one budget allowing no disruption → 429 `Cannot evict pod as it would violate the pod's disruption budget.` with the budget named; more than one budget → 409. Allowed evictions are recorded as NoExecute evictions are (row, event, stream).",
  })
  @ApiQuery({ name: 'dryRun', required: false, description: '`true` or `All`: decide, write nothing' })
  @ApiBody({
    required: false,
    schema: {
      type: 'object',
      description: 'policy/v1 Eviction (optional)',
      example: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-1', namespace: 'shop' } },
    },
  })
  @ApiCreatedResponse({
    schema: {
      type: 'object',
      properties: {
        evicted: { type: 'boolean', description: 'false: the pod had already finished or been evicted' },
        dryRun: { type: 'boolean' },
        budget: { type: 'string', description: 'the budget whose allowance was used' },
        pod: POD_SCHEMA,
      },
    },
  })
  @ApiProblems(400, 404, 409)
  async evict(
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Query('dryRun') dryRun: string | undefined,
    @Actor() actor: Actor,
  ) {
    const outcome = await this.evictions.evict(namespace, name, body, actor, {
      dryRun: dryRun === 'true' || dryRun === 'All',
    });
    return {
      evicted: outcome.evicted,
      dryRun: outcome.dryRun,
      ...(outcome.budget ? { budget: outcome.budget } : {}),
      pod: presentPod(outcome.pod),
    };
  }
}
