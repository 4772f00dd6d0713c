import { Controller, Get, Headers, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequiresRole } from '../kernel/auth/public.decorator';
import { ApiProblems, listSchema } from '../kernel/http/api-docs';
import { parsePosition, parseTypes } from './event-query';
import { EventHistoryService } from './event-history.service';
import { EventStreamService } from './event-stream.service';

export const EVENT_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string', example: '1042', description: 'increasing; the SSE id' },
    type: {
      type: 'string',
      example: 'EvictionExecuted',
      description:
        'TaintsApplied, NodeCordoned, NodeUncordoned, NodeConditionsReported, NodeCreated, NodeReplaced, NodeDeleted, PodCreated, PodReplaced, PodDeleted, EvictionScheduled, EvictionRescheduled, EvictionCancelled, EvictionExecuted, ...',
    },
    actor: {
      type: 'string',
      example: 'ops-bot',
      description: 'the API key name; taint-eviction-controller for timer evictions',
    },
    requestId: { type: 'string', nullable: true },
    subjectKind: { type: 'string', example: 'Pod' },
    subjectName: { type: 'string', example: 'default/web-1' },
    data: { type: 'object' },
    createdAt: { type: 'string', format: 'date-time' },
  },
};

@ApiTags('events')
@Controller('v1/events')
export class EventsController {
  constructor(
    private readonly streams: EventStreamService,
    private readonly auditLog: EventHistoryService,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'Live event stream (Server-Sent Events)',
    description:
      'text/event-stream: each event is `id: <id>` + `data: <event JSON>`; a `: heartbeat` comment every 15 s. With `Last-Event-ID` (or `?since=` an event id or RFC 3339 time) the stored events after it are replayed first, then the live stream continues without gaps or repeats.',
  })
  @ApiProduces('text/event-stream')
  @ApiQuery({ name: 'types', required: false, example: 'EvictionExecuted,EvictionScheduled' })
  @ApiQuery({
    name: 'since',
    required: false,
    description: 'event id (exclusive) or RFC 3339 time (inclusive) to replay from',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'sent by EventSource on reconnect; replay after this id',
  })
  @ApiOkResponse({ description: 'an endless text/event-stream of events', schema: EVENT_SCHEMA })
  @ApiProblems(400)
  async stream(
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
    @Query('types') types?: string,
    @Query('since') since?: string,
    @Headers('last-event-id') lastEventId?: string,
  ): Promise<void> {
    const filter = parseTypes(types);
    const from = parsePosition(lastEventId || since, lastEventId ? 'Last-Event-ID' : 'since');
    reply.hijack();
    await this.streams.stream(reply.raw, { types: filter, from, requestId: String(req.id) });
  }

  @Get('history')
  @RequiresRole('admin')
  @ApiOperation({
    summary: 'Audit log: stored events with actor and requestId',
    description:
      'Oldest first from `since` (an event id, exclusive, or an RFC 3339 time, inclusive); page with `continue`.',
  })
  @ApiQuery({ name: 'since', required: false })
  @ApiQuery({ name: 'types', required: false, example: 'TaintsApplied,NodeCordoned' })
  @ApiQuery({ name: 'actor', required: false })
  @ApiQuery({ name: 'subjectKind', required: false, example: 'Node' })
  @ApiQuery({ name: 'subjectName', required: false, example: 'n1' })
  @ApiQuery({ name: 'limit', required: false, example: 500 })
  @ApiQuery({ name: 'continue', required: false })
  @ApiOkResponse({ schema: listSchema(EVENT_SCHEMA) })
  @ApiProblems(400)
  async history(
    @Query('since') since?: string,
    @Query('types') types?: string,
    @Query('actor') actor?: string,
    @Query('subjectKind') subjectKind?: string,
    @Query('subjectName') subjectName?: string,
    @Query('limit') limit?: string,
    @Query('continue') token?: string,
  ) {
    return this.auditLog.history({ since, types, actor, subjectKind, subjectName, limit, continue: token });
  }
}
