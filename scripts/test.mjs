#!/usr/bin/env node
// `npm test`: the embedded tier always (unit tests, and the end-to-end suites on PGlite with in-process
// timers), the PostgreSQL + Redis tier too when DATABASE_URL and REDIS_URL are set (the integration
// project, and the end-to-end suites' postgres+redis mode), and the browser tests when Chromium is there.
// It closes with one line per tier and the plain line `N passed, N failed` from Jest's JSON summary, so a
// run that executed no test is visible.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const out = join(process.cwd(), '.tmp', 'jest-results.json');
mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
if (existsSync(out)) rmSync(out);

const serversConfigured = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserInstalled = existsSync(chromium);
const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const kubectlInstalled = onPath('kubectl') && onPath('openssl');
const projects = [
  'unit',
  ...(serversConfigured ? ['integration'] : []),
  'e2e',
  ...(kubectlInstalled ? ['kubectl'] : []),
  ...(browserInstalled ? ['browser'] : []),
];
// Three workers on two cores: many end-to-end suites wait on real time (a tolerationSeconds deadline, a restart,
// a webhook retry), so with two a core stood idle for part of the run. Measured on a 2-core machine, the same
// 155 files, all passing: 873 s of Jest with two workers, 659 s with three (the machine 90 % busy on average).
// TEST_MAX_WORKERS overrides it.
const workers = process.env.TEST_MAX_WORKERS ?? '3';
// --forceExit: a suite that leaves a socket or timer behind must not keep CI waiting after the
// results are in (every app closes its own connections; this is the safety net, not the mechanism).
const args = [
  'jest',
  '--json',
  `--outputFile=${out}`,
  `--maxWorkers=${workers}`,
  '--forceExit',
  '--selectProjects',
  ...projects,
];
const result = spawnSync('npx', [...args, ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });

const report = existsSync(out)
  ? JSON.parse(readFileSync(out, 'utf8'))
  : { testResults: [], numRuntimeErrorTestSuites: 0 };
const tiers = {
  embedded: { passed: 0, failed: 0, skipped: 0 },
  'postgres+redis': { passed: 0, failed: 0, skipped: 0 },
};
for (const file of report.testResults) {
  const serverFile = file.name.endsWith('.int-spec.ts');
  for (const test of file.assertionResults) {
    const tier =
      serverFile || test.ancestorTitles.some((t) => t.includes('postgres+redis')) ? 'postgres+redis' : 'embedded';
    if (test.status === 'passed') tiers[tier].passed++;
    else if (test.status === 'failed') tiers[tier].failed++;
    else tiers[tier].skipped++;
  }
}
// a suite that could not run (a syntax error, a failing beforeAll outside any test) counts as a failure
const brokenSuites = report.numRuntimeErrorTestSuites ?? 0;
const line = (t) => `${t.passed} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ''}`;
const pg = serversConfigured ? line(tiers['postgres+redis']) : 'not configured (set DATABASE_URL and REDIS_URL)';
const browser = browserInstalled ? 'ran' : `not installed (${chromium}; apt-get install chromium)`;
const kubectl = kubectlInstalled ? 'ran' : 'not installed (apt-get install kubernetes-client openssl)';
console.log(
  `\nembedded: ${line(tiers.embedded)}; postgres+redis: ${pg}; kubectl tests: ${kubectl}; browser tests: ${browser}`,
);
const passed = tiers.embedded.passed + tiers['postgres+redis'].passed;
const failed = tiers.embedded.failed + tiers['postgres+redis'].failed + brokenSuites;
const skipped = tiers.embedded.skipped + tiers['postgres+redis'].skipped;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
const ok = result.status === 0 && passed > 0 && failed === 0;
process.exit(ok ? 0 : 1);
