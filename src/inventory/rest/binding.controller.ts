import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Actor, CurrentPrincipal } from '../../kernel/auth/principal.decorator';
import type { Principal } from '../../kernel/auth/roles';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { BindingService } from '../binding.service';
import { presentPod } from '../../kernel/http/presenters';
import { ApiProblems, POD_SCHEMA, PROBLEM_SCHEMA } from '../../kernel/http/api-docs';

const BINDING_CONFLICT = {
  description:
    'The pod is not Pending and unbound, or (without `force`) the node is infeasible: `reasons` lists every failing filter, `message` is the FitError text',
  content: {
    'application/problem+json': {
      schema: {
        ...PROBLEM_SCHEMA,
        properties: {
          ...PROBLEM_SCHEMA.properties,
          node: { type: 'string' },
          message: { type: 'string' },
          reasons: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                plugin: {
                  type: 'string',
                  enum: ['NodeUnschedulable', 'TaintToleration', 'NodeAffinity', 'NodeResourcesFit'],
                },
                message: { type: 'string' },
                taint: { type: 'object' },
                resource: { type: 'string' },
              },
            },
          },
        },
      },
      example: {
        type: 'about:blank',
        title: 'Conflict',
        status: 409,
        detail:
          'pod default/web-1 cannot be bound to node node-4: 0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}.',
        node: 'node-4',
        message: '0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}.',
        reasons: [
          {
            plugin: 'TaintToleration',
            message: 'node(s) had untolerated taint {dedicated: gpu}',
            taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
          },
        ],
      },
    },
  },
};

@ApiTags('pods')
@Controller('v1/namespaces/:namespace/pods/:name/binding')
export class BindingController {
  constructor(private readonly bindings: BindingService) {}

  @Post()
  @RequiresRole('operator')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Bind a pending pod to a node',
    description:
      'The pod must be Pending and unbound (409 otherwise) and the node must exist (404). Without `force`, the scheduler filters (NodeUnschedulable, TaintToleration, NodeAffinity, NodeResourcesFit) decide first: an infeasible node is a 409 whose `reasons` list every failing check and whose `message` is the FitError text. `force: true` skips them, as `spec.nodeName` does in Kubernetes; a NoExecute taint the pod does not tolerate still evicts it at once (the answer then shows it Evicted). The answer is the pod after the binding.',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['nodeName'],
      properties: { nodeName: { type: 'string', example: 'node-1' }, force: { type: 'boolean', default: false } },
    },
    examples: { checked: { value: { nodeName: 'node-1' } }, forced: { value: { nodeName: 'node-4', force: true } } },
  })
  @ApiOkResponse({
    description:
      'Bound (phase Running, boundAt now), or Evicted at once after a forced binding onto an untolerated NoExecute taint',
    schema: POD_SCHEMA,
  })
  @ApiConflictResponse(BINDING_CONFLICT)
  @ApiProblems(400, 404)
  async bindPod(
    @Param('namespace') namespace: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Actor() actor: Actor,
    @CurrentPrincipal() who: Principal,
  ) {
    return presentPod(await this.bindings.bind(namespace, name, body, { ...actor, role: who.role }));
  }
}
