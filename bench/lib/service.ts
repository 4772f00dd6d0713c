import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { http } from './http';

export const REPO_ROOT = new URL('../../', `file://${__dirname}/`).pathname.replace(/\/$/, '');

export interface ServiceOptions {
  /** Storage: DATABASE_URL + REDIS_URL + REDIS_PREFIX, or DATA_DIR. */
  env: Record<string, string>;
  logLevel?: string;
  /** Extra node flags for the child (e.g. --cpu-prof). */
  nodeArgs?: string[];
  timeoutMs?: number;
  /** Where to run src/main.ts from (default: this repository). */
  cwd?: string;
  /** This compiled entry (`compileService`: dist/main.js, as start:prod and the image run), not src/main.ts via swc. */
  entry?: string;
}

export interface StartedService {
  service: Service;
  /** Spawn → `/readyz` 200. */
  readyMs: number;
}

/** Settings the bench never inherits from its own environment. */
const STRIPPED = [
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_PREFIX',
  'DATA_DIR',
  'PORT',
  'HOST',
  'API_KEYS',
  'LOG_LEVEL',
  'NODE_OPTIONS',
  'NODE_ENV',
];

/** The heap budget `npm start` and the image give the service (package.json, Dockerfile). */
export const SERVICE_NODE_ARGS = ['--max-old-space-size=1024', '--max-semi-space-size=64'];

/** taintwise as a child process (`node -r @swc-node/register src/main.ts`), as an operator would run it. */
export class Service {
  readonly logs: Array<Record<string, any>> = [];
  readonly stderr: string[] = [];
  exitCode: number | null | undefined = undefined;
  /**
   * The signal that ended the child, when one did (ours: SIGTERM/SIGKILL from stop(); anything else came from outside).
   */
  exitSignal: string | null = null;
  readonly exited: Promise<number | null>;
  private buffer = '';

  private constructor(
    readonly child: ChildProcess,
    readonly port: number,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exitCode = code ?? (signal ? -1 : null);
        this.exitSignal = signal;
        resolve(this.exitCode);
      }),
    );
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.onStdout(chunk));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      this.stderr.push(chunk);
      if (this.stderr.length > 200) this.stderr.shift();
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.child.pid!;
  }

  static async start(options: ServiceOptions): Promise<StartedService> {
    const port = await freePort();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !STRIPPED.includes(k)) env[k] = v;
    Object.assign(env, {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: options.logLevel ?? 'warn',
      // The bench is the only client: a per-client rate limit would measure the limiter, not the service.
      RATE_LIMIT_PER_MINUTE: '0',
      ...options.env,
    });
    const started = performance.now();
    const main = options.entry ? [options.entry] : ['-r', '@swc-node/register', 'src/main.ts'];
    const child = spawn(process.execPath, [...SERVICE_NODE_ARGS, ...(options.nodeArgs ?? []), ...main], {
      cwd: options.cwd ?? REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new Service(child, port);
    const deadline = started + (options.timeoutMs ?? 180_000);
    for (;;) {
      if (service.exitCode !== undefined)
        throw new Error(
          `taintwise exited with ${service.exitCode}${service.exitSignal ? ` (signal ${service.exitSignal}, not sent by the bench)` : ''} before it was ready:\n${service.stderr.join('').slice(-3000)}${service.logTail()}`,
        );
      if (performance.now() > deadline) {
        await service.stop();
        throw new Error(`taintwise was not ready within ${options.timeoutMs ?? 180_000} ms${service.logTail()}`);
      }
      try {
        const r = await http(service.url, 'GET', '/readyz');
        if (r.status === 200) return { service, readyMs: performance.now() - started };
      } catch {
        // not listening yet
      }
      await sleep(25);
    }
  }

  /** The first log line with this `msg`. */
  logLine(msg: string): Record<string, any> | undefined {
    return this.logs.find((l) => l.msg === msg);
  }

  logTail(): string {
    return this.logs.length
      ? `\nlast log lines:\n${this.logs
          .slice(-10)
          .map((l) => JSON.stringify(l))
          .join('\n')}`
      : '';
  }

  /** VmRSS and VmHWM (peak) of the child, in MiB, from /proc/<pid>/status. */
  memory(): { rssMiB: number; peakMiB: number } {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
      return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
    } catch {
      return { rssMiB: NaN, peakMiB: NaN };
    }
  }

  /** CPU seconds (user + system) the child has used so far, from /proc/<pid>/stat. */
  cpuSeconds(): number {
    try {
      const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {
      return NaN;
    }
  }

  /** SIGTERM (graceful), then SIGKILL after `graceMs`. */
  async stop(graceMs = 20_000): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  kill(): void {
    if (this.exitCode === undefined) this.child.kill('SIGKILL');
  }

  private onStdout(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      if (!line.trim()) continue;
      try {
        this.logs.push(JSON.parse(line));
      } catch {
        this.logs.push({ msg: line });
      }
      if (this.logs.length > 5000) this.logs.splice(0, 1000);
    }
  }
}

/**
 * The service compiled as production runs it (`npm run build`'s tsconfig into a temporary folder, with
 * links to the tree's node_modules and prisma/): the swc transpiler the development entry loads keeps
 * ~24 MiB of its own on the heap and doubles an idle service's full collection (58 vs 82 MiB, 37 vs
 * 65 ms), which is not what a deployment pays. `--noCheck`: the types are `npm run typecheck`'s job, and tsc
 * without the full check emits the same bytes (303 files compared, all identical) for 10-18 % less CPU; a missing
 * main.js still stops the bench.
 */
export function compileService(tree: string): { entry: string; ms: number; note?: string } {
  const started = performance.now();
  const out = mkdtempSync(join(tmpdir(), 'taintwise-bench-dist-'));
  symlinkSync(join(tree, 'node_modules'), join(out, 'node_modules'));
  symlinkSync(join(tree, 'prisma'), join(out, 'prisma'));
  let note: string | undefined;
  try {
    execFileSync(
      process.execPath,
      [
        join(tree, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        'tsconfig.build.json',
        '--outDir',
        join(out, 'dist'),
        '--sourceMap',
        'false',
        '--noCheck',
      ],
      { cwd: tree, encoding: 'utf8', stdio: 'pipe' },
    );
  } catch (e) {
    note = `tsc reported errors (emitted anyway): ${String((e as { stdout?: string }).stdout ?? e).split('\n')[0]}`;
  }
  const entry = join(out, 'dist', 'main.js');
  if (!existsSync(entry)) throw new Error(`the build emitted no ${entry}${note ? `: ${note}` : ''}`);
  return { entry, ms: performance.now() - started, note };
}

/** USER_HZ: 100 on Linux. */
const CLOCK_TICKS = 100;

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Waits until the service is idle before the next measurement: after a load run at concurrency 16,
 * requests still queued in the service (taint-impact answers take ~40 ms of CPU each) would be
 * counted against whatever is measured next. Idle = /healthz answers in under 5 ms three times in
 * a row (at most 30 s).
 */
export async function settle(url: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  let quick = 0;
  while (quick < 3 && performance.now() < deadline) {
    const started = performance.now();
    await http(url, 'GET', '/healthz');
    quick = performance.now() - started < 5 ? quick + 1 : 0;
    await sleep(100);
  }
}
