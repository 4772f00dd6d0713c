import type { ServerResponse } from 'node:http';
import { EventBus, type TaintwiseEvent } from '../kernel/events/event-bus';
import type { EventRepository } from '../kernel/persistence/repositories/event.repository';
import type { UnitOfWork } from '../kernel/persistence/unit-of-work';
import { EventStreamService } from './event-stream.service';

const event = (id: number): TaintwiseEvent => ({
  id: String(id),
  type: 'EvictionExecuted',
  actor: 'taint-eviction-controller',
  requestId: null,
  subjectKind: 'Pod',
  subjectName: `default/p-${id}`,
  data: {},
  createdAt: '2026-11-26T00:00:00.000Z',
});

/** The ids written to the response, in order (what an SSE client reads), and how many writes carried them. */
function response(): { res: ServerResponse; ids: () => string[]; writes: () => number } {
  let text = '';
  let writes = 0;
  const res = {
    writeHead: () => res,
    write: (chunk: string) => ((text += chunk), writes++, true),
    end: () => undefined,
    on: () => res,
  } as unknown as ServerResponse;
  return { res, ids: () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => m[1]), writes: () => writes };
}

/** The stream writes the frames of one turn once that turn's code has returned. */
const turnEnded = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The real EventBus; the event table is a stand-in whose replay pages are released by the test, because the
 * case that matters — two PostgreSQL transactions committing out of id order, one of them during a replay —
 * cannot be produced on demand through the database.
 */
function service(pages: TaintwiseEvent[][] = []) {
  const bus = new EventBus();
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const events = {
    list: async () => {
      await released;
      return pages.shift() ?? [];
    },
  } as unknown as EventRepository;
  const streams = new EventStreamService({ db: {} } as unknown as UnitOfWork, bus, events);
  return { bus, streams, release };
}

describe('EventStreamService: every event once, whatever order the commits publish them in', () => {
  it('sends a live event whose id is lower than the last one sent (concurrent transactions commit out of id order)', async () => {
    const { bus, streams } = service();
    const { res, ids } = response();
    await streams.stream(res, { requestId: 'r1' });
    // the sweep's two parts: the part holding ids 5-6 committed after the one holding 7
    for (const id of [7, 5, 6]) bus.publish(event(id));
    bus.publish(event(5)); // the same event again (the commit and the change feed): the bus drops it
    await turnEnded();
    expect(ids()).toEqual(['7', '5', '6']);
  });

  it('after a replay, sends the live events held meanwhile that the replay did not send, lower ids included', async () => {
    const { bus, streams, release } = service([[event(3), event(4)]]);
    const { res, ids } = response();
    const streaming = streams.stream(res, { requestId: 'r2', from: { afterId: 2n } });
    // published while the replay reads: 4 is also in the replay's page; 1 committed late with a low id; 9 is new
    for (const id of [4, 1, 9]) bus.publish(event(id));
    release();
    await streaming;
    bus.publish(event(8));
    await turnEnded();
    expect(ids()).toEqual(['3', '4', '1', '9', '8']);
  });
});

describe('EventStreamService: a burst of events leaves in one write', () => {
  it('writes the 5,000 events a commit publishes in one turn at once, in order, and the next turn in a write of its own', async () => {
    const { bus, streams } = service();
    const { res, ids, writes } = response();
    await streams.stream(res, { requestId: 'r3' });
    const before = writes(); // the stream's opening lines
    for (let id = 1; id <= 5000; id++) bus.publish(event(id));
    expect(writes()).toBe(before); // nothing yet: the committing code has not returned
    await turnEnded();
    expect(writes()).toBe(before + 1);
    bus.publish(event(5001));
    await turnEnded();
    expect(writes()).toBe(before + 2);
    expect(ids()).toEqual(Array.from({ length: 5001 }, (_, i) => String(i + 1)));
  });

  it('drops the frames of a turn in which the stream ended (the client resumes from the last id it read)', async () => {
    const bus = new EventBus();
    const streams = new EventStreamService({ db: {} } as unknown as UnitOfWork, bus, {} as EventRepository);
    const { res, ids } = response();
    await streams.stream(res, { requestId: 'r4' });
    bus.publish(event(1));
    streams.onModuleDestroy();
    await turnEnded();
    expect(ids()).toEqual([]);
  });
});
