import type { ServerResponse } from 'node:http';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { UnitOfWork } from '../kernel/persistence/unit-of-work';
import { EventBus, type TaintwiseEvent } from '../kernel/events/event-bus';
import type { EventPosition } from './event-query';
import { EventRepository } from '../kernel/persistence/repositories/event.repository';

export const HEARTBEAT_MS = 15_000;
const REPLAY_PAGE = 1000;
/**
 * How long the ids a replay sent are kept after it, against the same events arriving live: an event can
 * commit before a replay page reads it and reach the bus after the replay ended (after-commit work, or
 * another replica's commit through the change feed).
 */
const REPLAYED_KEPT_MS = 60_000;

/**
 * `GET /v1/events` as Server-Sent Events: a replay from the event table (after `Last-Event-ID` or
 * `?since=`), in id order, then the live stream of this replica's EventBus (which also carries other
 * replicas' commits, through the change feed), in the order the bus publishes them. Live events that
 * arrive during the replay are held and sent after it; an event the replay sent is not sent again. A live
 * event is never left out for its id being lower than the last one sent: ids follow commit order
 * (EventRepository's lock), but another replica's commits reach this bus through the change feed after
 * this replica's own later ones, so the bus can publish a lower id after a higher one. A comment line
 * every 15 s keeps proxies from closing the connection. Open streams are ended when the application shuts
 * down, so it never waits for them.
 */
@Injectable()
export class EventStreamService implements OnModuleDestroy {
  private readonly logger = new Logger('event-stream');
  private readonly open = new Set<() => void>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly bus: EventBus,
    private readonly events: EventRepository,
  ) {}

  onModuleDestroy(): void {
    for (const end of [...this.open]) end();
  }

  /** Streams into `res` (headers not sent yet) until the client goes away or the app stops. */
  async stream(
    res: ServerResponse,
    options: { types?: string[]; from?: EventPosition; requestId: string; heartbeatMs?: number },
  ): Promise<void> {
    const wanted = options.types ? new Set(options.types) : undefined;
    const keep = (e: TaintwiseEvent) => !wanted || wanted.has(e.type);
    let replaying = options.from !== undefined;
    const held: TaintwiseEvent[] = [];
    const replayed = new Set<string>();

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': options.requestId,
    });
    res.write('retry: 2000\n: connected\n\n');

    // The frames of one burst leave in one write: a commit publishes all its events in one turn (a sweep
    // batch: 5,000), and a write each was a system call each. Sent once the publishing code has returned.
    let ended = false;
    let frames: string[] = [];
    const flush = () => {
      const text = frames.join('');
      frames = [];
      if (!ended) res.write(text);
    };
    const send = (e: TaintwiseEvent) => {
      if (frames.length === 0) queueMicrotask(flush);
      frames.push(`id: ${e.id}\ndata: ${JSON.stringify(e)}\n\n`);
    };
    const live: Subscription = this.bus.events.subscribe((e) => {
      if (!keep(e)) return;
      if (replaying) held.push(e);
      else if (!replayed.has(e.id)) send(e);
    });
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), options.heartbeatMs ?? HEARTBEAT_MS);
    heartbeat.unref();
    let forget: NodeJS.Timeout | undefined = undefined; // set once the replay ends
    const end = () => {
      if (ended) return;
      ended = true;
      live.unsubscribe();
      clearInterval(heartbeat);
      clearTimeout(forget);
      this.open.delete(end);
      res.end();
    };
    this.open.add(end);
    res.on('close', end);
    res.on('error', end);

    if (!options.from) return;
    try {
      let position: { afterId?: bigint; since?: Date } = options.from;
      for (;;) {
        const page = await this.events.list(this.uow.db, { ...position, types: options.types }, REPLAY_PAGE);
        if (ended) return;
        for (const e of page) {
          replayed.add(e.id);
          send(e);
        }
        if (page.length < REPLAY_PAGE) break;
        position = { afterId: BigInt(page[page.length - 1].id) };
      }
    } catch (error) {
      this.logger.warn({ msg: 'event replay failed; ending the stream', err: String(error) });
      return end();
    }
    replaying = false;
    for (const e of held.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))) if (!replayed.has(e.id)) send(e);
    held.length = 0;
    forget = setTimeout(() => replayed.clear(), REPLAYED_KEPT_MS);
    forget.unref();
  }
}
