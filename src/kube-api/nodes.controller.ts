import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Actor } from '../kernel/auth/principal.decorator';
import { CurrentPrincipal } from '../kernel/auth/principal.decorator';
import type { Principal } from '../kernel/auth/roles';
import { patchTypeOf } from './apply-patch';
import { checkFieldValidation } from './field-validation';
import { isDryRun, requireWriter } from './kube-access';
import { KubeNodesService } from './kube-nodes.service';
import { wantsTable } from './table';
import { KubeWatchService } from './watch/kube-watch.service';

type Query = Record<string, string | undefined>;

/** core/v1 nodes: `/api/v1/nodes[/{name}[/status]]`. */
@ApiExcludeController()
@Controller('api/v1/nodes')
export class NodesController {
  constructor(
    private readonly nodes: KubeNodesService,
    private readonly watch: KubeWatchService,
  ) {}

  @Get()
  async list(
    @Query() query: Query,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.watch.listOrWatch(reply, { resource: 'nodes', ...query, table: wantsTable(accept) }, () => {
      const page = this.nodes.list(query);
      const meta = { resourceVersion: this.watch.listVersion(), ...(page.continue ? { continue: page.continue } : {}) };
      if (wantsTable(accept)) return this.nodes.table(page.items, query.includeObject, meta);
      return { kind: 'NodeList', apiVersion: 'v1', metadata: meta, items: page.items };
    });
  }

  @Get(':name')
  async get(@Param('name') name: string, @Query() query: Query, @Headers('accept') accept: string | undefined) {
    const node = await this.nodes.get(name);
    return wantsTable(accept) ? this.nodes.table([node], query.includeObject, {}) : node;
  }

  @Post()
  @HttpCode(201)
  create(@Body() body: unknown, @Query() query: Query, @CurrentPrincipal() p: Principal, @Actor() actor: Actor) {
    requireWriter(p, 'create', 'nodes');
    checkFieldValidation(query.fieldValidation, 'Node', body);
    return this.nodes.create(body, actor, isDryRun(query.dryRun));
  }

  @Put(':name')
  update(
    @Param('name') name: string,
    @Body() body: unknown,
    @Query() query: Query,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'update', 'nodes', name);
    checkFieldValidation(query.fieldValidation, 'Node', body);
    return this.nodes.update(name, body, actor, isDryRun(query.dryRun));
  }

  @Patch(':name')
  patch(
    @Param('name') name: string,
    @Body() body: unknown,
    @Query() query: Query,
    @Req() request: FastifyRequest,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'patch', 'nodes', name);
    return this.nodes.patch(name, patchTypeOf(request.headers['content-type']), body, actor, isDryRun(query.dryRun));
  }

  @Delete(':name')
  async delete(
    @Param('name') name: string,
    @Query() query: Query,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    requireWriter(p, 'delete', 'nodes', name);
    const node = await this.nodes.delete(name, actor, isDryRun(query.dryRun));
    void reply.status(200);
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name, kind: 'nodes', uid: node.metadata.uid },
    };
  }

  @Get(':name/status')
  status(@Param('name') name: string) {
    return this.nodes.get(name);
  }

  @Patch(':name/status')
  patchStatus(
    @Param('name') name: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'patch', 'nodes/status', name);
    return this.nodes.patchStatus(name, patchTypeOf(request.headers['content-type']), body, actor);
  }

  @Put(':name/status')
  updateStatus(
    @Param('name') name: string,
    @Body() body: unknown,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'update', 'nodes/status', name);
    return this.nodes.patchStatus(name, 'replace', body, actor);
  }
}
