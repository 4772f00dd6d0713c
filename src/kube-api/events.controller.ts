import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import { KubeEventsService } from './kube-events.service';
import { wantsTable } from './table';
import { KubeWatchService } from './watch/kube-watch.service';

type Query = Record<string, string | undefined>;

/** core/v1 events: `/api/v1/events`, `/api/v1/namespaces/{ns}/events` (read-only), list and watch. */
@ApiExcludeController()
@Controller('api/v1')
export class KubeEventsController {
  constructor(
    private readonly events: KubeEventsService,
    private readonly watch: KubeWatchService,
  ) {}

  @Get('events')
  async all(@Query() query: Query, @Headers('accept') accept: string | undefined, @Res() reply: FastifyReply) {
    await this.list(undefined, query, accept, reply);
  }

  @Get('namespaces/:ns/events')
  async inNamespace(
    @Param('ns') ns: string,
    @Query() query: Query,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    await this.list(ns, query, accept, reply);
  }

  private async list(ns: string | undefined, query: Query, accept: string | undefined, reply: FastifyReply) {
    const request = { resource: 'events' as const, namespace: ns, ...query, table: wantsTable(accept) };
    await this.watch.listOrWatch(reply, request, async () => {
      const page = await this.events.list(ns, query);
      const meta = { resourceVersion: this.watch.listVersion(), ...(page.continue ? { continue: page.continue } : {}) };
      if (wantsTable(accept)) return this.events.table(page.items, query.includeObject, meta);
      return { kind: 'EventList', apiVersion: 'v1', metadata: meta, items: page.items };
    });
  }
}
