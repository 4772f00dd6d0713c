import { Body, Controller, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Actor } from '../kernel/auth/principal.decorator';
import { RequiresRole } from '../kernel/auth/public.decorator';
import { presentNode, presentTaint } from '../kernel/http/presenters';
import { ApiProblems, NODE_SCHEMA, TAINT_SCHEMA, EVICTION_COUNTS_SCHEMA } from '../kernel/http/api-docs';
import { TaintMutationService, type ApplyTaintsResult, type NodeMutationResult } from './taint-mutation.service';

const APPLY_TAINTS_BODY = {
  type: 'object',
  required: ['taints'],
  description: 'Exactly one of `nodes`, `labelSelector`, `all: true`.',
  properties: {
    nodes: { type: 'array', items: { type: 'string' }, example: ['n1', 'n2'] },
    labelSelector: { type: 'string', example: 'pool=gpu' },
    all: { type: 'boolean' },
    taints: {
      type: 'array',
      items: { type: 'string' },
      description: 'kubectl taint specs: `key[=value]:Effect` adds, `key[:Effect]-` removes',
      example: ['dedicated=gpu:NoSchedule', 'maintenance:NoExecute', 'legacy-', 'old:NoSchedule-'],
    },
    overwrite: {
      type: 'boolean',
      default: false,
      description: 'replace a taint with the same key and effect (kubectl --overwrite)',
    },
    dryRun: {
      type: 'boolean',
      default: false,
      description: 'compute the answer (evictions included) and write nothing',
    },
    respectDisruptionBudgets: {
      type: 'boolean',
      default: false,
      description:
        'the NoExecute taints added evict a pod only while every disruption budget selecting it allows a disruption; the others are held (status Held) and released, oldest first, when budgets allow (SEMANTICS B.9.6)',
    },
  },
};

const APPLY_TAINTS_ANSWER = {
  type: 'object',
  properties: {
    nodes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          taints: { type: 'array', items: TAINT_SCHEMA },
          changed: { type: 'boolean' },
          operation: { type: 'string', enum: ['tainted', 'untainted', 'modified'] },
        },
      },
    },
    evictions: EVICTION_COUNTS_SCHEMA,
    dryRun: { type: 'boolean' },
  },
};

const NODE_MUTATION_ANSWER = {
  type: 'object',
  properties: { node: NODE_SCHEMA, changed: { type: 'boolean' }, evictions: EVICTION_COUNTS_SCHEMA },
};

@ApiTags('taints')
@Controller('v1')
export class TaintsController {
  constructor(private readonly taints: TaintMutationService) {}

  @Post('taints')
  @HttpCode(200)
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'kubectl taint: add, overwrite or remove taints on nodes',
    description:
      'Atomic across every selected node: the nodes are locked in name order and a refusal on any node (existing taint without `overwrite` → 409, removing a taint that is not there → 404, bad spec or add-and-remove of one taint → 400; the message names the node and the taint) changes nothing anywhere. NoExecute taints evict or schedule evictions in the same transaction (untolerated: at once; tolerated with tolerationSeconds: at max(timeAdded, boundAt) + seconds).',
  })
  @ApiBody({
    schema: APPLY_TAINTS_BODY,
    examples: {
      maintenance: { value: { nodes: ['n1'], taints: ['maintenance=true:NoExecute'] } },
      gpuPool: { value: { labelSelector: 'pool=gpu', taints: ['dedicated=gpu:NoSchedule'], overwrite: true } },
      remove: { value: { all: true, taints: ['maintenance-'], dryRun: true } },
    },
  })
  @ApiOkResponse({ schema: APPLY_TAINTS_ANSWER })
  @ApiProblems(400, 404, 409)
  async apply(@Body() body: unknown, @Actor() actor: Actor) {
    return presentApplyResult(await this.taints.applyTaints(body, actor));
  }

  @Post('nodes/:name/cordon')
  @HttpCode(200)
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'kubectl cordon',
    description:
      'Sets `unschedulable` and adds `node.kubernetes.io/unschedulable:NoSchedule` (an existing one keeps its timeAdded). Evicts nobody.',
  })
  @ApiParam({ name: 'name', example: 'n1' })
  @ApiOkResponse({ schema: NODE_MUTATION_ANSWER })
  @ApiProblems(404)
  async cordon(@Param('name') name: string, @Actor() actor: Actor) {
    return presentNodeResult(await this.taints.setUnschedulable(name, true, actor));
  }

  @Post('nodes/:name/uncordon')
  @HttpCode(200)
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'kubectl uncordon',
    description: 'Clears `unschedulable` and removes `node.kubernetes.io/unschedulable:NoSchedule`.',
  })
  @ApiParam({ name: 'name', example: 'n1' })
  @ApiOkResponse({ schema: NODE_MUTATION_ANSWER })
  @ApiProblems(404)
  async uncordon(@Param('name') name: string, @Actor() actor: Actor) {
    return presentNodeResult(await this.taints.setUnschedulable(name, false, actor));
  }

  @Put('nodes/:name/conditions')
  @RequiresRole('operator')
  @ApiOperation({
    summary: 'Report node conditions',
    description:
      "Replaces the node's conditions and derives the node-lifecycle taints, stamped with the report time: Ready=False → `node.kubernetes.io/not-ready` NoSchedule + NoExecute, Ready=Unknown → `unreachable` NoSchedule + NoExecute, Ready=True removes both; MemoryPressure/DiskPressure/PIDPressure/NetworkUnavailable=True → their NoSchedule taints. A NoExecute lifecycle taint evicts per tolerations (the admission default tolerates it for 300 s). An unchanged condition keeps its taint and clock.",
  })
  @ApiParam({ name: 'name', example: 'n1' })
  @ApiBody({
    schema: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'status'],
        properties: {
          type: { type: 'string', example: 'Ready' },
          status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
          reason: { type: 'string' },
          message: { type: 'string' },
        },
      },
    },
    examples: {
      notReady: { value: [{ type: 'Ready', status: 'False' }] },
      ready: {
        value: [
          { type: 'Ready', status: 'True' },
          { type: 'MemoryPressure', status: 'False' },
        ],
      },
    },
  })
  @ApiOkResponse({ schema: NODE_MUTATION_ANSWER })
  @ApiProblems(400, 404, 422)
  async conditions(@Param('name') name: string, @Body() body: unknown, @Actor() actor: Actor) {
    return presentNodeResult(await this.taints.setConditions(name, body, actor));
  }
}

export function presentApplyResult(r: ApplyTaintsResult): Record<string, unknown> {
  return {
    nodes: r.nodes.map((n) => ({
      name: n.name,
      taints: n.taints.map(presentTaint),
      changed: n.changed,
      operation: n.operation,
    })),
    evictions: r.evictions,
    dryRun: r.dryRun,
    ...(r.writeThrough ? { writeThrough: true } : {}),
  };
}

export function presentNodeResult(r: NodeMutationResult): Record<string, unknown> {
  return { node: presentNode(r.node), changed: r.changed, evictions: r.evictions };
}
