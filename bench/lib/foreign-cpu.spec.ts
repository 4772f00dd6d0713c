import { spawn } from 'node:child_process';
import { ForeignCpuSampler, processLabel } from './foreign-cpu';

describe('processLabel: one name per program and role, whatever the run', () => {
  it.each([
    [
      "RabbitMQ's epmd-starter VM, numeric suffix dropped",
      'beam.smp',
      ['/usr/lib/erlang/erts-13.1.5/bin/beam.smp', '--', '-sname', 'epmd-starter-502272066', '-noshell'],
      'beam.smp (-sname epmd-starter)',
    ],
    [
      'a PostgreSQL backend, client address dropped',
      'postgres',
      ['postgres: 15/main: postgres tw_bench 127.0.0.1(53312) idle'],
      'postgres: 15/main: postgres tw_bench idle',
    ],
    [
      'a PostgreSQL auxiliary process, padding trimmed',
      'postgres',
      ['postgres: 15/main: walwriter '],
      'postgres: 15/main: walwriter',
    ],
    [
      "the postmaster's own command line",
      'postgres',
      ['/usr/lib/postgresql/15/bin/postgres', '-D', '/var/lib/x'],
      'postgres',
    ],
    ['anything else: its comm', 'redis-server', ['/usr/bin/redis-server 127.0.0.1:6379'], 'redis-server'],
    ['a title that is not the program', 'node', ['node: not a title'], 'node: not a title'],
  ])('%s', (_why, comm, argv, label) => {
    expect(processLabel(comm, argv)).toBe(label);
  });
});

describe('ForeignCpuSampler', () => {
  it("counts a grandchild's CPU under its name, inside the window it ran in", async () => {
    const sampler = new ForeignCpuSampler(50);
    const before = Date.now();
    // perl under sh: a grandchild of this process (its children are the measurement and are left out),
    // busy until it has used 400 ms of CPU whatever the machine's load, then asleep for a second so the
    // sampler reads its last CPU before it exits (a process's CPU after the last read is not counted)
    await new Promise<void>((resolve, reject) => {
      const perl = `while (1) { my @t = times; last if $t[0] + $t[1] >= 0.4 } select(undef, undef, undef, 1)`;
      const sh = spawn('sh', ['-c', `perl -e '${perl}' & wait`]);
      sh.on('error', reject);
      sh.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`sh exited ${code}`))));
    });
    const after = Date.now();
    // every process named: on a busy machine (CI runs suites side by side) perl need not be among the top few
    const summary = sampler.stop(Infinity);
    const perl = (top: Array<{ name: string; ms: number }>) => top.find((p) => p.name === 'perl')?.ms ?? 0;
    // /proc counts in 10 ms ticks
    expect(perl(summary.top)).toBeGreaterThanOrEqual(400);
    expect(perl(summary.top)).toBeLessThanOrEqual(450);
    expect(perl(sampler.during(before, after, Infinity).top)).toBe(perl(summary.top));
    expect(summary.totalMs).toBeGreaterThanOrEqual(perl(summary.top));
  });

  it('names a process by the program it execs into, not by the shell it was read as first', async () => {
    const sampler = new ForeignCpuSampler(50);
    // the grandchild is `sh` for half a second (read as such several times), then execs perl, which spends
    // 300 ms of CPU and sleeps a second so that its last CPU is read
    await new Promise<void>((resolve, reject) => {
      const perl = `while (1) { my @t = times; last if $t[0] + $t[1] >= 0.3 } select(undef, undef, undef, 1)`;
      // the program comes in the environment: the inner shell expands "$P", the outer one leaves it alone
      const sh = spawn('sh', ['-c', `sh -c 'sleep 0.5; exec perl -e "$P"' & wait`], {
        env: { ...process.env, P: perl },
      });
      sh.on('error', reject);
      sh.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`sh exited ${code}`))));
    });
    const summary = sampler.stop(Infinity);
    expect(summary.top.find((p) => p.name === 'perl')?.ms ?? 0).toBeGreaterThanOrEqual(300);
  });

  it("counts a child's CPU apart, as the measurement's own, and not among the others", async () => {
    const sampler = new ForeignCpuSampler(50);
    const before = Date.now();
    // perl as a direct child (the service and the loader are the bench's children): 300 ms of CPU, then asleep
    // for a second so the sampler reads its last CPU before it exits
    await new Promise<void>((resolve, reject) => {
      const perl = spawn('perl', ['-e', 'while (1) { my @t = times; last if $t[0] + $t[1] >= 0.3 } sleep 1']);
      perl.on('error', reject);
      perl.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`perl exited ${code}`))));
    });
    const around = sampler.during(before, Date.now(), Infinity);
    sampler.stop();
    expect(around.measured.find((p) => p.name === 'child perl')?.ms ?? 0).toBeGreaterThanOrEqual(300);
    expect(around.top.map((p) => p.name)).not.toContain('perl');
    expect(around.top.map((p) => p.name)).not.toContain('child perl');
    expect(around.spanMs).toBeGreaterThanOrEqual(1000);
  });
});
