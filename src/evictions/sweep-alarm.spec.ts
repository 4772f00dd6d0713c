import type { Clock } from '../kernel/timers/clock';
import type { DelayedJob, DelayedJobs } from '../kernel/timers/delayed-jobs';
import { MAX_TIMEOUT_MS } from '../kernel/timers/in-process-delayed-jobs';
import { TimerWrites } from '../kernel/timers/timer-writes';
import type { DueEvictionSweeper } from './due-eviction-sweeper';
import { SweepAlarm } from './sweep-alarm';

// SweepAlarm (SEMANTICS A.4: a timer only proposes): with Redis timers, the replica that committed
// the rows also wakes itself at each distinct deadline and asks for a sweep. Fake timers and a
// clock that follows them; the sweeper only counts requests.
const T0 = Date.UTC(2026, 0, 1);

function setUp(kind: DelayedJobs['kind'] = 'redis') {
  const clock: Clock = { now: () => new Date(Date.now()), onChange: () => () => undefined } as unknown as Clock;
  const requests: number[] = [];
  const sweeper = { request: jest.fn(async () => void requests.push(Date.now())) } as unknown as DueEvictionSweeper;
  const jobs = {
    kind,
    scheduleMany: jest.fn(async () => undefined),
  } as unknown as DelayedJobs;
  const writes = new TimerWrites(jobs);
  const alarm = new SweepAlarm(writes, sweeper, jobs, clock);
  alarm.onApplicationBootstrap();
  const schedule = (...offsets: number[]) =>
    writes.apply(offsets.map((ms, i): DelayedJob => ({ id: `t${i}-${ms}`, dueAt: new Date(T0 + ms), data: {} })));
  return { alarm, requests, schedule };
}

describe('SweepAlarm', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('asks for one sweep per distinct deadline, at that deadline, however many timers share it', () => {
    const { alarm, requests, schedule } = setUp();
    schedule(...Array.from({ length: 10_000 }, () => 20_000), 25_000);
    expect(alarm.pending).toBe(2);
    jest.advanceTimersByTime(19_999);
    expect(requests).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(requests).toEqual([T0 + 20_000]);
    jest.advanceTimersByTime(5_000);
    expect(requests).toEqual([T0 + 20_000, T0 + 25_000]);
    expect(alarm.pending).toBe(0);
  });

  it('moves the alarm earlier when an earlier deadline is scheduled later on', () => {
    const { requests, schedule } = setUp();
    schedule(60_000);
    schedule(5_000);
    jest.advanceTimersByTime(5_000);
    expect(requests).toEqual([T0 + 5_000]);
    jest.advanceTimersByTime(55_000);
    expect(requests).toEqual([T0 + 5_000, T0 + 60_000]);
  });

  it('a deadline already past asks at once', () => {
    const { requests, schedule } = setUp();
    schedule(-1_000);
    jest.advanceTimersByTime(0);
    expect(requests).toEqual([T0]);
  });

  it('a deadline beyond what setTimeout can hold is reached by re-arming, not fired early', () => {
    const { requests, schedule } = setUp();
    const far = MAX_TIMEOUT_MS + 60_000;
    schedule(far);
    jest.advanceTimersByTime(MAX_TIMEOUT_MS);
    expect(requests).toEqual([]);
    jest.advanceTimersByTime(60_000);
    expect(requests).toEqual([T0 + far]);
  });

  it('does nothing with in-process timers (they fire in this process already)', () => {
    const { alarm, requests, schedule } = setUp('in-process');
    schedule(1_000);
    jest.advanceTimersByTime(2_000);
    expect(alarm.pending).toBe(0);
    expect(requests).toEqual([]);
  });

  it('stops asking once the application shuts down', () => {
    const { alarm, requests, schedule } = setUp();
    schedule(1_000);
    alarm.onApplicationShutdown();
    jest.advanceTimersByTime(2_000);
    expect(requests).toEqual([]);
  });
});
