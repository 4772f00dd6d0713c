import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { niceOf } from '../runtime/thread-priority';
import { openDatabase, type Database } from './database';

jest.setTimeout(120_000);

/** Turns of this thread's event loop completed while `work` ran (other requests' callbacks, socket writes). */
async function turnsDuring<T>(work: Promise<T>): Promise<{ turns: number; value: T }> {
  let turns = 0;
  let running = true;
  const spin = () => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  try {
    return { value: await work, turns };
  } finally {
    running = false;
  }
}

/**
 * A real embedded database in a temporary folder. What the service relies on: the statements run in the embedded
 * database's own thread, so this thread keeps answering while they run; and everything crosses between the threads
 * unchanged (rows, Prisma's errors, transactions).
 */
describe('the embedded database in a thread of its own', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'taintwise-pglite-thread-'));
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({ dataDir: path.join(root, 'data') });
  });
  afterAll(async () => {
    await db?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("keeps this thread's event loop turning while a long statement runs (the stall an in-thread PGlite made)", async () => {
    const started = performance.now();
    const { turns, value } = await turnsDuring(
      db.embedded!.rows<[number]>('SELECT count(*)::int FROM generate_series(1, 3000000) AS n WHERE n % 7 = 0'),
    );
    const ms = performance.now() - started;
    expect(value).toEqual([[428571]]);
    // An in-thread PGlite runs the statement as one synchronous WASM call: no turn at all until it returns.
    expect(ms).toBeGreaterThan(20);
    expect(turns).toBeGreaterThan(20);
  });

  it('returns rows with PGlite’s own values (numbers, text, Dates, booleans, null)', async () => {
    expect(
      await db.embedded!.rows("SELECT 1::int, 'a'::text, '2026-01-02T03:04:05Z'::timestamptz, true, NULL"),
    ).toEqual([[1, 'a', new Date('2026-01-02T03:04:05Z'), true, null]]);
  });

  it('rejects a failing statement with PostgreSQL’s message and code', async () => {
    await expect(db.embedded!.rows('SELECT 1 / 0')).rejects.toMatchObject({
      message: 'division by zero',
      code: '22012',
    });
  });

  it('gives Prisma its driver errors as Prisma maps them (a unique violation is P2002)', async () => {
    await db.prisma.node.create({ data: { name: 'twice' } });
    await expect(db.prisma.node.create({ data: { name: 'twice' } })).rejects.toMatchObject({ code: 'P2002' });
  });

  it('commits an interactive transaction as a whole and rolls a failed one back as a whole', async () => {
    await db.prisma.$transaction(async (tx) => {
      await tx.node.create({ data: { name: 'kept-1' } });
      await tx.node.create({ data: { name: 'kept-2' } });
    });
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.node.create({ data: { name: 'dropped' } });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const names = (await db.prisma.node.findMany({ select: { name: true } })).map((n) => n.name);
    expect(names).toEqual(expect.arrayContaining(['kept-1', 'kept-2']));
    expect(names).not.toContain('dropped');
  });

  it('answers statements issued while a transaction is open after it, in order (one connection, as before)', async () => {
    const order: string[] = [];
    let inside!: () => void;
    const opened = new Promise<void>((resolve) => (inside = resolve));
    const transaction = db.prisma.$transaction(async (tx) => {
      await tx.node.create({ data: { name: 'in-tx' } });
      inside();
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('transaction');
    });
    await opened;
    const outside = db.prisma.node.count().then((count) => {
      order.push('outside');
      return count;
    });
    await transaction;
    const count = await outside;
    expect(order).toEqual(['transaction', 'outside']);
    expect(count).toBeGreaterThanOrEqual(1);
  });
});

describe('the embedded database thread and the process', () => {
  it('answers a call made after close() with an error naming the ended thread, never a hang', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'taintwise-pglite-closed-'));
    try {
      const db = await openDatabase({ dataDir: path.join(root, 'data') });
      await db.close();
      await expect(db.embedded!.rows('SELECT 1')).rejects.toThrow(/embedded database's thread ended/);
      await expect(db.ping()).rejects.toThrow(/embedded database's thread ended/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('keeps a process alive while a call or close() waits for the thread, and lets it exit once idle (even unclosed)', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'taintwise-pglite-exit-'));
    try {
      // The first database is closed, and close() must finish with nothing else alive; the second never is.
      const script = `
        const { openDatabase } = require(${JSON.stringify(path.join(__dirname, 'database.ts'))});
        (async () => {
          const closed = await openDatabase({ dataDir: ${JSON.stringify(path.join(root, 'closed'))} });
          await closed.close();
          console.log('closed');
          const open = await openDatabase({ dataDir: ${JSON.stringify(path.join(root, 'open'))} });
          console.log('answer', (await open.embedded.rows('SELECT 40 + 2'))[0][0]);
        })();`;
      const child = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
        cwd: path.resolve(__dirname, '..', '..', '..'),
        encoding: 'utf8',
        timeout: 90_000,
      });
      expect(child.stderr).toBe('');
      expect(child.stdout).toBe('closed\nanswer 42\n');
      expect(child.status).toBe(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  if (process.platform === 'linux') {
    it('runs its thread at the nice value asked for, and only that thread (the service thread answers first)', async () => {
      const root = mkdtempSync(path.join(tmpdir(), 'taintwise-pglite-nice-'));
      const mainNice = niceOf(process.pid)!;
      const nice = Math.max(13, mainNice + 1);
      const tasksAt = (n: number) => readdirSync('/proc/self/task').filter((tid) => niceOf(Number(tid)) === n).length;
      const before = tasksAt(nice);
      try {
        const db = await openDatabase({ dataDir: path.join(root, 'data'), embeddedThreadNice: nice });
        try {
          expect(await db.embedded!.rows('SELECT 1')).toEqual([[1]]);
          expect(tasksAt(nice)).toBe(before + 1);
          expect(niceOf(process.pid)).toBe(mainNice);
        } finally {
          await db.close();
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
