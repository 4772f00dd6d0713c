#!/usr/bin/env node
// The repository stands on its own: a clone has nothing beside it, so no tracked file may point at a
// folder outside it (the team's reference folder beside the checkout in particular). Lists file:line and fails.
import { execFileSync } from 'node:child_process';

const pattern = ['..', 'shared'].join('/');
let hits = '';
try {
  hits = execFileSync('git', ['grep', '-n', '-F', pattern, '--', '.', ':!package-lock.json'], { encoding: 'utf8' });
} catch (error) {
  if (error.status !== 1) throw error; // 1: no match, the good case
}
if (hits.trim()) {
  console.error(`References outside the repository (write the project's own docs/ instead):\n${hits}`);
  process.exit(1);
}
console.log('self-contained: no reference outside the repository');
