import { Args, Query, Resolver, Subscription } from '@nestjs/graphql';
import { EventConnectionModel, EventHistoryArgs, EventRecordModel } from './event.models';
import type { Observable } from 'rxjs';
import { RequiresRole } from '../../kernel/auth/public.decorator';
import { decodeContinue, encodeContinue, parseLimit } from '../../kernel/http/paging';
import { UnitOfWork } from '../../kernel/persistence/unit-of-work';
import { EventBus, type TaintwiseEvent } from '../../kernel/events/event-bus';
import { parsePosition, parseTypes } from '../event-query';
import { EventRepository } from '../../kernel/persistence/repositories/event.repository';

@Resolver()
export class EventsResolver {
  constructor(
    private readonly bus: EventBus,
    private readonly events: EventRepository,
    private readonly uow: UnitOfWork,
  ) {}

  @Subscription(() => EventRecordModel, { name: 'events', description: 'Live events (graphql-ws on /graphql), optionally only some types.', resolve: (payload: EventRecordModel) => payload })
  subscribe(@Args('types', { type: () => [String], nullable: true }) types?: string[] | null): AsyncIterableIterator<EventRecordModel> {
    const wanted = types?.length ? new Set(parseTypes(types.join(','))) : undefined;
    return toAsyncIterator(this.bus.events, (e) => (!wanted || wanted.has(e.type) ? toEventModel(e) : undefined));
  }

  @Query(() => EventConnectionModel, { description: 'The audit log, oldest first (GET /v1/events/history). Admin only.' })
  @RequiresRole('admin')
  async eventHistory(@Args() args: EventHistoryArgs): Promise<EventConnectionModel> {
    const size = parseLimit(args.first ?? undefined);
    const after = decodeContinue(args.after ?? undefined, 1)?.[0];
    const position = after !== undefined ? parsePosition(after, 'after') : parsePosition(args.since ?? undefined, 'since');
    const items = await this.events.list(this.uow.db, { ...position, types: parseTypes(args.types?.join(',')), actor: args.actor ?? undefined }, size + 1);
    const page = items.slice(0, size);
    const more = items.length > size;
    return { items: page.map(toEventModel), endCursor: more ? encodeContinue([page[page.length - 1].id]) : null, hasNextPage: more };
  }
}

export function toEventModel(e: TaintwiseEvent): EventRecordModel {
  return { ...e, data: JSON.stringify(e.data) };
}

/**
 * An rxjs stream as the async iterator graphql-ws reads, buffering what the client has not pulled
 * yet (bounded: a subscriber that stops reading is dropped rather than growing without end).
 */
function toAsyncIterator<T, R>(source: Observable<T>, map: (value: T) => R | undefined, maxBuffered = 10_000): AsyncIterableIterator<R> {
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
