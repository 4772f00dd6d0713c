import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';

/** RFC 9457 problem+json, the body of every error (API.md "Errors"). */
export const PROBLEM_SCHEMA = {
  type: 'object',
  properties: {
    type: { type: 'string', example: 'about:blank' },
    title: { type: 'string', example: 'Unprocessable Entity' },
    status: { type: 'integer', example: 422 },
    detail: {
      type: 'string',
      example:
        'Node "n1" is invalid: taints[0].effect: Unsupported value: "NoScheduled": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: { type: 'string', example: 'taints[0].effect' }, message: { type: 'string' } },
      },
    },
    requestId: { type: 'string' },
  },
  required: ['type', 'title', 'status', 'detail'],
};

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: PROBLEM_SCHEMA } },
});

/** The error answers most routes share, documented once. */
export function ApiProblems(...codes: Array<400 | 404 | 409 | 422>) {
  const decorators = [
    ApiUnauthorizedResponse(problem('Missing or invalid API key')),
    ApiForbiddenResponse(problem("The key's role is too low")),
  ];
  if (codes.includes(400))
    decorators.push(
      ApiBadRequestResponse(problem('Malformed body, wrong types or unknown fields (field paths in `errors`)')),
    );
  if (codes.includes(404)) decorators.push(ApiNotFoundResponse(problem('No such object')));
  if (codes.includes(409))
    decorators.push(
      ApiConflictResponse(
        problem('Conflict: stale resourceVersion, infeasible binding, existing taint without overwrite'),
      ),
    );
  if (codes.includes(422))
    decorators.push(
      ApiUnprocessableEntityResponse(
        problem('Breaks the Kubernetes validation rules (field paths and messages as Kubernetes words them)'),
      ),
    );
  return applyDecorators(...decorators);
}

export const TAINT_SCHEMA = {
  type: 'object',
  required: ['key', 'effect'],
  properties: {
    key: { type: 'string', example: 'dedicated' },
    value: { type: 'string', example: 'gpu' },
    effect: { type: 'string', enum: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] },
    timeAdded: { type: 'string', format: 'date-time', readOnly: true },
  },
};

export const TOLERATION_SCHEMA = {
  type: 'object',
  properties: {
    key: { type: 'string', example: 'dedicated' },
    operator: { type: 'string', enum: ['Equal', 'Exists', 'Gt', 'Lt'] },
    value: { type: 'string', example: 'gpu' },
    effect: { type: 'string', enum: ['', 'NoSchedule', 'PreferNoSchedule', 'NoExecute'] },
    tolerationSeconds: { type: 'integer', example: 300 },
  },
};

export const NODE_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', example: 'node-1' },
    labels: { type: 'object', additionalProperties: { type: 'string' }, example: { zone: 'a' } },
    taints: { type: 'array', items: TAINT_SCHEMA },
    unschedulable: { type: 'boolean' },
    conditions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string', example: 'Ready' },
          status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
        },
      },
    },
    allocatable: {
      type: 'object',
      nullable: true,
      additionalProperties: { type: 'string' },
      example: { cpu: '4', memory: '16Gi', pods: '110' },
    },
    resourceVersion: { type: 'string', example: '7' },
    createdAt: { type: 'string', format: 'date-time', readOnly: true },
    updatedAt: { type: 'string', format: 'date-time', readOnly: true },
  },
};

export const POD_SPEC_SCHEMA = {
  type: 'object',
  properties: {
    tolerations: { type: 'array', items: TOLERATION_SCHEMA },
    nodeSelector: { type: 'object', additionalProperties: { type: 'string' } },
    affinity: {
      type: 'object',
      nullable: true,
      example: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'pool', operator: 'In', values: ['gpu'] }] }],
          },
        },
      },
    },
    resources: { type: 'object', example: { requests: { cpu: '100m', memory: '128Mi' } } },
    priority: { type: 'integer' },
    owner: { type: 'object', nullable: true, example: { kind: 'DaemonSet', name: 'fluentd' } },
    hostNetwork: { type: 'boolean' },
  },
};

export const POD_SCHEMA = {
  type: 'object',
  properties: {
    namespace: { type: 'string', example: 'default' },
    name: { type: 'string', example: 'web-1' },
    uid: { type: 'string' },
    nodeName: { type: 'string', nullable: true },
    phase: { type: 'string', enum: ['Pending', 'Running', 'Succeeded', 'Failed', 'Evicted'] },
    boundAt: { type: 'string', format: 'date-time', nullable: true },
    ...POD_SPEC_SCHEMA.properties,
    resourceVersion: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
};

export const listSchema = (items: object) => ({
  type: 'object',
  properties: {
    items: { type: 'array', items },
    continue: { type: 'string', description: 'pass as ?continue= for the next page; absent on the last page' },
  },
});

/** What a change did to evictions (taint mutations, imports, node and pod writes). */
export const EVICTION_COUNTS_SCHEMA = {
  type: 'object',
  description:
    'Evictions the change caused (with dryRun: would cause). retimed: pending evictions whose evictAt moved.',
  properties: {
    immediate: { type: 'integer', example: 3 },
    scheduled: { type: 'integer', example: 5 },
    cancelled: { type: 'integer', example: 0 },
    retimed: { type: 'integer', example: 0 },
    held: { type: 'integer', example: 0, description: 'due evictions a disruption budget holds' },
  },
};
