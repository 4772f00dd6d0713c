import { cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A migrated, closed PGlite data folder built once per test run (global-setup.ts) and named to the
 * workers through the environment, so two test runs on one machine never share (or race on) it.
 */
export const TEMPLATE_ENV = 'TW_PGLITE_TEMPLATE';

export function newTemplateDir(): string {
  return mkdtempSync(join(tmpdir(), 'tw-pglite-template-'));
}

/** A fresh DATA_DIR for one embedded app: a copy of the template when there is one (fast), else empty. */
export function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw-e2e-'));
  const template = process.env[TEMPLATE_ENV];
  if (template && existsSync(join(template, 'pglite'))) {
    cpSync(join(template, 'pglite'), join(dir, 'pglite'), { recursive: true });
  }
  return dir;
}
