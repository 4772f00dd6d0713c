import { readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { lowerThisThreadPriority, niceOf } from './thread-priority';

interface InThread {
  /** What lowerThisThreadPriority answered there. */
  returned: number | undefined;
  /** The thread's nice value as this thread reads it from /proc while that thread still runs. */
  kernel: number | undefined;
  tid: number | undefined;
}

/** Runs lowerThisThreadPriority(nice) in a new thread. */
function inThread(nice: number): Promise<InThread> {
  const source = `
    require('@swc-node/register');
    const { parentPort, workerData } = require('node:worker_threads');
    const { readlinkSync } = require('node:fs');
    const { lowerThisThreadPriority } = require(workerData.module);
    const nice = lowerThisThreadPriority(workerData.nice);
    const tid = process.platform === 'linux' ? Number(readlinkSync('/proc/thread-self').split('/').pop()) : undefined;
    parentPort.postMessage({ nice, tid });
    // Held until told, so its task is still there to be read.
    parentPort.once('message', () => parentPort.close());
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { module: require.resolve('./thread-priority'), nice },
    });
    worker.once('error', reject);
    worker.once('message', (answer: { nice: number | undefined; tid: number | undefined }) => {
      const kernel = answer.tid === undefined ? undefined : niceOf(answer.tid);
      worker.postMessage('done');
      resolve({ returned: answer.nice, kernel, tid: answer.tid });
    });
  });
}

const mainNice = (): number | undefined => niceOf(process.pid);

describe('lowerThisThreadPriority', () => {
  if (process.platform === 'linux') {
    it('lowers only the calling thread: the kernel reads its new nice value, the service thread keeps its own', async () => {
      const before = mainNice();
      const target = Math.max(12, (before ?? 0) + 1);
      const thread = await inThread(target);
      expect(thread.tid).toBeGreaterThan(0);
      expect(thread.tid).not.toBe(process.pid);
      expect(thread.returned).toBe(target);
      expect(thread.kernel).toBe(target);
      expect(mainNice()).toBe(before);
    });

    it('never raises a priority: asking for less than the thread has leaves it as it is', async () => {
      const before = mainNice() ?? 0;
      const thread = await inThread(0);
      expect(thread.returned).toBe(before);
      expect(thread.kernel).toBe(before);
    });

    it('reads nice values of every task of this process', () => {
      const tasks = readdirSync('/proc/self/task').map(Number);
      expect(tasks).toContain(process.pid);
      for (const tid of tasks) expect(niceOf(tid)).toEqual(expect.any(Number));
    });
  } else {
    it('answers undefined where threads have no nice value of their own', () => {
      expect(lowerThisThreadPriority(10)).toBeUndefined();
    });
  }
});
