import { applyDecorators, Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Actor } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { PodService } from '../pod.service';
import { presentPod } from '../../kernel/http/presenters';
import { ApiProblems, POD_SCHEMA, listSchema } from '../../kernel/http/api-docs';

const ListQueries = () =>
  applyDecorators(
    ApiQuery({ name: 'nodeName', required: false }),
    ApiQuery({ name: 'phase', required: false, enum: ['Pending', 'Running', 'Succeeded', 'Failed', 'Evicted'] }),
    ApiQuery({ name: 'limit', required: false, example: 500 }),
    ApiQuery({ name: 'continue', required: false }),
  );

@ApiTags('pods')
@Controller('v1')
export class PodsController {
  constructor(private readonly pods: PodService) {}

  @Get('pods')
  @ApiOperation({ summary: 'List pods in every namespace', description: 'Ordered by namespace, then name.' })
  @ListQueries()
  @ApiOkResponse({ schema: listSchema(POD_SCHEMA) })
  @ApiProblems(400)
  async listAll(
    @Query('nodeName') nodeName?: string,
    @Query('phase') phase?: string,
    @Query('limit') limit?: string,
    @Query('continue') token?: string,
  ) {
    return this.page(await this.pods.list({ nodeName, phase }, { limit, continue: token }));
  }

  @Get('namespaces/:namespace/pods')
  @ApiOperation({ summary: 'List pods in a namespace' })
  @ListQueries()
  @ApiOkResponse({ schema: listSchema(POD_SCHEMA) })
  @ApiProblems(400)
  async listNamespace(
    @Param('namespace') namespace: string,
    @Query('nodeName') nodeName?: string,
    @Query('phase') phase?: string,
    @Query('limit') limit?: string,
    @Query('continue') token?: string,
  ) {
    return this.page(await this.pods.list({ namespace, nodeName, phase }, { limit, continue: token }));
  }

  @Get('namespaces/:namespace/pods/:name')
  @ApiOperation({ summary: 'Get a pod' })
  @ApiOkResponse({ schema: POD_SCHEMA })
  @ApiProblems(404)
  async get(@Param('namespace') namespace: string, @Param('name') name: string) {
    return presentPod(await this.pods.get(namespace, name));
  }

  @Put('namespaces/:namespace/pods/:name')
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'Create or replace a pod',
    description:
      'Admission defaults (SEMANTICS A.6) are applied and visible in the answer. A `nodeName` on create binds the pod without scheduler checks (NoExecute taints still apply). On replace `nodeName` cannot change (409) and existing tolerations may only change `tolerationSeconds`.',
  })
  @ApiBody({
    schema: POD_SCHEMA,
    examples: {
      web: {
        value: {
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }],
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
        },
      },
    },
  })
  @ApiCreatedResponse({ description: 'Created', schema: POD_SCHEMA })
  @ApiOkResponse({ description: 'Replaced', schema: POD_SCHEMA })
  @ApiProblems(400, 404, 409, 422)
  async put(
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Actor() actor: Actor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { pod, created } = await this.pods.upsert(namespace, name, body, actor);
    void reply.status(created ? 201 : 200);
    return presentPod(pod);
  }

  @Delete('namespaces/:namespace/pods/:name')
  @RequiresRole('operator')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a pod', description: 'Its pending eviction, if any, is cancelled.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems(404)
  async delete(
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Actor() actor: Actor,
  ): Promise<void> {
    await this.pods.delete(namespace, name, actor);
  }

  private page(page: { items: Parameters<typeof presentPod>[0][]; continue?: string }) {
    return { items: page.items.map(presentPod), ...(page.continue ? { continue: page.continue } : {}) };
  }
}
