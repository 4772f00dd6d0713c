/**
 * The eviction-stream watcher's own process (eviction-stream-process.ts starts it): nothing else lives
 * in this heap, so reading the stream never waits for a collection of the bench's inventory.
 */
import { watchEvictions } from './eviction-stream';
import type { EvictionStreamChildAnswer, EvictionStreamChildRequest } from './eviction-stream-process';

let watch: ReturnType<typeof watchEvictions> | undefined;

process.on('message', (message: EvictionStreamChildRequest) => {
  if ('url' in message) {
    watch = watchEvictions({ url: message.url }, new Set(message.nodes));
    return;
  }
  void watch!.stop(message.stop.expected, message.stop.waitMs).then((lags) => {
    const answer: EvictionStreamChildAnswer = { lags, error: watch!.error };
    process.send!(answer, () => process.exit(0));
  });
});
