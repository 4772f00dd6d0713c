#!/usr/bin/env node
// `npm test`: every Jest project (unit, then end-to-end against the embedded defaults and, when
// DATABASE_URL/REDIS_URL are set, against real PostgreSQL and Redis), then one plain closing line
// `N passed, N failed` from Jest's JSON summary, so a run that executed no test is visible.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const out = join(process.cwd(), '.tmp', 'jest-results.json');
mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
if (existsSync(out)) rmSync(out);
// --forceExit: a suite that leaves a socket or timer behind must not keep CI waiting after the
// results are in (every app closes its own connections; this is the safety net, not the mechanism).
const args = ['jest', '--json', `--outputFile=${out}`, '--maxWorkers=2', '--forceExit', ...process.argv.slice(2)];
const result = spawnSync('npx', args, { stdio: 'inherit', env: process.env });
let summary = { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTotalTests: 0, numRuntimeErrorTestSuites: 0 };
if (existsSync(out)) summary = JSON.parse(readFileSync(out, 'utf8'));
const failed = summary.numFailedTests + summary.numRuntimeErrorTestSuites;
const skipped = summary.numPendingTests ? `, ${summary.numPendingTests} skipped` : '';
console.log(`\n${summary.numPassedTests} passed, ${failed} failed${skipped}`);
const ok = result.status === 0 && summary.numTotalTests > 0 && failed === 0;
process.exit(ok ? 0 : 1);
