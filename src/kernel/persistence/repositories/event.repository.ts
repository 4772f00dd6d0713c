import { Injectable } from '@nestjs/common';
import type { Db } from '../prisma-types';
import type { TaintwiseEvent } from '../../events/event-bus';

export interface EventQuery {
  /** Events with a greater id. */
  afterId?: bigint;
  /** Events created at or after this time. */
  since?: Date;
  types?: readonly string[];
  actor?: string;
  subjectKind?: string;
  subjectName?: string;
}

/** Reads of the append-only event log (UnitOfWork writes it): replay for the stream, the audit history. */
@Injectable()
export class EventRepository {
  /** Oldest first, by id. */
  async list(db: Db, query: EventQuery, limit: number): Promise<TaintwiseEvent[]> {
    const rows = await db.event.findMany({
      where: {
        ...(query.afterId !== undefined ? { id: { gt: query.afterId } } : {}),
        ...(query.since ? { createdAt: { gte: query.since } } : {}),
        ...(query.types?.length ? { type: { in: [...query.types] } } : {}),
        ...(query.actor !== undefined ? { actor: query.actor } : {}),
        ...(query.subjectKind !== undefined ? { subjectKind: query.subjectKind } : {}),
        ...(query.subjectName !== undefined ? { subjectName: query.subjectName } : {}),
      },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map((r) => ({
      id: String(r.id), type: r.type, actor: r.actor, requestId: r.requestId, subjectKind: r.subjectKind,
      subjectName: r.subjectName, data: r.data as Record<string, unknown>, createdAt: r.createdAt.toISOString(),
    }));
  }
}
