/**
 * The live-stream watcher (eviction-stream.ts) in a process of its own. Each event's arrival is stamped
 * when this process reads it, so the reader must not stop for anything else: the bench's own process
 * keeps the generated inventory (~340 MB at full size), and a collection there held the stream's frames
 * unread and counted as eviction lag, as its loader once did to the open loop (open-loop-process.ts).
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';

/** Parent → child: start watching; then stop once `expected` arrived or `waitMs` passed. */
export type EvictionStreamChildRequest =
  { url: string; nodes: string[] } | { stop: { expected: number; waitMs: number } };
/** Child → parent: the arrival − evictAt of every event seen, and why the stream failed if it did. */
export interface EvictionStreamChildAnswer {
  lags: number[];
  error?: string;
}

export interface EvictionStreamWatch {
  /** Waits until `expected` events arrived (or `waitMs` passed), stops watching, and gives their lags. */
  stop(expected: number, waitMs: number): Promise<number[]>;
  /** Set by `stop` when the stream failed. */
  error?: string;
}

export function watchEvictionsInChild(url: string, nodes: Set<string>): EvictionStreamWatch {
  const child = fork(join(__dirname, 'eviction-stream-child.ts'), [], {
    execArgv: ['-r', '@swc-node/register'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const answered = new Promise<EvictionStreamChildAnswer>((resolve, reject) => {
    child.once('message', (m: EvictionStreamChildAnswer) => resolve(m));
    child.once('exit', (code) => reject(new Error(`the eviction-stream process exited with ${code} before answering`)));
  });
  answered.catch(() => undefined); // read by stop(); a child that dies early must not be an unhandled rejection
  child.send({ url, nodes: [...nodes] } satisfies EvictionStreamChildRequest);
  const watch: EvictionStreamWatch = {
    async stop(expected, waitMs) {
      child.send({ stop: { expected, waitMs } } satisfies EvictionStreamChildRequest);
      const answer = await answered;
      watch.error = answer.error;
      return answer.lags;
    },
  };
  return watch;
}
