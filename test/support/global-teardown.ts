import { rmSync } from 'node:fs';
import { TEMPLATE_ENV } from './pglite-template';

/** Every test app drops its own database, folder and Redis keys; only the PGlite template is left. */
export default async function globalTeardown(): Promise<void> {
  const template = process.env[TEMPLATE_ENV];
  if (template) rmSync(template, { recursive: true, force: true });
}
