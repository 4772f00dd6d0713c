import { Controller, Get, Headers, Param, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppError } from '../kernel/errors/app-error';
import { KubeEventsService } from './kube-events.service';
import { wantsTable } from './table';

type Query = Record<string, string | undefined>;

/** core/v1 events: `/api/v1/events`, `/api/v1/namespaces/{ns}/events` (read-only). */
@ApiExcludeController()
@Controller('api/v1')
export class KubeEventsController {
  constructor(private readonly events: KubeEventsService) {}

  @Get('events')
  all(@Query() query: Query, @Headers('accept') accept: string | undefined) {
    return this.list(undefined, query, accept);
  }

  @Get('namespaces/:ns/events')
  inNamespace(@Param('ns') ns: string, @Query() query: Query, @Headers('accept') accept: string | undefined) {
    return this.list(ns, query, accept);
  }

  private async list(ns: string | undefined, query: Query, accept: string | undefined) {
    if (query.watch === 'true' || query.watch === '1') {
      throw new AppError('NotFound', 'watch is not served for events yet', [], { methodNotAllowed: true });
    }
    const page = await this.events.list(ns, query);
    const meta = page.continue ? { continue: page.continue } : {};
    if (wantsTable(accept)) return this.events.table(page.items, query.includeObject, meta);
    return { kind: 'EventList', apiVersion: 'v1', metadata: meta, items: page.items };
  }
}
