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
import type { FastifyReply, FastifyRequest } from 'fastify';
import { patchTypeOf } from './apply-patch';
import { ApiExcludeController } from '@nestjs/swagger';
import { Actor, CurrentPrincipal } from '../kernel/auth/principal.decorator';
import type { Principal } from '../kernel/auth/roles';
import { AppError } from '../kernel/errors/app-error';
import { checkFieldValidation } from './field-validation';
import { isDryRun, requireWriter } from './kube-access';
import { KubePodsService } from './kube-pods.service';
import type { KubePod } from './pod-object';
import { wantsTable } from './table';
import { KubeWatchService } from './watch/kube-watch.service';

type Query = Record<string, string | undefined>;

/** core/v1 pods (`/api/v1/pods`, `/api/v1/namespaces/{ns}/pods[/{name}[/binding]]`) and namespaces. */
@ApiExcludeController()
@Controller('api/v1')
export class PodsController {
  constructor(
    private readonly pods: KubePodsService,
    private readonly watch: KubeWatchService,
  ) {}

  @Get('pods')
  listAll(@Query() query: Query, @Headers('accept') accept: string | undefined, @Res() reply: FastifyReply) {
    return this.list(undefined, query, accept, reply);
  }

  @Get('namespaces/:ns/pods')
  listIn(
    @Param('ns') ns: string,
    @Query() query: Query,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    return this.list(ns, query, accept, reply);
  }

  @Get('namespaces/:ns/pods/:name')
  async get(
    @Param('ns') ns: string,
    @Param('name') name: string,
    @Query() query: Query,
    @Headers('accept') accept: string | undefined,
  ) {
    const pod = await this.pods.get(ns, name);
    return wantsTable(accept) ? this.pods.table([pod], query.includeObject, {}) : pod;
  }

  @Post('namespaces/:ns/pods')
  @HttpCode(201)
  create(
    @Param('ns') ns: string,
    @Body() body: unknown,
    @Query() query: Query,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'create', 'pods', undefined, ns);
    checkFieldValidation(query.fieldValidation, 'Pod', body);
    return this.pods.create(ns, body, actor, isDryRun(query.dryRun));
  }

  @Put('namespaces/:ns/pods/:name')
  update(
    @Param('ns') ns: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Query() query: Query,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'update', 'pods', name, ns);
    checkFieldValidation(query.fieldValidation, 'Pod', body);
    return this.pods.update(ns, name, body, actor, isDryRun(query.dryRun));
  }

  @Patch('namespaces/:ns/pods/:name')
  patch(
    @Param('ns') ns: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Query() query: Query,
    @Req() request: FastifyRequest,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'patch', 'pods', name, ns);
    const type = patchTypeOf(request.headers['content-type']);
    return this.pods.patch(ns, name, type, body, actor, isDryRun(query.dryRun));
  }

  @Delete('namespaces/:ns/pods/:name')
  async delete(
    @Param('ns') ns: string,
    @Param('name') name: string,
    @Query() query: Query,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'delete', 'pods', name, ns);
    return this.pods.delete(ns, name, actor, isDryRun(query.dryRun));
  }

  @Post('namespaces/:ns/pods/:name/binding')
  @HttpCode(201)
  async bind(
    @Param('ns') ns: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'create', 'pods/binding', name, ns);
    await this.pods.bind(ns, name, body, { ...actor, role: p.role });
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
  }

  /** policy/v1 Eviction: the eviction subresource's budget rules (SEMANTICS B.9.3); 429 while a budget forbids it. */
  @Post('namespaces/:ns/pods/:name/eviction')
  @HttpCode(201)
  async evict(
    @Param('ns') ns: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Query() query: Query,
    @CurrentPrincipal() p: Principal,
    @Actor() actor: Actor,
  ) {
    requireWriter(p, 'create', 'pods/eviction', name, ns);
    await this.pods.evict(ns, name, body, actor, isDryRun(query.dryRun));
    return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
  }

  @Get('namespaces')
  namespaces(@Headers('accept') accept: string | undefined) {
    const items = this.pods.namespaces().map(namespaceObject);
    if (!wantsTable(accept)) return { kind: 'NamespaceList', apiVersion: 'v1', metadata: {}, items };
    return {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: {},
      columnDefinitions: [
        { name: 'Name', type: 'string', format: 'name', description: 'Name', priority: 0 },
        { name: 'Status', type: 'string', format: '', description: 'The status of the namespace', priority: 0 },
      ],
      rows: items.map((n) => ({
        cells: [n.metadata.name, 'Active'],
        object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: n.metadata },
      })),
    };
  }

  @Get('namespaces/:name')
  namespace(@Param('name') name: string) {
    if (!this.pods.namespaces().includes(name)) {
      throw new AppError('NotFound', `namespaces "${name}" not found`, [], { kube: { name, kind: 'namespaces' } });
    }
    return namespaceObject(name);
  }

  private async list(ns: string | undefined, query: Query, accept: string | undefined, reply: FastifyReply) {
    const request = { resource: 'pods' as const, namespace: ns, ...query, table: wantsTable(accept) };
    await this.watch.listOrWatch(reply, request, async () => {
      const page = await this.pods.list(ns, query);
      const meta = { resourceVersion: this.watch.listVersion(), ...(page.continue ? { continue: page.continue } : {}) };
      if (wantsTable(accept)) return this.pods.table(page.items, query.includeObject, meta);
      return { kind: 'PodList', apiVersion: 'v1', metadata: meta, items: page.items satisfies KubePod[] };
    });
  }
}

/** taintwise has no namespace objects: each one pods use is shown Active. */
function namespaceObject(name: string) {
  return {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}
