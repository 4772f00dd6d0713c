#!/usr/bin/env node
// Self time and inclusive time per function of a V8 .cpuprofile (node --cpu-prof), top N.
//   node bench/experiments/top-functions.mjs bench/results/profiles/x.cpuprofile [N] [filter] [--window MS] [--after S]
// --window MS: only the busiest MS of the profile (the most non-idle samples), e.g. a sweep inside a long run;
// --after S: that window is looked for from S seconds into the profile on (to skip start-up).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? undefined : Number(args.splice(i, 2)[1]);
};
const windowMs = option('window');
const afterS = option('after') ?? 0;
const [file, n = '30', filter = ''] = args;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
const name = (node) =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules\/)?/, '')}:${node.callFrame.lineNumber + 1}`;

// Sample i was taken at times[i] and stands for the time until the next sample.
const times = [];
for (let i = 0, t = profile.startTime; i < profile.samples.length; i++) times.push((t += profile.timeDeltas[i]));
const weight = (i) => profile.timeDeltas[i + 1] ?? 0;
let [from, to] = [0, profile.samples.length];
if (windowMs !== undefined) {
  const idle = (i) => byId.get(profile.samples[i]).callFrame.functionName === '(idle)';
  const first = Math.max(
    0,
    times.findIndex((t) => t - profile.startTime >= afterS * 1e6),
  );
  let [best, busy, j] = [-1, 0, first];
  for (let i = first; i < times.length; i++) {
    if (!idle(i)) busy += weight(i);
    for (; times[i] - times[j] > windowMs * 1e3; j++) if (!idle(j)) busy -= weight(j);
    if (busy > best) [best, from, to] = [busy, j, i + 1];
  }
  console.log(`the busiest ${windowMs} ms from ${afterS} s on: ${(best / 1e3).toFixed(0)} ms not idle`);
}

const self = new Map();
const total = new Map();
let all = 0;
for (let i = from; i < to; i++) {
  const us = weight(i);
  all += us;
  const id = profile.samples[i];
  const key = name(byId.get(id));
  self.set(key, (self.get(key) ?? 0) + us);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const k = name(byId.get(cur));
    if (seen.has(k)) continue;
    seen.add(k);
    total.set(k, (total.get(k) ?? 0) + us);
  }
}
const show = (title, map) => {
  console.log(`\n${title} (of ${(all / 1e6).toFixed(1)} s sampled)`);
  [...map]
    .filter(([k]) => k.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(n))
    .forEach(([k, us]) =>
      console.log(`${(us / 1e3).toFixed(0).padStart(8)} ms ${((100 * us) / all).toFixed(1).padStart(5)}%  ${k}`),
    );
};
show('self time', self);
show('inclusive time', total);
