#!/usr/bin/env node
// `npm run migrate`: applies prisma/migrations to DATABASE_URL, or to the embedded PGlite under
// DATA_DIR (default ./.data) when DATABASE_URL is unset. The service does the same at every start,
// so this is for deploy pipelines that migrate before rolling out, and for inspecting a data folder.
//
// It runs the service's own runner (src/kernel/persistence/migrations.ts, through database.ts): loaded from
// source with @swc-node/register when it is installed (development), else from the compiled dist/
// (a production image installed without devDependencies).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function loadPersistence() {
  let swc = false;
  try {
    require.resolve('@swc-node/register');
    swc = true;
  } catch {
    // no devDependencies: use the build
  }
  if (swc) {
    process.env.SWC_NODE_PROJECT ??= path.join(root, 'tsconfig.json');
    require('@swc-node/register');
    return require(path.join(root, 'src', 'kernel', 'persistence', 'database.ts'));
  }
  const built = path.join(root, 'dist', 'kernel', 'persistence', 'database.js');
  if (!existsSync(built)) {
    throw new Error(
      'neither @swc-node/register nor dist/kernel/persistence/database.js is available: run `npm run build` first',
    );
  }
  return require(built);
}

const databaseUrl = process.env.DATABASE_URL || undefined;
const dataDir = process.env.DATA_DIR || './.data';
const started = Date.now();
try {
  const { migrateDatabase } = loadPersistence();
  const target = databaseUrl
    ? `PostgreSQL ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}`
    : `PGlite in ${path.resolve(dataDir)}`;
  console.log(`migrating ${target}`);
  const result = await migrateDatabase({ databaseUrl, dataDir, log: (message) => console.log(message) });
  const summary = result.applied.length === 0 ? 'already up to date' : `applied ${result.applied.length}`;
  console.log(
    `${summary} (${result.alreadyApplied.length + result.applied.length} migrations) in ${Date.now() - started} ms`,
  );
  if (result.checksumMismatches.length > 0) {
    console.warn(`warning: modified after being applied: ${result.checksumMismatches.join(', ')}`);
  }
} catch (error) {
  console.error(`migration failed: ${error?.message ?? error}`);
  process.exitCode = 1;
}
