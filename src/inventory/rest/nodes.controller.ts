import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, Res } from '@nestjs/common';
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
import { NodeService } from '../node.service';
import { presentNode } from '../../kernel/http/presenters';
import { ApiProblems, NODE_SCHEMA, listSchema } from '../../kernel/http/api-docs';

@ApiTags('nodes')
@Controller('v1/nodes')
export class NodesController {
  constructor(private readonly nodes: NodeService) {}

  @Get()
  @ApiOperation({
    summary: 'List nodes',
    description:
      'Sorted by name; `labelSelector` in Kubernetes syntax (`a=b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`).',
  })
  @ApiQuery({ name: 'labelSelector', required: false, example: 'pool=gpu' })
  @ApiQuery({ name: 'limit', required: false, example: 500 })
  @ApiQuery({ name: 'continue', required: false })
  @ApiOkResponse({ schema: listSchema(NODE_SCHEMA) })
  @ApiProblems(400)
  list(
    @Query('labelSelector') labelSelector?: string,
    @Query('limit') limit?: string,
    @Query('continue') token?: string,
  ) {
    const page = this.nodes.list({ labelSelector, limit, continue: token });
    return { items: page.items.map(presentNode), ...(page.continue ? { continue: page.continue } : {}) };
  }

  @Get(':name')
  @ApiOperation({ summary: 'Get a node' })
  @ApiOkResponse({ schema: NODE_SCHEMA })
  @ApiProblems(404)
  async get(@Param('name') name: string) {
    return presentNode(await this.nodes.get(name));
  }

  @Put(':name')
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Create or replace a node',
    description:
      'Taints get a server-set `timeAdded` when new; unchanged taints keep theirs. Bound pods are re-evaluated against NoExecute taints in the same transaction. Send `resourceVersion` for optimistic concurrency.',
  })
  @ApiBody({
    schema: NODE_SCHEMA,
    examples: {
      gpu: {
        value: {
          name: 'node-1',
          labels: { pool: 'gpu' },
          taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
          allocatable: { cpu: '8', memory: '32Gi', pods: '110', 'nvidia.com/gpu': '4' },
        },
      },
    },
  })
  @ApiCreatedResponse({ description: 'Created', schema: NODE_SCHEMA })
  @ApiOkResponse({ description: 'Replaced', schema: NODE_SCHEMA })
  @ApiProblems(400, 409, 422)
  async put(
    @Param('name') name: string,
    @Body() body: unknown,
    @Actor() actor: Actor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { node, created } = await this.nodes.upsert(name, body, actor);
    void reply.status(created ? 201 : 200);
    return presentNode(node);
  }

  @Delete(':name')
  @RequiresRole('admin')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a node',
    description: 'Its bound pods become Pending; their pending evictions are cancelled.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems(404)
  async delete(@Param('name') name: string, @Actor() actor: Actor): Promise<void> {
    await this.nodes.delete(name, actor);
  }
}
