import { DelayedJob, DelayedJobs } from './delayed-jobs';

/**
 * What every `DelayedJobs` adapter must do (the semantics written on the port in delayed-jobs.ts),
 * as one Jest suite run against each adapter by delayed-jobs.spec.ts.
 *
 * Time goes through the harness: a real adapter sleeps (short real delays, STYLE habit 7 allows
 * them only for the timers themselves), an adapter on a ManualClock moves the clock. Each test gets
 * a fresh harness, and so a fresh queue.
 */
export interface DelayedJobsHarness {
  timers: DelayedJobs;
  /** The time the adapter goes by, in ms. */
  now(): number;
  /** Lets `ms` pass: a real sleep, or moving a ManualClock and waiting for the handlers it fired. */
  advance(ms: number): Promise<void>;
  /** True when time is real, so lateness figures mean something. */
  realTime: boolean;
  /** How late a firing may be in these tests (one job, unloaded). */
  toleranceMs: number;
  /** The adapter's retry policy: total runs per firing, and the first backoff. */
  attempts: number;
  backoffMs: number;
  /** What the adapter reported to its `onError` about handler failures, in order. */
  handlerErrors: Array<{ id?: string; attempt?: number; final?: boolean }>;
  /** Closes the timers and removes whatever the harness created (queues, keys). */
  dispose(): Promise<void>;
}

export interface ContractOptions {
  /** Jobs in the "many jobs due within one second" case; default `TIMERS_MANY_JOBS`, then 2,000. */
  manyJobs?: number;
}

interface Firing {
  id: string;
  at: number;
  dueAt: number;
  data: Record<string, unknown>;
}

export function describeDelayedJobsContract(
  name: string,
  factory: () => Promise<DelayedJobsHarness>,
  options: ContractOptions = {},
): void {
  describe(`DelayedJobs contract: ${name}`, () => {
    let h: DelayedJobsHarness;
    let fired: Firing[];
    let runsById: Map<string, number>;
    /** Per-id behaviour of the handler; default: record and succeed. */
    let behaviour: Map<string, (job: DelayedJob, run: number) => Promise<void>>;

    const record = async (job: DelayedJob): Promise<void> => {
      const run = (runsById.get(job.id) ?? 0) + 1;
      runsById.set(job.id, run);
      fired.push({ id: job.id, at: h.now(), dueAt: job.dueAt.getTime(), data: job.data });
      await behaviour.get(job.id)?.(job, run);
    };
    const firingsOf = (id: string) => fired.filter((f) => f.id === id);
    const job = (id: string, inMs: number, data: Record<string, unknown> = {}): DelayedJob => ({
      id,
      dueAt: new Date(h.now() + inMs),
      data,
    });

    /** Lets time pass until `done()` holds, at most `withinMs` of the harness' time. */
    const waitFor = async (done: () => boolean, withinMs: number, what: string): Promise<void> => {
      const step = h.realTime ? 10 : 5;
      for (let waited = 0; !done(); waited += step) {
        if (waited > withinMs) throw new Error(`timed out after ${withinMs} ms waiting for: ${what}`);
        await h.advance(step);
      }
    };

    beforeEach(async () => {
      h = await factory();
      fired = [];
      runsById = new Map();
      behaviour = new Map();
      await h.timers.start(record);
    });

    afterEach(async () => {
      await h?.dispose();
    });

    it('has a kind and answers ping', async () => {
      expect(['redis', 'in-process']).toContain(h.timers.kind);
      await expect(h.timers.ping()).resolves.toBeUndefined();
    });

    it('fires at dueAt: never before, soon after', async () => {
      const j = job('on-time', 300, { pod: 'p1' });
      await h.timers.schedule(j);
      await h.advance(200);
      expect(fired).toEqual([]);
      await waitFor(() => fired.length === 1, 100 + h.toleranceMs, 'the job to fire');
      const [f] = fired;
      expect(f).toMatchObject({ id: 'on-time', dueAt: j.dueAt.getTime(), data: { pod: 'p1' } });
      expect(f.at).toBeGreaterThanOrEqual(j.dueAt.getTime());
      expect(f.at - j.dueAt.getTime()).toBeLessThanOrEqual(h.toleranceMs);
    });

    it('fires a dueAt in the past at once', async () => {
      const scheduledAt = h.now();
      await h.timers.schedule(job('overdue', -60_000));
      await waitFor(() => fired.length === 1, h.toleranceMs, 'the overdue job to fire');
      expect(fired[0].at - scheduledAt).toBeLessThanOrEqual(h.toleranceMs);
    });

    it('cancel before dueAt removes the job (true) and it never fires', async () => {
      await h.timers.schedule(job('cancelled', 200));
      await expect(h.timers.cancel('cancelled')).resolves.toBe(true);
      expect(await h.timers.list()).toEqual([]);
      await h.advance(500);
      expect(fired).toEqual([]);
    });

    it('cancel of an unknown or an already fired id is false', async () => {
      await expect(h.timers.cancel('never-scheduled')).resolves.toBe(false);
      await h.timers.schedule(job('done', 0));
      await waitFor(() => fired.length === 1, h.toleranceMs, 'the job to fire');
      await h.advance(50);
      await expect(h.timers.cancel('done')).resolves.toBe(false);
    });

    it('re-scheduling an id to a later dueAt fires it once, at the new time, with the new data', async () => {
      const first = job('later', 200, { v: 1 });
      const second = job('later', 500, { v: 2 });
      await h.timers.schedule(first);
      await h.timers.schedule(second);
      await h.advance(350);
      expect(fired).toEqual([]);
      await waitFor(() => fired.length === 1, 150 + h.toleranceMs, 'the re-timed job to fire');
      expect(fired[0].at).toBeGreaterThanOrEqual(second.dueAt.getTime());
      expect(fired[0].data).toEqual({ v: 2 });
      await h.advance(300);
      expect(firingsOf('later')).toHaveLength(1);
    });

    it('re-scheduling an id to an earlier dueAt fires it once, at the new time, and drops the old timer', async () => {
      const first = job('earlier', 60_000, { v: 1 });
      const second = job('earlier', 200, { v: 2 });
      await h.timers.schedule(first);
      await h.timers.schedule(second);
      await waitFor(() => fired.length === 1, 200 + h.toleranceMs, 'the re-timed job to fire');
      expect(fired[0].at).toBeGreaterThanOrEqual(second.dueAt.getTime());
      expect(fired[0].data).toEqual({ v: 2 });
      expect(await h.timers.list()).toEqual([]);
    });

    it('frees an id once it has fired, so the same id can be scheduled again (kubernetes#107543)', async () => {
      await h.timers.schedule(job('reused', 50));
      await waitFor(() => fired.length === 1, 50 + h.toleranceMs, 'the first firing');
      await h.advance(50);
      await h.timers.schedule(job('reused', 50));
      await waitFor(() => fired.length === 2, 50 + h.toleranceMs, 'the second firing');
      expect(firingsOf('reused')).toHaveLength(2);
    });

    it('list() shows the pending jobs with their dueAt and data, earliest first', async () => {
      const a = job('list-a', 5_000, { n: 1, nested: { ok: true } });
      const b = job('list-b', 3_000, { n: 2 });
      const c = job('list-c', 4_000, { n: 3 });
      for (const j of [a, b, c]) await h.timers.schedule(j);
      expect(await h.timers.list()).toEqual([b, c, a]);
      await h.timers.cancel('list-c');
      expect(await h.timers.list()).toEqual([b, a]);
    });

    it('jobs scheduled before start() fire once it is called', async () => {
      await h.dispose();
      h = await factory();
      const j = job('before-start', 100);
      await h.timers.schedule(j);
      await h.advance(150);
      await h.timers.start(record);
      await waitFor(() => fired.length === 1, h.toleranceMs, 'the job to fire after start');
      expect(fired[0].at).toBeGreaterThanOrEqual(j.dueAt.getTime());
    });

    it('retries a throwing handler with a backoff', async () => {
      behaviour.set('flaky', async (_job, run) => {
        if (run < 3) throw new Error(`transient failure ${run}`);
      });
      const j = job('flaky', 100);
      await h.timers.schedule(j);
      const backoffs = h.backoffMs * 3; // 1st + 2nd backoff
      await waitFor(() => fired.length === 3, 100 + backoffs + 3 * h.toleranceMs, 'three runs');
      const runs = firingsOf('flaky');
      expect(runs[0].at).toBeGreaterThanOrEqual(j.dueAt.getTime());
      expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(h.backoffMs);
      expect(runs[2].at - runs[1].at).toBeGreaterThanOrEqual(2 * h.backoffMs);
      await h.advance(50);
      expect(await h.timers.list()).toEqual([]);
    });

    it('gives up after its attempts and frees the id', async () => {
      behaviour.set('broken', async () => {
        throw new Error('permanent failure');
      });
      await h.timers.schedule(job('broken', 0));
      const allBackoffs = h.backoffMs * (2 ** (h.attempts - 1) - 1);
      await waitFor(() => fired.length === h.attempts, allBackoffs + h.attempts * h.toleranceMs, 'every attempt');
      await h.advance(allBackoffs + 200);
      expect(firingsOf('broken')).toHaveLength(h.attempts);
      expect(h.handlerErrors).toEqual(
        Array.from({ length: h.attempts }, (_, i) => ({ id: 'broken', attempt: i + 1, final: i + 1 === h.attempts })),
      );
      expect(await h.timers.list()).toEqual([]);
      behaviour.delete('broken');
      await h.timers.schedule(job('broken', 0));
      await waitFor(() => fired.length === h.attempts + 1, h.toleranceMs, 'the id to fire again');
    });

    it('a handler may re-schedule its own id; the new job fires at its own dueAt', async () => {
      let rescheduled: DelayedJob | undefined;
      behaviour.set('self', async (_job, run) => {
        if (run === 1) {
          rescheduled = job('self', 200, { round: 2 });
          await h.timers.schedule(rescheduled);
        }
      });
      await h.timers.schedule(job('self', 0, { round: 1 }));
      await waitFor(() => fired.length === 2, 200 + 2 * h.toleranceMs, 'the second round');
      const [, second] = firingsOf('self');
      expect(second.data).toEqual({ round: 2 });
      expect(second.at).toBeGreaterThanOrEqual(rescheduled!.dueAt.getTime());
      await h.advance(50);
      expect(await h.timers.list()).toEqual([]);
    });

    it('re-scheduling an id while its handler runs fires again after that run, never concurrently', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let concurrent = 0;
      let maxConcurrent = 0;
      behaviour.set('busy', async (_job, run) => {
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        if (run === 1) await gate;
        concurrent--;
      });
      await h.timers.schedule(job('busy', 0, { v: 1 }));
      await waitFor(() => fired.length === 1, h.toleranceMs, 'the first run to start');
      await h.timers.schedule(job('busy', 0, { v: 2 }));
      expect((await h.timers.list()).map((j) => j.data)).toEqual([{ v: 2 }]);
      await h.advance(100);
      expect(fired).toHaveLength(1);
      release();
      await waitFor(() => fired.length === 2, h.toleranceMs, 'the second run');
      expect(fired[1].data).toEqual({ v: 2 });
      expect(maxConcurrent).toBe(1);
    });

    it('scheduleMany arms every job at its own dueAt, replaces pending ids, and the last job of an id wins', async () => {
      await h.timers.schedule(job('bulk-replaced', 60_000, { v: 1 }));
      await h.timers.scheduleMany([]);
      await h.timers.scheduleMany([
        job('bulk-a', 300, { n: 'a' }),
        job('bulk-replaced', 200, { v: 2 }),
        job('bulk-b', 100, { n: 'b' }),
        job('bulk-dup', 100, { v: 1 }),
        job('bulk-dup', 400, { v: 2 }),
      ]);
      expect((await h.timers.list()).map((j) => [j.id, j.data])).toEqual([
        ['bulk-b', { n: 'b' }],
        ['bulk-replaced', { v: 2 }],
        ['bulk-a', { n: 'a' }],
        ['bulk-dup', { v: 2 }],
      ]);
      await h.advance(50);
      expect(fired).toEqual([]);
      await waitFor(() => fired.length === 4, 400 + h.toleranceMs, 'the four jobs');
      for (const f of fired) {
        expect(f.at).toBeGreaterThanOrEqual(f.dueAt);
        expect(f.at - f.dueAt).toBeLessThanOrEqual(h.toleranceMs);
      }
      expect(fired.map((f) => f.id).sort()).toEqual(['bulk-a', 'bulk-b', 'bulk-dup', 'bulk-replaced']);
      expect(firingsOf('bulk-replaced')[0].data).toEqual({ v: 2 });
      await h.advance(100);
      expect(firingsOf('bulk-dup')).toHaveLength(1);
      expect(await h.timers.list()).toEqual([]);
    });

    it('scheduleMany of an id whose handler is running fires it again after that run', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      behaviour.set('bulk-busy', async (_job, run) => {
        if (run === 1) await gate;
      });
      await h.timers.schedule(job('bulk-busy', 0, { v: 1 }));
      await waitFor(() => fired.length === 1, h.toleranceMs, 'the first run to start');
      await h.timers.scheduleMany([job('bulk-busy', 0, { v: 2 }), job('bulk-other', 0)]);
      await waitFor(() => firingsOf('bulk-other').length === 1, h.toleranceMs, 'the other job');
      expect(firingsOf('bulk-busy')).toHaveLength(1);
      release();
      await waitFor(() => firingsOf('bulk-busy').length === 2, h.toleranceMs, 'the second run');
      expect(firingsOf('bulk-busy')[1].data).toEqual({ v: 2 });
    });

    it('cancelMany removes the pending jobs, says how many were pending, and they never fire', async () => {
      await h.timers.scheduleMany([job('cm-a', 200), job('cm-b', 200), job('cm-c', 200)]);
      await expect(h.timers.cancelMany([])).resolves.toBe(0);
      await expect(h.timers.cancelMany(['cm-a', 'cm-c', 'cm-unknown', 'cm-a'])).resolves.toBe(2);
      expect((await h.timers.list()).map((j) => j.id)).toEqual(['cm-b']);
      await waitFor(() => fired.length === 1, 200 + h.toleranceMs, 'the job left');
      await h.advance(200);
      expect(fired.map((f) => f.id)).toEqual(['cm-b']);
      await expect(h.timers.cancelMany(['cm-b'])).resolves.toBe(0);
    });

    const many = options.manyJobs ?? (Number(process.env.TIMERS_MANY_JOBS) || 2_000);
    it(`fires ${many} jobs due within the same second exactly once each, never early`, async () => {
      // Deadlines spread over one second, starting after the scheduling is done.
      const base = h.now() + (h.realTime ? 1_000 + many / 5 : 1_000);
      const jobs = Array.from({ length: many }, (_, i) => ({
        id: `bulk:${i}`,
        dueAt: new Date(base + Math.floor((i * 1000) / many)),
        data: { i },
      }));
      // Half one by one (250 at a time), half in bulk: both paths must fire exactly once each.
      const half = Math.floor(many / 2);
      let started = Date.now();
      for (let i = 0; i < half; i += 250)
        await Promise.all(jobs.slice(i, Math.min(half, i + 250)).map((j) => h.timers.schedule(j)));
      const oneByOneMs = Date.now() - started;
      started = Date.now();
      for (let i = half; i < many; i += 2_000) await h.timers.scheduleMany(jobs.slice(i, Math.min(many, i + 2_000)));
      const bulkMs = Date.now() - started;
      await waitFor(() => fired.length >= many, base - h.now() + 1_000 + 30_000, `${many} firings`);
      await h.advance(200);

      const counts = new Map<string, number>();
      for (const f of fired) counts.set(f.id, (counts.get(f.id) ?? 0) + 1);
      expect(counts.size).toBe(many);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      const lateness = fired.map((f) => f.at - f.dueAt).sort((a, b) => a - b);
      expect(lateness[0]).toBeGreaterThanOrEqual(0);
      if (h.realTime) {
        const at = (q: number) => lateness[Math.min(lateness.length - 1, Math.floor(q * lateness.length))];
        // A report, not an assertion (ARCHITECTURE.md: benchmarks are reports, not timed tests).
        console.info(
          `[${name}] ${many} jobs due within 1 s: lateness p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${lateness.at(-1)} ms` +
            ` (scheduling ${half} one by one took ${oneByOneMs} ms, ${many - half} with scheduleMany ${bulkMs} ms)`,
        );
      }
    }, 120_000);
  });
}
