import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../../kernel/auth/principal.decorator';
import type { Principal } from '../../kernel/auth/roles';
import { ApiProblems } from '../../kernel/http/api-docs';
import { giveBackWhenSent } from '../answer-buffers';
import { FeasibleNodesService } from '../feasible-nodes.service';
import { TaintImpactService } from '../taint-impact.service';
import { TolerationMatchService } from '../toleration-match.service';
import { taintImpactBytes } from './taint-impact-bytes';
import {
  FEASIBLE_NODES_ANSWER_EXAMPLE,
  FEASIBLE_NODES_ANSWER_SCHEMA,
  FEASIBLE_NODES_BODY_SCHEMA,
  FEASIBLE_NODES_EXAMPLES,
  TAINT_IMPACT_ANSWER_EXAMPLE,
  TAINT_IMPACT_ANSWER_SCHEMA,
  TAINT_IMPACT_BODY_SCHEMA,
  TAINT_IMPACT_EXAMPLES,
  TAINT_IMPACT_SUMMARY_SCHEMA,
  TOLERATION_MATCH_ANSWER_EXAMPLE,
  TOLERATION_MATCH_ANSWER_SCHEMA,
  TOLERATION_MATCH_BODY_SCHEMA,
  TOLERATION_MATCH_EXAMPLES,
} from './decisions-api-docs';

/** Read-only decisions (viewer role): nothing is written, no event, no eviction, no timer. */
@ApiTags('decisions')
@Controller('v1/decisions')
export class DecisionsController {
  constructor(
    private readonly feasible: FeasibleNodesService,
    private readonly impact: TaintImpactService,
    private readonly matching: TolerationMatchService,
  ) {}

  @Post('feasible-nodes')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Where may this pod run, ranked, and why not elsewhere?',
    description:
      'Runs the NodeUnschedulable, TaintToleration, NodeAffinity and NodeResourcesFit filters and the TaintToleration and NodeAffinity scores over the candidate nodes, from the in-memory snapshot. Answers are computed from an in-memory snapshot of the inventory; identical questions between two changes to it are answered from a cache (the same answer, byte for byte). An inline `pod` is validated (422, paths under `pod.`) and evaluated as if the pod were created: the admission defaults are applied first (SEMANTICS A.6). Untolerated taints are named in the reasons unless redacted (REDACT_TAINTS, or a role below REDACT_TAINTS_BELOW_ROLE; SEMANTICS A.2).',
  })
  @ApiBody({ schema: FEASIBLE_NODES_BODY_SCHEMA, examples: FEASIBLE_NODES_EXAMPLES })
  @ApiOkResponse({
    description: 'The ranked, explained answer',
    content: { 'application/json': { schema: FEASIBLE_NODES_ANSWER_SCHEMA, example: FEASIBLE_NODES_ANSWER_EXAMPLE } },
  })
  @ApiProblems(400, 404, 422)
  async feasibleNodes(
    @Body() body: unknown,
    @CurrentPrincipal() who: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    // The JSON text the service keeps with a cached answer: sent as is (what Fastify's default
    // serialiser would write for the object), not serialised again per request.
    const json = await this.feasible.feasibleNodesJson(body, who);
    void reply.header('content-type', 'application/json; charset=utf-8');
    return json;
  }

  @Post('taint-impact')
  @HttpCode(200)
  @ApiOperation({
    summary: 'What would these taints do, before applying them?',
    description:
      'Applies the `kubectl taint --overwrite` changes in memory at `at` (default now), then the NoExecute eviction rule (SEMANTICS A.3) to the pods bound to the target nodes, and the scheduling filters to the pending pods. Writes nothing. ' +
      "`summary: true` answers with counts instead of lists (per node, per action, per workload; earliest and latest evictAt). `limit` pages the lists (evictions, then tolerating pods); pass the answer's `continue` with the same body for the next page.",
  })
  @ApiBody({ schema: TAINT_IMPACT_BODY_SCHEMA, examples: TAINT_IMPACT_EXAMPLES })
  @ApiOkResponse({
    description:
      'Evictions, tolerating pods, and pending pods that lose or gain a place (or, with `summary: true`, their counts)',
    content: {
      'application/json': {
        schema: { oneOf: [TAINT_IMPACT_ANSWER_SCHEMA, TAINT_IMPACT_SUMMARY_SCHEMA] },
        example: TAINT_IMPACT_ANSWER_EXAMPLE,
      },
    },
  })
  @ApiProblems(400, 404)
  taintImpact(@Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    // The counts form comes as JSON bytes written from the tallies (presentTaintImpactSummary's text,
    // without a Date per instant). The whole lists answer (no page, no re-placement) comes as JSON bytes
    // written from the snapshot's columns (2.4 MB over a 500-node pool: no row objects, no text to
    // encode), and so does the whole re-placement answer (~11 MB, taint-impact-replacement-bytes.ts).
    // Pages come as the bytes of presentTaintImpact's JSON, written once: Fastify sends a Buffer as is,
    // where it would stringify the object and encode the text.
    const payload = isSummaryRequest(body)
      ? this.impact.taintImpactSummaryJson(body)
      : (this.impact.taintImpactJson(body) ??
        this.impact.taintImpactReplacementBytes(body) ??
        taintImpactBytes(this.impact.taintImpact(body)));
    void reply.header('content-type', 'application/json; charset=utf-8');
    // The bytes came from the answer pool: back to it once the response is closed, not before (libuv may
    // still be sending them to a slow client).
    giveBackWhenSent(reply.raw, payload);
    return payload;
  }

  @Post('toleration-match')
  @HttpCode(200)
  @ApiOperation({
    summary: 'How do these tolerations meet these taints?',
    description:
      'Each taint with the first toleration that tolerates it (SEMANTICS B.1), whether a pod could be scheduled, whether the node would be avoided, and what would happen to a running pod (SEMANTICS A.3). Taints and tolerations are validated as Kubernetes does (422); Gt/Lt need COMPARISON_OPERATORS (A.1).',
  })
  @ApiBody({ schema: TOLERATION_MATCH_BODY_SCHEMA, examples: TOLERATION_MATCH_EXAMPLES })
  @ApiOkResponse({
    description: 'The match',
    content: {
      'application/json': { schema: TOLERATION_MATCH_ANSWER_SCHEMA, example: TOLERATION_MATCH_ANSWER_EXAMPLE },
    },
  })
  @ApiProblems(400, 422)
  tolerationMatch(@Body() body: unknown) {
    return this.matching.tolerationMatch(body);
  }
}

/** `summary: true` picks the counts form; everything else about the body is the service's to check. */
function isSummaryRequest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { summary?: unknown }).summary === true;
}
