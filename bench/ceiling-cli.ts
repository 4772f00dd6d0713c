/**
 * The ceiling as a process of its own, so it runs the same src/ as the service under test:
 *   node -r @swc-node/register bench/ceiling-cli.ts --nodes 5000 --pods 150000 --seed 42 --sec 10
 * (run.ts starts it with cwd = --service-dir; prints the CeilingResult as JSON on the last line).
 */
import { measureCeiling } from './ceiling';
import { generateInventory } from './generate-inventory';
import { podMix } from './scenarios';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const inv = generateInventory({
  nodes: arg('nodes', 5000),
  pods: arg('pods', 150_000),
  seed: arg('seed', 42),
  drainSeconds: arg('drain-seconds', 30),
});
const result = measureCeiling(inv, podMix(inv), arg('sec', 10));
process.stdout.write(`${JSON.stringify(result)}\n`);
