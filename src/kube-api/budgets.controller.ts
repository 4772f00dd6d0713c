import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import { BudgetService, type PresentedBudget } from '../budgets/budget.service';
import { Actor, CurrentPrincipal } from '../kernel/auth/principal.decorator';
import type { Principal } from '../kernel/auth/roles';
import type { StoredBudget } from '../kernel/model/stored-budget';
import { compileLabelSelector } from '../kernel/http/label-selection';
import { CLOCK } from '../kernel/tokens';
import type { Clock } from '../kernel/timers/clock';
import { applyPatch, patchTypeOf } from './apply-patch';
import { budgetTable } from './budget-table';
import { checkFieldValidation } from './field-validation';
import { isDryRun, requireWriter } from './kube-access';
import { kubeLimit } from './list-limit';
import { wantsTable } from './table';
import { KubeWatchService } from './watch/kube-watch.service';

type Query = Record<string, string | undefined>;

/**
 * policy/v1 poddisruptionbudgets over BudgetService: the same validation, transactions and derived status
 * as `/v1/namespaces/{ns}/poddisruptionbudgets` (SEMANTICS B.9). `kubectl get pdb` prints its usual columns.
 */
@ApiExcludeController()
@Controller('apis/policy/v1')
export class KubeBudgetsController {
  constructor(
    private readonly budgets: BudgetService,
    private readonly watch: KubeWatchService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('poddisruptionbudgets')
  async listAll(@Query() query: Query, @Headers('accept') accept: string | undefined, @Res() reply: FastifyReply) {
    await this.list(undefined, query, accept, reply);
  }

  @Get('namespaces/:ns/poddisruptionbudgets')
  async listIn(
    @Param('ns') ns: string,
    @Query() query: Query,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    await this.list(ns, query, accept, reply);
  }

  @Get('namespaces/:ns/poddisruptionbudgets/:name')
  get(
    @Param('ns') ns: string,
    @Param('name') name: string,
    @Query() query: Query,
    @Headers('accept') accept: string | undefined,
  ) {
    const budget = this.present(this.budgets.get(ns, name));
    return wantsTable(accept) ? budgetTable([budget], this.clock.now(), query.includeObject, {}) : budget;
  }

  @Get('namespaces/:ns/poddisruptionbudgets/:name/status')
  status(@Param('ns') ns: string, @Param('name') name: string) {
    return this.present(this.budgets.get(ns, name));
  }

  @Post('namespaces/:ns/poddisruptionbudgets')
  @HttpCode(201)
  async create(
    @Param('ns') ns: string,
    @Body() body: unknown,
    @Query() query: Query,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    const name = String((body as { metadata?: { name?: unknown } } | null)?.metadata?.name ?? '');
    requireWriter(p, 'create', 'poddisruptionbudgets', undefined, ns);
    checkFieldValidation(query.fieldValidation, 'PodDisruptionBudget', body);
    const { budget } = await this.budgets.upsert(ns, name, body, actor, {
      createOnly: true,
      dryRun: isDryRun(query.dryRun),
    });
    return this.present(budget);
  }

  @Put('namespaces/:ns/poddisruptionbudgets/:name')
  async update(
    @Param('ns') ns: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Query() query: Query,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'update', 'poddisruptionbudgets', name, ns);
    checkFieldValidation(query.fieldValidation, 'PodDisruptionBudget', body);
    const { budget } = await this.budgets.upsert(ns, name, body, actor, { dryRun: isDryRun(query.dryRun) });
    return this.present(budget);
  }

  /** The three patch types, applied to the budget as stored; the result is written as an update would be. */
  @Patch('namespaces/:ns/poddisruptionbudgets/:name')
  async patch(
    @Param('ns') ns: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Query() query: Query,
    @Req() request: FastifyRequest,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'patch', 'poddisruptionbudgets', name, ns);
    const type = patchTypeOf(request.headers['content-type']);
    const current = this.present(this.budgets.get(ns, name));
    const patched = applyPatch(type, current as unknown as Record<string, unknown>, body);
    const { status: _status, ...object } = patched;
    const { budget } = await this.budgets.upsert(ns, name, object, actor, { dryRun: isDryRun(query.dryRun) });
    return this.present(budget);
  }

  @Delete('namespaces/:ns/poddisruptionbudgets/:name')
  async delete(
    @Param('ns') ns: string,
    @Param('name') name: string,
    @Query() query: Query,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'delete', 'poddisruptionbudgets', name, ns);
    await this.budgets.delete(ns, name, actor, { dryRun: isDryRun(query.dryRun) });
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, group: 'policy', kind: 'poddisruptionbudgets' },
    };
  }

  private async list(namespace: string | undefined, query: Query, accept: string | undefined, reply: FastifyReply) {
    const request = { resource: 'poddisruptionbudgets' as const, namespace, ...query, table: wantsTable(accept) };
    await this.watch.listOrWatch(reply, request, () => {
      const selects = compileLabelSelector(query.labelSelector);
      const limit = kubeLimit(query.limit);
      const page = this.budgets.list(namespace, { limit: limit ?? 5000, continue: query.continue });
      const items = page.items.filter((b) => selects(b.labels)).map((b) => this.present(b));
      const continued = limit !== undefined && page.continue ? { continue: page.continue } : {};
      const meta = { resourceVersion: this.watch.listVersion(), ...continued };
      if (wantsTable(accept)) return budgetTable(items, this.clock.now(), query.includeObject, meta);
      return { kind: 'PodDisruptionBudgetList', apiVersion: 'policy/v1', metadata: meta, items };
    });
  }

  private present(budget: StoredBudget): PresentedBudget {
    return this.budgets.present(budget);
  }
}
