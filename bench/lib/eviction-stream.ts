import { sleep } from './service';

/**
 * Listens to `GET /v1/events?types=EvictionExecuted` (SSE) and records, for each eviction of a
 * tolerationSeconds deadline on the given nodes, arrival time − evictAt.
 */
export function watchEvictions(
  service: { url: string },
  nodes: Set<string>,
): { stop(expected: number, waitMs: number): Promise<number[]>; error?: string } {
  const lags: number[] = [];
  const controller = new AbortController();
  const watcher: { stop(expected: number, waitMs: number): Promise<number[]>; error?: string } = {
    async stop(expected, waitMs) {
      const until = Date.now() + waitMs;
      while (lags.length < expected && Date.now() < until) await sleep(100);
      controller.abort();
      return lags;
    },
  };
  void (async () => {
    const res = await fetch(`${service.url}/v1/events?types=EvictionExecuted`, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (!res.ok || !res.body) throw new Error(`GET /v1/events answered ${res.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const arrived = Date.now();
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const line = frame.split('\n').find((l) => l.startsWith('data: '));
        if (!line) continue;
        const event = JSON.parse(line.slice(6));
        const data = event.data ?? {};
        if (typeof data.evictAt === 'string' && nodes.has(data.node)) lags.push(arrived - Date.parse(data.evictAt));
      }
    }
  })().catch((e: unknown) => {
    if (!controller.signal.aborted) watcher.error = String(e);
  });
  return watcher;
}
