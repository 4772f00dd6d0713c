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
 * `GET /v1/events` as Server-Sent Events: a replay from the event table (after `Last-Event-ID` or
 * `?since=`), then the live stream of this replica's EventBus (which also carries other replicas'
 * commits, through the change feed). Live events that arrive during the replay are held and sent
 * after it, each event once, in id order. A comment line every 15 s keeps proxies from closing the
 * connection. Open streams are ended when the application shuts down, so it never waits for them.
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
    let lastSent = -1n;
    let replaying = options.from !== undefined;
    const held: TaintwiseEvent[] = [];

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-request-id': options.requestId,
    });
    res.write('retry: 2000\n: connected\n\n');

    const send = (e: TaintwiseEvent) => {
      const id = BigInt(e.id);
      if (id <= lastSent) return;
      lastSent = id;
      res.write(`id: ${e.id}\ndata: ${JSON.stringify(e)}\n\n`);
    };
    const live: Subscription = this.bus.events.subscribe((e) => {
      if (!keep(e)) return;
      if (replaying) held.push(e);
      else send(e);
    });
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), options.heartbeatMs ?? HEARTBEAT_MS);
    heartbeat.unref();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      live.unsubscribe();
      clearInterval(heartbeat);
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
        for (const e of page) send(e);
        if (page.length < REPLAY_PAGE) break;
        position = { afterId: BigInt(page[page.length - 1].id) };
      }
    } catch (error) {
      this.logger.warn({ msg: 'event replay failed; ending the stream', err: String(error) });
      return end();
    }
    replaying = false;
    held.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1)).forEach(send);
    held.length = 0;
  }
}
