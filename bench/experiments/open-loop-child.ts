/**
 * The open loop's own process (open-loop-process.ts starts it, for the experiments): receives the
 * settings and the pods to ask about over IPC, runs lib/open-loop.ts and sends the result back.
 * Nothing else lives in this heap, so the loader's collector never traces the generated inventory.
 */
import { runOpenLoop } from '../lib/open-loop';
import { distinctPodBody } from '../scenarios';
import type { OpenLoopChildRequest } from './open-loop-process';

process.once('message', (message: OpenLoopChildRequest) => {
  const { bodies, tag, ...options } = message;
  runOpenLoop({ ...options, body: (n) => distinctPodBody(bodies[n % bodies.length], `${tag}-${n}`) }).then(
    (result) => process.send!({ result }, () => process.exit(0)),
    (error: unknown) => process.send!({ error: String(error) }, () => process.exit(1)),
  );
});
