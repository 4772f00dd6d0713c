/**
 * The closed-loop load's own process (load-process.ts starts it): receives the requests over IPC, runs
 * load.ts and sends the result back. Nothing else lives in this heap.
 */
import { runLoad, type LoadRequest } from './load';
import { distinctPodBody, variablesFor } from '../scenarios';
import type { LoadChildMessage, LoadChildRequest } from './load-process';

const send = (message: LoadChildMessage, then: () => void = () => undefined) => process.send!(message, then);

process.once('message', async (message: LoadChildRequest) => {
  const { requests, tag, ...options } = message;
  const built: LoadRequest[] = requests.map(({ distinctFrom, distinctGraphql, ...r }) => {
    if (!distinctFrom) return r;
    const distinct = (n: number) => distinctPodBody(distinctFrom, `${tag}-${n}`);
    if (!distinctGraphql) return { ...r, distinctBody: distinct };
    const { query, shape } = distinctGraphql;
    return {
      ...r,
      distinctBody: (n: number) => JSON.stringify({ query, variables: variablesFor(shape, JSON.parse(distinct(n))) }),
    };
  });
  try {
    const result = await runLoad({ ...options, requests: built, onWarmed: () => send({ warmed: true }) });
    send({ result }, () => process.exit(0));
  } catch (error) {
    send({ error: String(error) }, () => process.exit(1));
  }
});
