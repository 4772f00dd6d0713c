import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Actor } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { ApiProblems, listSchema } from '../../kernel/http/api-docs';
import { BudgetService } from '../budget.service';
import type { StoredBudget } from '../../kernel/model/stored-budget';

const BUDGET_SCHEMA = {
  type: 'object',
  description: 'policy/v1 PodDisruptionBudget; status derived from the pods (SEMANTICS B.9.2)',
  example: {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
  },
};

@ApiTags('disruption budgets')
@Controller('v1')
export class BudgetsController {
  constructor(private readonly budgets: BudgetService) {}

  @Get('poddisruptionbudgets')
  @ApiOperation({ summary: 'List disruption budgets in every namespace', description: 'By namespace, then name.' })
  @ApiQuery({ name: 'limit', required: false })
  @ApiQuery({ name: 'continue', required: false })
  @ApiOkResponse({ schema: listSchema(BUDGET_SCHEMA) })
  @ApiProblems(400)
  listAll(@Query('limit') limit?: string, @Query('continue') token?: string) {
    return this.page(this.budgets.list(undefined, { limit, continue: token }));
  }

  @Get('namespaces/:namespace/poddisruptionbudgets')
  @ApiOperation({ summary: 'List disruption budgets in a namespace' })
  @ApiQuery({ name: 'limit', required: false })
  @ApiQuery({ name: 'continue', required: false })
  @ApiOkResponse({ schema: listSchema(BUDGET_SCHEMA) })
  @ApiProblems(400)
  listNamespace(
    @Param('namespace') namespace: string,
    @Query('limit') limit?: string,
    @Query('continue') token?: string,
  ) {
    return this.page(this.budgets.list(namespace, { limit, continue: token }));
  }

  @Get('namespaces/:namespace/poddisruptionbudgets/:name')
  @ApiOperation({ summary: 'Get a disruption budget with its status' })
  @ApiOkResponse({ schema: BUDGET_SCHEMA })
  @ApiProblems(404)
  get(@Param('namespace') namespace: string, @Param('name') name: string) {
    return this.present(this.budgets.get(namespace, name));
  }

  @Put('namespaces/:namespace/poddisruptionbudgets/:name')
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'Create or replace a disruption budget',
    description:
      "Kubernetes' validation (minAvailable and maxUnavailable not both, non-negative or a percentage ≤ 100%, the selector); neither set means minAvailable 1. `metadata.resourceVersion` makes the replace conditional (409).",
  })
  @ApiBody({ schema: BUDGET_SCHEMA })
  @ApiCreatedResponse({ description: 'Created', schema: BUDGET_SCHEMA })
  @ApiOkResponse({ description: 'Replaced', schema: BUDGET_SCHEMA })
  @ApiProblems(400, 409, 422)
  async put(
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Actor() actor: Actor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { budget, created } = await this.budgets.upsert(namespace, name, body, actor);
    void reply.status(created ? 201 : 200);
    return this.present(budget);
  }

  @Delete('namespaces/:namespace/poddisruptionbudgets/:name')
  @RequiresRole('operator')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a disruption budget', description: 'Evictions it held are released.' })
  @ApiProblems(404)
  async delete(
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Actor() actor: Actor,
  ): Promise<void> {
    await this.budgets.delete(namespace, name, actor);
  }

  private present(budget: StoredBudget) {
    return this.budgets.present(budget);
  }

  private page(page: { items: StoredBudget[]; continue?: string }) {
    return { items: page.items.map((b) => this.present(b)), ...(page.continue ? { continue: page.continue } : {}) };
  }
}
