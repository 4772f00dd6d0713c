/**
 * The open loop's own process (open-loop-process.ts starts it): receives the settings and the pods to
 * ask about over IPC, warms up, runs open-loop.ts and sends the result back. Nothing else lives in this
 * heap, so the loader's collector never traces the bench's generated inventory.
 */
import { runOpenLoop } from './open-loop';
import { distinctPodBody } from '../scenarios';
import type { OpenLoopChildMessage, OpenLoopChildRequest } from './open-loop-process';

const send = (message: OpenLoopChildMessage, then: () => void = () => undefined) => process.send!(message, then);

process.once('message', async (message: OpenLoopChildRequest) => {
  const { bodies, tag, warmSec, ...options } = message;
  const tagged = (prefix: string) => (n: number) => distinctPodBody(bodies[n % bodies.length], `${prefix}-${n}`);
  try {
    if (warmSec) {
      await runOpenLoop({ ...options, durationSec: warmSec, body: tagged(`${tag}-warm`) });
      send({ warmed: true });
    }
    const result = await runOpenLoop({ ...options, body: tagged(tag) });
    send({ result }, () => process.exit(0));
  } catch (error) {
    send({ error: String(error) }, () => process.exit(1));
  }
});
