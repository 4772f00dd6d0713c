import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A migrated, closed PGlite data folder built once per test run (global-setup.ts). */
export const PGLITE_TEMPLATE_DIR = join(__dirname, '..', '..', '.tmp', 'pglite-template');

/** A fresh DATA_DIR for one embedded app: a copy of the template when there is one (fast), else empty. */
export function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw-e2e-'));
  if (existsSync(join(PGLITE_TEMPLATE_DIR, 'pglite'))) {
    cpSync(join(PGLITE_TEMPLATE_DIR, 'pglite'), join(dir, 'pglite'), { recursive: true });
  }
  return dir;
}
