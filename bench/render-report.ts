/**
 * Re-renders the markdown report from a results file without running anything:
 *   node -r @swc-node/register bench/render-report.ts [bench/results/latest.json]
 * (latest.json → bench/REPORT.md; quick.json → bench/results/REPORT-quick.md)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluateTargets, renderReport, type Figure, type Results } from './report';
import { REPO_ROOT } from './lib/service';

const file = process.argv[2] ?? join(REPO_ROOT, 'bench', 'results', 'latest.json');
const results = JSON.parse(readFileSync(file, 'utf8')) as Results;
// Verdicts and causes from the stored figures, with the targets as they are defined now.
results.targets = evaluateTargets(results.modes, results.ceiling as Figure | undefined);
const rerun = results.quick
  ? 'npm run bench -- --quick'
  : 'npm run bench            # full size, both modes\nnpm run bench -- --quick # CI-sized';
const out = results.quick
  ? join(REPO_ROOT, 'bench', 'results', 'REPORT-quick.md')
  : join(REPO_ROOT, 'bench', 'REPORT.md');
writeFileSync(out, renderReport(results, rerun));
console.log(`wrote ${out}`);
