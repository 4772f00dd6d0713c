#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --modes embedded,postgres --nodes 5000 --pods 150000 --seed 42 --profile]`:
// runs bench/run.ts (TypeScript through @swc-node/register, like `npm run start:dev`) with a heap big
// enough for the generated inventory and the in-process ceiling. See bench/README.md.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const child = spawn(
  process.execPath,
  ['--max-old-space-size=8192', '-r', '@swc-node/register', 'bench/run.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: process.env },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
