/**
 * The open loop (lib/open-loop.ts) in a child process of its own, for loader-gc.ts and
 * open-loop-stalls.ts: does the loader pause less when its heap does not also hold the bench's
 * generated inventory (155,000 objects and 338 MB of import chunks at full size)? Measured on
 * 2026-11-25 (bench/ANALYSIS.md, third pass): not shown, so bench/run.ts still runs the loader in the
 * bench's own process; this stays for the rerun on a quiet machine.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { OpenLoopOptions, OpenLoopResult } from '../lib/open-loop';

export interface OpenLoopChildRequest extends Omit<OpenLoopOptions, 'body'> {
  /** The bodies asked round-robin, each made distinct by scenarios.ts distinctPodBody(body, `${tag}-${n}`). */
  bodies: Array<Record<string, any>>;
  tag: string;
}

export function runOpenLoopInChild(request: OpenLoopChildRequest): Promise<OpenLoopResult> {
  const child = fork(join(__dirname, 'open-loop-child.ts'), [], {
    execArgv: ['-r', '@swc-node/register'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { result?: OpenLoopResult; error?: string }) =>
      m.result ? resolve(m.result) : reject(new Error(`the open-loop process failed: ${m.error}`)),
    );
    child.once('exit', (code) => reject(new Error(`the open-loop process exited with ${code} before answering`)));
    child.send(request);
  });
}
