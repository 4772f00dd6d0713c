import { decodeJobId, encodeJobId } from './bullmq-delayed-jobs';
import { ManualClock, systemClock } from './clock';
import { RetryPolicy } from './delayed-jobs';
import { describeDelayedJobsContract, DelayedJobsHarness } from './delayed-jobs.contract';
import { InProcessDelayedJobs, MAX_TIMEOUT_MS } from './in-process-delayed-jobs';

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
  return {
    timers,
    now: Date.now,
    advance: sleep,
    realTime: true,
    toleranceMs: 100,
    ...retry,
    handlerErrors,
    dispose: () => timers.close(),
  };
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
      for (let i = 0; i < 1_000; i++)
        await timers.schedule({ id: `far-${i}`, dueAt: new Date(in40days + i), data: {} });
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
