import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The dependency rules (.dependency-cruiser.cjs) are only worth something if they fail: this runs the
// real checker over a fixture tree with one deliberate violation per rule, and over the real src/.
const root = join(__dirname, '..', '..');
const config = join(root, '.dependency-cruiser.cjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(cwd: string): Violation[] {
  const bin = join(root, 'node_modules', '.bin', 'depcruise');
  // The JSON lists every module and dependency of src/ (over 1 MB, spawnSync's default buffer, since the
  // project grew past ~460 modules): a larger buffer, and a clear error rather than truncated JSON.
  const run = spawnSync(bin, ['src', '--config', config, '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.error) throw new Error(`depcruise did not complete: ${run.error.message}`);
  if (!run.stdout) throw new Error(`depcruise printed nothing: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('dependency rules', () => {
  const fixture = cruise(join(root, 'test', 'fixtures', 'dependency-rules'));

  it.each([
    { rule: 'domain-stays-pure', from: 'src/domain/impure.ts', to: 'src/kernel/persistence/database.ts' },
    { rule: 'kernel-knows-no-feature', from: 'src/kernel/uses-feature.ts', to: 'src/inventory/inventory.service.ts' },
    { rule: 'features-meet-through-services', from: 'src/taints/taints.service.ts', to: 'src/inventory/internal.ts' },
    {
      rule: 'decisions-read-the-snapshot',
      from: 'src/decisions/decisions.service.ts',
      to: 'src/kernel/persistence/database.ts',
    },
    { rule: 'no-circular', from: 'src/events/a.ts', to: 'src/events/b.ts' },
  ])('$rule: reports $from -> $to', ({ rule, from, to }) => {
    expect(fixture).toContainEqual(
      expect.objectContaining({ rule: expect.objectContaining({ name: rule }), from, to }),
    );
  });

  it('allows a feature to use another through its service', () => {
    const allowed = fixture.filter(
      (v) => v.from === 'src/taints/taints.service.ts' && v.to === 'src/inventory/inventory.service.ts',
    );
    expect(allowed).toEqual([]);
  });

  it('finds no violation in the real src/', () => {
    expect(cruise(root)).toEqual([]);
  });
});
