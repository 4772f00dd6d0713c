import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/**
 * V8's full collection, run now and timed (ms), without starting node with --expose-gc: the flag is set, and a new
 * context exposes `gc` (the main context was made before the flag). `gc()` is synchronous: nothing else runs meanwhile.
 */
export function collectGarbageNow(): number {
  gc ??= (globalThis as { gc?: () => void }).gc ?? exposedGc();
  const started = performance.now();
  gc();
  return performance.now() - started;
}

function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
