import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { BullMqDelayedJobs, BullMqDelayedJobsOptions, DEFAULT_REDIS_URL } from './bullmq-delayed-jobs';
import { DelayedJob, RetryPolicy } from './delayed-jobs';
import { describeDelayedJobsContract, DelayedJobsHarness } from './delayed-jobs.contract';

jest.setTimeout(60_000);

type HandlerErrors = DelayedJobsHarness['handlerErrors'];
const collectInto = (errors: HandlerErrors) => (_error: unknown, context: HandlerErrors[number]) => {
  if (context.id) errors.push(context);
};

const REDIS_URL = process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
const retry: RetryPolicy = { attempts: 3, backoffMs: 50 };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// BullMQ adapter against a real Redis (REDIS_URL, default redis://127.0.0.1:6379). No Redis is a
// failure, not a skip (this file runs in the PostgreSQL + Redis tier): these tests are the only proof of the production
// timers.

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
  const client = new IORedis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 2_000,
  });
  let cause: unknown;
  client.on('error', (error) => (cause = error));
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new Error(
      `Redis is not reachable at ${REDIS_URL} (${String(cause ?? error)}). The BullMQ timer tests need it: set REDIS_URL, or start one with ` +
        '`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no`.',
      { cause: error },
    );
  } finally {
    client.disconnect();
  }
}

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
        const jobs = Array.from({ length: 1_000 }, (_, i) => ({
          id: `evict:pod-${i}:${base}`,
          dueAt: new Date(base + (i % 300)),
          data: { i },
        }));
        // Both replicas schedule, as both serve requests.
        await Promise.all(jobs.map((job, i) => replicas[i % 2].schedule(job)));
        const deadline = Date.now() + 20_000;
        while (runs.size < jobs.length && Date.now() < deadline) await sleep(20);
        await sleep(300);
        expect(runs.size).toBe(jobs.length);
        expect([...runs.values()].filter((by) => by.length !== 1)).toEqual([]);
        const byReplica = [0, 1].map((r) => [...runs.values()].filter(([by]) => by === r).length);
        console.info(
          `[BullMQ, two replicas] 1000 jobs: replica 0 ran ${byReplica[0]}, replica 1 ran ${byReplica[1]}, none twice`,
        );
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
      const timers = new BullMqDelayedJobs({
        redisUrl: 'redis://127.0.0.1:1',
        queueName: 'unreachable',
        pingTimeoutMs: 300,
      });
      const started = Date.now();
      try {
        await expect(timers.ping()).rejects.toThrow(/Redis did not connect within 300 ms/);
        await expect(timers.schedule({ id: 'x', dueAt: new Date(), data: {} })).rejects.toThrow(
          /Redis did not connect/,
        );
        await timers.start(async () => undefined);
      } finally {
        await timers.close();
      }
      expect(Date.now() - started).toBeLessThan(3_000);
    });
  });
});
