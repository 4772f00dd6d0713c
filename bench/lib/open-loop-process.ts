/**
 * The open loop (open-loop.ts) in a process of its own, which holds nothing but its requests. The bench's
 * own process keeps the generated inventory and its import chunks (155,000 objects and ~340 MB at full
 * size) for the whole run; a loader living in that heap stopped for its own collections and sent late,
 * and those stops were counted as the service's latency (bench/ANALYSIS.md, session of 2026-11-26 09:50).
 * The child warms up on the same loop first (its own code, and the service), then measures.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { OpenLoopOptions, OpenLoopResult } from './open-loop';

export interface OpenLoopChildRequest extends Omit<OpenLoopOptions, 'body'> {
  /** The bodies asked round-robin, each made distinct by scenarios.ts distinctPodBody(body, `${tag}-${n}`). */
  bodies: Array<Record<string, any>>;
  tag: string;
  /** Seconds of the same loop run first and not measured (distinct bodies of their own). */
  warmSec?: number;
}

/** What the child sends: once warmed up (if it warms up), then the result or an error. */
export type OpenLoopChildMessage = { warmed: true } | { result: OpenLoopResult } | { error: string };

/** Runs the loop in a child process; `onWarmed` is called when the measured window is about to start. */
export function runOpenLoopInChild(request: OpenLoopChildRequest, onWarmed?: () => void): Promise<OpenLoopResult> {
  const child = fork(join(__dirname, 'open-loop-child.ts'), [], {
    execArgv: ['-r', '@swc-node/register'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.on('message', (m: OpenLoopChildMessage) => {
      if ('warmed' in m) onWarmed?.();
      else if ('result' in m) resolve(m.result);
      else reject(new Error(`the open-loop process failed: ${m.error}`));
    });
    child.once('exit', (code) => reject(new Error(`the open-loop process exited with ${code} before answering`)));
    child.send(request);
  });
}
