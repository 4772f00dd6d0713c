/**
 * Event-loop stalls of a process, with when they happened, for open-loop-stalls.ts: `node --require
 * bench/experiments/stall-probe.cjs` (STALL_PROBE_FILE=<file>). A 2 ms timer measures how late it fires;
 * every lateness over STALL_PROBE_MS (default 20) is one line {start, ms} appended to the file, `start` in
 * µs of the monotonic clock (process.hrtime), the clock V8's CPU profiles use, so a stall can be matched
 * against the profile's samples (which functions ran while the loop was stopped).
 */
'use strict';
const { appendFileSync } = require('node:fs');

const file = process.env.STALL_PROBE_FILE;
const threshold = Number(process.env.STALL_PROBE_MS ?? 20);
const period = 2;
if (file) {
  let last = process.hrtime.bigint();
  const tick = () => {
    const now = process.hrtime.bigint();
    const lateMs = Number(now - last) / 1e6 - period;
    if (lateMs > threshold) {
      const startUs = Number(last / 1000n) + period * 1000;
      appendFileSync(
        file,
        `${JSON.stringify({ pid: process.pid, start: startUs, ms: lateMs, at: Date.now() - lateMs })}\n`,
      );
    }
    last = now;
    setTimeout(tick, period).unref();
  };
  setTimeout(tick, period).unref();
}
