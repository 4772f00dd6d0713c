import { execFileSync } from 'node:child_process';
import { HEAP_FLAGS, heapFlagsToSet } from './heap-flags';

describe('heapFlagsToSet: the service sets its V8 flags unless the command line names them', () => {
  it.each([
    ['a plain command line', [], HEAP_FLAGS],
    ['other flags only', ['--expose-gc', '--max-old-space-size=2048'], HEAP_FLAGS],
    ['the default asked for', ['--allocation-site-pretenuring'], []],
    ['the same flag given', ['--no-allocation-site-pretenuring'], []],
    ['the underscore spelling', ['--allocation_site_pretenuring'], []],
  ])('%s', (_why, execArgv, expected) => {
    expect(heapFlagsToSet(execArgv)).toEqual(expected);
  });
});

describe('the flags take effect when a running process sets them (as applyHeapFlags does)', () => {
  // A program whose allocation site survives every minor collection (V8 would pretenure it), under V8's trace of
  // its pretenuring statistics; the flags are set first, by a plain node (no TypeScript loader allocating first).
  const program = `
    for (const flag of JSON.parse(process.env.FLAGS)) require('node:v8').setFlagsFromString(flag);
    const keep = [];
    for (let i = 0; i < 3_000_000; i++) keep.push({ i, pair: [i, i + 1] });
  `;
  const run = (flags: readonly string[]): string =>
    execFileSync(process.execPath, ['--trace-pretenuring-statistics', '-e', program], {
      env: { ...process.env, FLAGS: JSON.stringify(flags) },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });

  it('V8 judges allocation sites without them, and none with them', () => {
    expect(run([])).toMatch(/pretenuring: AllocationSite/);
    expect(run(heapFlagsToSet([]))).not.toMatch(/pretenuring: AllocationSite/);
  });
});
