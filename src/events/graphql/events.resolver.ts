import { Args, Query, Resolver, Subscription } from '@nestjs/graphql';
import { EventConnectionModel, EventHistoryArgs, EventRecordModel } from './event.models';
import type { Observable } from 'rxjs';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { encodeContinue } from '../../kernel/http/paging';
import { EventBus, type TaintwiseEvent } from '../../kernel/events/event-bus';
import { parseTypes } from '../event-query';
import { EventHistoryService } from '../event-history.service';
import { chargePerItem, toConnection } from '../../kernel/graphql/models/connection.model';

@Resolver()
export class EventsResolver {
  constructor(
    private readonly bus: EventBus,
    private readonly history: EventHistoryService,
  ) {}

  @Subscription(() => EventRecordModel, {
    name: 'events',
    description: 'Live events (graphql-ws on /graphql), optionally only some types.',
    resolve: (payload: EventRecordModel) => payload,
  })
  subscribe(
    @Args('types', { type: () => [String], nullable: true }) types?: string[] | null,
  ): AsyncIterableIterator<EventRecordModel> {
    const wanted = types?.length ? new Set(parseTypes(types.join(','))) : undefined;
    return toAsyncIterator(this.bus.events, (e) => (!wanted || wanted.has(e.type) ? toEventModel(e) : undefined));
  }

  @Query(() => EventConnectionModel, {
    description: 'The audit log, oldest first (GET /v1/events/history). Admin only.',
    complexity: chargePerItem,
  })
  @RequiresRole('admin')
  async eventHistory(@Args() args: EventHistoryArgs): Promise<EventConnectionModel> {
    const query = { since: args.since ?? undefined, types: args.types?.join(','), actor: args.actor ?? undefined };
    const page = await this.history.history({
      ...query,
      limit: args.first ?? undefined,
      continue: args.after ?? undefined,
    });
    return toConnection(page, (e) => encodeContinue([e.id]), toEventModel);
  }
}

export function toEventModel(e: TaintwiseEvent): EventRecordModel {
  return { ...e, data: JSON.stringify(e.data) };
}

/**
 * An rxjs stream as the async iterator graphql-ws reads, buffering what the client has not pulled
 * yet (bounded: a subscriber that stops reading is dropped rather than growing without end).
 */
function toAsyncIterator<T, R>(
  source: Observable<T>,
  map: (value: T) => R | undefined,
  maxBuffered = 10_000,
): AsyncIterableIterator<R> {
  const buffer: R[] = [];
  let waiting: ((result: IteratorResult<R>) => void) | undefined;
  let done = false;
  const finish = () => {
    done = true;
    subscription.unsubscribe();
    waiting?.({ value: undefined, done: true });
    waiting = undefined;
  };
  const subscription = source.subscribe((value) => {
    const mapped = map(value);
    if (mapped === undefined || done) return;
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve({ value: mapped, done: false });
    } else if (buffer.length >= maxBuffered) finish();
    else buffer.push(mapped);
  });
  const iterator: AsyncIterableIterator<R> = {
    next: () => {
      if (buffer.length) return Promise.resolve({ value: buffer.shift()!, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => (waiting = resolve));
    },
    return: () => {
      finish();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw: (error: unknown) => {
      finish();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
