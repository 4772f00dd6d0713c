import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { BullMqDelayedJobs, BullMqDelayedJobsOptions, decodeJobId, DEFAULT_REDIS_URL, encodeJobId } from './bullmq-delayed-jobs';
import { ManualClock, systemClock } from './clock';
import { DelayedJob, RetryPolicy } from './delayed-jobs';
import { describeDelayedJobsContract, DelayedJobsHarness } from './delayed-jobs.contract';
import { InProcessDelayedJobs, MAX_TIMEOUT_MS } from './in-process-delayed-jobs';

const REDIS_URL = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const retry: RetryPolicy = { attempts: 3, backoffMs: 50 };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

// ---------------------------------------------------------------------------------------------
// In-process adapter: the contract on a ManualClock (deterministic, no sleeping), then once more on
// the system clock to prove the real timer.

type HandlerErrors = DelayedJobsHarness['handlerErrors'];
const collectInto = (errors: HandlerErrors) => (_error: unknown, context: HandlerErrors[number]) => {
  if (context.id) errors.push(context);
};

describeDelayedJobsContract('in-process, ManualClock', async () => {
  const clock = new ManualClock();
  const handlerErrors: HandlerErrors = [];
  const timers = new InProcessDelayedJobs({ clock, retry, onError: collectInto(handlerErrors) });
  return {
    timers,
    now: () => clock.now().getTime(),
    advance: async (ms) => {
      clock.advance(ms);
      // Let the handlers the move fired run (not `runDue()`: a handler may be parked on purpose).
      for (let i = 0; i < 3; i++) await macrotask();
    },
    realTime: false,
    toleranceMs: 5,
    ...retry,
    handlerErrors,
    dispose: () => timers.close(),
  } satisfies DelayedJobsHarness;
});

describeDelayedJobsContract('in-process, system clock', async () => {
  const handlerErrors: HandlerErrors = [];
  const timers = new InProcessDelayedJobs({ clock: systemClock, retry, onError: collectInto(handlerErrors) });
  return { timers, now: Date.now, advance: sleep, realTime: true, toleranceMs: 100, ...retry, handlerErrors, dispose: () => timers.close() };
});

describe('InProcessDelayedJobs', () => {
  it('fires nothing until the ManualClock reaches dueAt; runDue() waits for the handlers', async () => {
    const clock = new ManualClock(new Date('2026-03-01T00:00:00Z'));
    const timers = new InProcessDelayedJobs({ clock });
    const seen: string[] = [];
    await timers.start(async (job) => {
      await macrotask();
      seen.push(`${job.id}@${clock.now().toISOString()}`);
    });
    await timers.schedule({ id: 'a', dueAt: new Date('2026-03-01T00:05:00Z'), data: {} });
    await timers.schedule({ id: 'b', dueAt: new Date('2026-03-01T00:01:00Z'), data: {} });
    clock.advance(59_999);
    await timers.runDue();
    expect(seen).toEqual([]);
    clock.advance(1);
    await timers.runDue();
    expect(seen).toEqual(['b@2026-03-01T00:01:00.000Z']);
    clock.set(new Date('2026-03-01T01:00:00Z'));
    await timers.runDue();
    expect(seen).toEqual(['b@2026-03-01T00:01:00.000Z', 'a@2026-03-01T01:00:00.000Z']);
    await timers.close();
  });

  it('arms one timer, never longer than setTimeout allows, for deadlines weeks away', async () => {
    const spy = jest.spyOn(global, 'setTimeout');
    const timers = new InProcessDelayedJobs();
    const fired: string[] = [];
    try {
      await timers.start(async (job) => void fired.push(job.id));
      const in40days = Date.now() + 40 * 24 * 3600_000;
      for (let i = 0; i < 1_000; i++) await timers.schedule({ id: `far-${i}`, dueAt: new Date(in40days + i), data: {} });
      await sleep(30);
      expect(fired).toEqual([]);
      const delays = spy.mock.calls.map(([, ms]) => ms ?? 0);
      expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_TIMEOUT_MS);
      // One timer for the earliest deadline, not one per job (the `sleep` above is the other call).
      expect(spy.mock.calls.length).toBeLessThanOrEqual(2);
      expect(await timers.list()).toHaveLength(1_000);
    } finally {
      spy.mockRestore();
      await timers.close();
    }
  });

  it('rejects jobs no adapter could keep', async () => {
    const timers = new InProcessDelayedJobs();
    await expect(timers.schedule({ id: '', dueAt: new Date(), data: {} })).rejects.toThrow(/id/);
    await expect(timers.schedule({ id: 'x', dueAt: new Date(NaN), data: {} })).rejects.toThrow(/dueAt/);
    await expect(timers.schedule({ id: 'x', dueAt: new Date(), data: { n: 1n } })).rejects.toThrow();
    await timers.close();
    await expect(timers.schedule({ id: 'x', dueAt: new Date(), data: {} })).rejects.toThrow(/closed/);
  });
});

// ---------------------------------------------------------------------------------------------
// BullMQ adapter against a real Redis (REDIS_URL, default redis://127.0.0.1:6379). No Redis is a
// failure, not a skip: these tests are the only proof of the production timers.

const runId = randomBytes(4).toString('hex');
const prefix = `tw-test-${runId}`;
const queues = new Set<string>();

function bullmq(queueName: string, extra: BullMqDelayedJobsOptions = {}): BullMqDelayedJobs {
  queues.add(queueName);
  return new BullMqDelayedJobs({ redisUrl: REDIS_URL, prefix, queueName, retry, concurrency: 50, ...extra });
}

async function removeQueue(queueName: string): Promise<void> {
  const queue = new Queue(queueName, { connection: { url: REDIS_URL }, prefix });
  await queue.obliterate({ force: true });
  await queue.close();
}

async function assertRedisReachable(): Promise<void> {
  const client = new IORedis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  let cause: unknown;
  client.on('error', (error) => (cause = error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new Error(
      `Redis is not reachable at ${REDIS_URL} (${String(cause ?? error)}). The BullMQ timer tests need it: set REDIS_URL, or start one with ` +
        '`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no`.',
    );
  } finally {
    client.disconnect();
  }
}

describe('BullMQ job ids', () => {
  it.each([
    ['evict:3f9c-11ef:1767225600000', 'evict%3A3f9c-11ef%3A1767225600000'],
    ['plain-id', 'plain-id'],
    ['100%', '100%25'],
    ['a:b', 'a%3Ab'],
    ['42', '%342'],
    ['-7', '%2D7'],
    ['007', '007'],
    ['%3A', '%253A'],
  ])('encodes job id %j as %j and back', (id, encoded) => {
    expect(encodeJobId(id)).toBe(encoded);
    expect(decodeJobId(encoded)).toBe(id);
    expect(`${parseInt(encoded, 10)}`).not.toBe(encoded);
  });
});

describe('BullMQ timers', () => {
  beforeAll(assertRedisReachable);

  afterAll(async () => {
    for (const name of queues) await removeQueue(name).catch(() => undefined);
  });

  describeDelayedJobsContract('BullMQ on Redis', async () => {
    const queueName = `contract-${randomBytes(3).toString('hex')}`;
    const handlerErrors: HandlerErrors = [];
    const timers = bullmq(queueName, { onError: collectInto(handlerErrors) });
    await timers.ping();
    return {
      timers,
      now: Date.now,
      advance: sleep,
      realTime: true,
      toleranceMs: 1_000,
      ...retry,
      handlerErrors,
      dispose: async () => {
        await timers.close();
        await removeQueue(queueName);
        queues.delete(queueName);
      },
    };
  });

  describe('BullMqDelayedJobs', () => {
    it('runs each job exactly once across two replicas sharing one queue', async () => {
      const queueName = `replicas-${randomBytes(3).toString('hex')}`;
      const replicas = [bullmq(queueName), bullmq(queueName)];
      const runs = new Map<string, number[]>();
      try {
        await Promise.all(
          replicas.map((replica, r) =>
            replica.start(async (job) => {
              runs.set(job.id, [...(runs.get(job.id) ?? []), r]);
            }),
          ),
        );
        const base = Date.now() + 500;
        const jobs = Array.from({ length: 1_000 }, (_, i) => ({ id: `evict:pod-${i}:${base}`, dueAt: new Date(base + (i % 300)), data: { i } }));
        // Both replicas schedule, as both serve requests.
        await Promise.all(jobs.map((job, i) => replicas[i % 2].schedule(job)));
        const deadline = Date.now() + 20_000;
        while (runs.size < jobs.length && Date.now() < deadline) await sleep(20);
        await sleep(300);
        expect(runs.size).toBe(jobs.length);
        expect([...runs.values()].filter((by) => by.length !== 1)).toEqual([]);
        const byReplica = [0, 1].map((r) => [...runs.values()].filter(([by]) => by === r).length);
        console.info(`[BullMQ, two replicas] 1000 jobs: replica 0 ran ${byReplica[0]}, replica 1 ran ${byReplica[1]}, none twice`);
      } finally {
        await Promise.all(replicas.map((replica) => replica.close()));
      }
    }, 60_000);

    it('re-scheduling an id that fires in another replica waits for that run, then fires again', async () => {
      const queueName = `busy-${randomBytes(3).toString('hex')}`;
      const worker = bullmq(queueName);
      const producer = bullmq(queueName);
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const seen: DelayedJob[] = [];
      try {
        await worker.start(async (job) => {
          seen.push(job);
          if (seen.length === 1) await gate;
        });
        await producer.schedule({ id: 'evict:busy:1', dueAt: new Date(), data: { v: 1 } });
        while (seen.length === 0) await sleep(10);
        const rescheduled = producer.schedule({ id: 'evict:busy:1', dueAt: new Date(), data: { v: 2 } });
        await sleep(200);
        expect(seen).toHaveLength(1);
        release();
        await rescheduled;
        const deadline = Date.now() + 5_000;
        while (seen.length < 2 && Date.now() < deadline) await sleep(10);
        expect(seen.map((job) => job.data)).toEqual([{ v: 1 }, { v: 2 }]);
      } finally {
        release();
        await Promise.all([worker.close(), producer.close()]);
      }
    }, 30_000);

    it('without Redis: ping() and schedule() fail within the timeout, start() and close() do not hang', async () => {
      const timers = new BullMqDelayedJobs({ redisUrl: 'redis://127.0.0.1:1', queueName: 'unreachable', pingTimeoutMs: 300 });
      const started = Date.now();
      try {
        await expect(timers.ping()).rejects.toThrow(/Redis did not connect within 300 ms/);
        await expect(timers.schedule({ id: 'x', dueAt: new Date(), data: {} })).rejects.toThrow(/Redis did not connect/);
        await timers.start(async () => undefined);
      } finally {
        await timers.close();
      }
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  });
});
