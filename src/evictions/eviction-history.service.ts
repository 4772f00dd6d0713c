import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../kernel/config/config.schema';
import { AppError } from '../kernel/errors/app-error';
import { decodeContinue, parseLimit, readPage, type Page } from '../kernel/http/paging';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import {
  EVICTION_STATUSES,
  EvictionRepository,
  type EvictionStatus,
  type StoredEviction,
} from '../kernel/persistence/repositories/eviction.repository';

export interface EvictionQuery {
  status?: unknown;
  node?: unknown;
  namespace?: unknown;
  limit?: unknown;
  continue?: unknown;
}

/** `GET /v1/evictions` and GraphQL `evictions`: the history, newest first, paged. */
@Injectable()
export class EvictionHistoryService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly evictions: EvictionRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** What tells an overdue forecast: the clock's now and the grace (SYNC_FORECAST_GRACE_SECONDS). */
  forecastClock(): { now: Date; graceMs: number } {
    return { now: this.uow.now(), graceMs: this.config.SYNC_FORECAST_GRACE_SECONDS * 1000 };
  }

  async list(query: EvictionQuery): Promise<Page<StoredEviction>> {
    const limit = parseLimit(query.limit);
    const status = optionalString(query.status, 'status');
    if (status !== undefined && !EVICTION_STATUSES.includes(status as EvictionStatus)) {
      throw new AppError('BadRequest', `status must be one of ${EVICTION_STATUSES.join(', ')}`, [
        {
          field: 'status',
          type: 'Unsupported value',
          message: `Unsupported value: "${status}": supported values: ${EVICTION_STATUSES.map((s) => `"${s}"`).join(', ')}`,
        },
      ]);
    }
    const after = decodeContinue(query.continue, 2);
    const position = after ? { createdAt: new Date(after[0]), id: after[1] } : undefined;
    if (position && (Number.isNaN(position.createdAt.getTime()) || !/^[0-9a-f-]{36}$/.test(position.id)))
      decodeContinue('!', 2);
    const filter = {
      status: status as EvictionStatus | undefined,
      node: optionalString(query.node, 'node'),
      namespace: optionalString(query.namespace, 'namespace'),
    };
    const read = (take: number) => this.evictions.list(this.uow.db, filter, take, position);
    return readPage(limit, read, (e) => [e.createdAt.toISOString(), e.id]);
  }
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string')
    throw new AppError('BadRequest', `${field} must be given once`, [
      { field, type: 'Invalid value', message: 'Invalid value: must be a single string' },
    ]);
  return value;
}
