import { Injectable } from '@nestjs/common';
import type { TaintwiseEvent } from '../kernel/events/event-bus';
import { decodeContinue, parseLimit, readPage, type Page } from '../kernel/http/paging';
import { EventRepository } from '../kernel/persistence/repositories/event.repository';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import { parsePosition, parseTypes } from './event-query';

/** A query of the audit log as either transport receives it (REST's limit/continue, GraphQL's first/after). */
export interface EventHistoryQuery {
  since?: unknown;
  types?: unknown;
  actor?: string;
  subjectKind?: string;
  subjectName?: string;
  limit?: unknown;
  continue?: unknown;
}

/** The audit log, oldest first, paged: one implementation for `GET /v1/events/history` and `eventHistory`. */
@Injectable()
export class EventHistoryService {
  constructor(
    private readonly events: EventRepository,
    private readonly uow: UnitOfWork,
  ) {}

  async history(query: EventHistoryQuery): Promise<Page<TaintwiseEvent>> {
    const limit = parseLimit(query.limit);
    const after = decodeContinue(query.continue, 1)?.[0];
    const position = after !== undefined ? parsePosition(after, 'continue') : parsePosition(query.since, 'since');
    const filter = {
      ...position,
      types: parseTypes(query.types),
      actor: query.actor || undefined,
      subjectKind: query.subjectKind || undefined,
      subjectName: query.subjectName || undefined,
    };
    return readPage(
      limit,
      (take) => this.events.list(this.uow.db, filter, take),
      (e) => [e.id],
    );
  }
}
