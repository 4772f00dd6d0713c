import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Actor } from '../../kernel/auth/principal.decorator';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { ImportService, type ImportResult } from '../import.service';
import { ApiProblems, PROBLEM_SCHEMA, EVICTION_COUNTS_SCHEMA } from '../../kernel/http/api-docs';

const count = { type: 'object', properties: { created: { type: 'integer' }, updated: { type: 'integer' } } };

/** The answer's schema (ImportResult in import.service.ts). */
export const IMPORT_RESULT_SCHEMA = {
  type: 'object',
  properties: {
    format: {
      type: 'string',
      enum: ['json', 'json-stream', 'yaml'],
      description: 'how the body was read; json-stream = `kubectl cluster-info dump` stdout',
    },
    nodes: count,
    pods: count,
    skipped: {
      type: 'array',
      description: 'objects of other kinds, left alone',
      items: { type: 'object', properties: { kind: { type: 'string' }, count: { type: 'integer' } } },
    },
    errors: {
      type: 'array',
      description:
        'items left out; the rest was imported. Structural problems carry `index`/`document` and the manifest path; validation problems the field in taintwise JSON and the Kubernetes message',
      items: {
        type: 'object',
        properties: {
          index: { type: 'integer', description: '0-based item index over all documents (structural problems)' },
          document: { type: 'integer' },
          kind: { type: 'string', example: 'Node' },
          name: { type: 'string', example: 'node-1' },
          field: { type: 'string', example: 'taints[0].effect' },
          message: { type: 'string' },
        },
      },
    },
    evictions: { ...EVICTION_COUNTS_SCHEMA, description: 'what the imported NoExecute taints imply (SEMANTICS A.3)' },
    notes: { type: 'array', items: { type: 'string' } },
    summary: {
      type: 'object',
      properties: {
        documents: { type: 'integer' },
        items: { type: 'integer' },
        nodes: { type: 'integer' },
        pods: { type: 'integer' },
        podsByPhase: { type: 'object', additionalProperties: { type: 'integer' } },
        inactivePods: { type: 'integer' },
        unboundPods: { type: 'integer' },
        podAffinityDropped: { type: 'integer' },
        boundAtDefaultedToNow: { type: 'integer' },
        skipped: { type: 'integer' },
        errors: { type: 'integer' },
        invalid: { type: 'integer', description: 'items that failed Kubernetes validation or clashed on uid' },
        podsOnUnknownNodes: { type: 'integer', description: 'pods imported bound to a node taintwise does not have' },
        durationMs: { type: 'integer' },
      },
    },
  },
};

const EXAMPLE_RESULT: ImportResult = {
  format: 'json',
  nodes: { created: 7, updated: 0 },
  pods: { created: 20, updated: 0 },
  budgets: { created: 0, updated: 0 },
  skipped: [{ kind: 'Service', count: 2 }],
  errors: [
    {
      kind: 'Node',
      name: 'bad-1',
      field: 'taints[0].effect',
      message:
        'taints[0].effect: Unsupported value: "NoScheduled": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    },
  ],
  evictions: { immediate: 0, scheduled: 0, cancelled: 0, retimed: 0, held: 0 },
  notes: ['skipped 2 object(s) of other kinds: 2 Service'],
  summary: {
    documents: 1,
    items: 30,
    nodes: 8,
    pods: 20,
    budgets: 0,
    podsByPhase: { Running: 18, Pending: 2 },
    inactivePods: 0,
    unboundPods: 2,
    podAffinityDropped: 0,
    boundAtDefaultedToNow: 0,
    skipped: 2,
    errors: 1,
    invalid: 1,
    podsOnUnknownNodes: 0,
    durationMs: 42,
  },
};

const SMALL_LIST = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: gpu-1, labels: {pool: gpu}}
  spec:
    taints: [{key: nvidia.com/gpu, value: present, effect: NoSchedule}]
  status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "1"}}
- apiVersion: v1
  kind: Pod
  metadata: {namespace: ml, name: train-1}
  spec:
    nodeName: gpu-1
    tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
    containers: [{name: main, resources: {requests: {cpu: "1", nvidia.com/gpu: "1"}}}]
  status: {phase: Running}
`;

@ApiTags('import')
@Controller('v1/import')
export class ImportController {
  constructor(private readonly imports: ImportService) {}

  @Post()
  @RequiresRole('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Import nodes and pods from kubectl output',
    description:
      'Body: `kubectl get nodes,pods -A -o json` or `-o yaml` (a `List`, `NodeList`, `PodList` or single objects), or the stdout of `kubectl cluster-info dump` ' +
      '(several JSON documents plus container logs). JSON or YAML by Content-Type (application/json, application/yaml, application/x-yaml, text/yaml, text/plain: sniffed). ' +
      'Everything is upserted as the cluster has it, in one transaction: no admission defaults, taints keep their `timeAdded` (a missing one is the import time, or the stored time of an unchanged taint), ' +
      'a replaced pod keeps its stored uid, nothing the body does not name is deleted. Each item is checked with the same Kubernetes validators as PUT; invalid items are reported in `errors` and left out. ' +
      'Pods bound to a node taintwise does not have are imported bound anyway (as spec.nodeName allows; see `summary.podsOnUnknownNodes`). ' +
      'Then pods on nodes with NoExecute taints have their evictions re-decided. A body that cannot be read at all is a 400 listing the line and column.',
  })
  @ApiConsumes('application/json', 'application/yaml', 'application/x-yaml', 'text/yaml', 'text/plain')
  @ApiBody({
    schema: { type: 'string', description: 'kubectl JSON or YAML output' },
    examples: {
      yaml: { summary: 'kubectl get nodes,pods -A -o yaml', value: SMALL_LIST },
      json: {
        summary: 'a NodeList',
        value: {
          apiVersion: 'v1',
          kind: 'NodeList',
          items: [
            {
              metadata: { name: 'node-1', labels: { zone: 'a' } },
              spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
              status: { allocatable: { cpu: '4', memory: '16Gi', pods: '110' } },
            },
          ],
        },
      },
    },
  })
  @ApiOkResponse({
    description: 'Imported: counts, items left out, notes',
    schema: { ...IMPORT_RESULT_SCHEMA, example: EXAMPLE_RESULT },
  })
  @ApiPayloadTooLargeResponse({
    description: 'Body over BODY_LIMIT_BYTES (default 32 MB)',
    content: { 'application/problem+json': { schema: PROBLEM_SCHEMA } },
  })
  @ApiProblems(400)
  async importManifests(
    @Body() body: unknown,
    @Headers('content-type') contentType: string | undefined,
    @Actor() actor: Actor,
  ): Promise<ImportResult> {
    return this.imports.import(body, contentType, actor);
  }
}
