/**
 * The closed-loop load (load.ts, autocannon) in a process of its own, as the open loop's loader is
 * (open-loop-process.ts): the bench's own process keeps the generated inventory (~340 MB at full size),
 * and a load generator living in that heap stops for its collections; at c=16 every stop leaves the
 * service idle, and the throughput it measures is the loader's as much as the service's.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { LoadOptions, LoadResult } from './load';
import type { VariablesShape } from '../scenarios';

/** A request as the child builds it: a fixed body, or `distinctFrom` made distinct per request. */
export interface ChildLoadRequest {
  method: 'POST' | 'GET';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** A feasible-nodes REST body: each request sends scenarios.ts distinctPodBody(it, `${tag}-${n}`). */
  distinctFrom?: Record<string, any>;
  /** The same made distinct, sent as this GraphQL query's variables (scenarios.ts variablesFor). */
  distinctGraphql?: { query: string; shape: VariablesShape };
}

export interface LoadChildRequest extends Omit<LoadOptions, 'requests' | 'serverCpu' | 'onWarmed'> {
  requests: ChildLoadRequest[];
  /** Makes this run's distinct bodies unlike any other run's. */
  tag: string;
}

/** What the child sends: when the warm-up is over (if there is one), then the result or an error. */
export type LoadChildMessage = { warmed: true } | { result: LoadResult } | { error: string };

/**
 * Runs the load in a child process. `serverCpu` (CPU seconds of the service so far) is read here, when
 * the child says its warm-up is over and when its result arrives, as runLoad reads it in-process.
 */
export function runLoadInChild(request: LoadChildRequest, serverCpu?: () => number): Promise<LoadResult> {
  const child = fork(join(__dirname, 'load-child.ts'), [], {
    execArgv: ['-r', '@swc-node/register'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let cpuBefore: number | undefined; // read when the child says the measured run starts (load.ts onWarmed)
  return new Promise((resolve, reject) => {
    child.on('message', (m: LoadChildMessage) => {
      if ('warmed' in m) cpuBefore = serverCpu?.();
      else if ('result' in m) {
        const result = m.result;
        const cpuAfter = serverCpu?.();
        if (cpuBefore !== undefined && cpuAfter !== undefined && Number.isFinite(cpuAfter - cpuBefore) && result.ok) {
          result.serverCpuMsPerRequest = ((cpuAfter - cpuBefore) * 1000) / result.ok;
          result.perCoreCapacityRps = 1000 / result.serverCpuMsPerRequest;
        }
        resolve(result);
      } else reject(new Error(`the load process failed: ${m.error}`));
    });
    child.once('exit', (code) => reject(new Error(`the load process exited with ${code} before answering`)));
    child.send(request);
  });
}
