#!/usr/bin/env node
// `prisma generate`, offline. Wired as `postinstall`; run it after editing prisma/schema.prisma.
//
// The Prisma CLI tries to download its native schema engine before every command, and this machine
// (and CI) cannot reach Prisma's servers. `generate` never runs that engine, so pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file skips the download. The client is generated into
// src/generated/prisma (git-ignored). Extra arguments are passed on (e.g. --watch).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build', 'index.js');

const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  PRISMA_GENERATE_SKIP_AUTOINSTALL: '1',
  CHECKPOINT_DISABLE: '1',
};

const result = spawnSync(
  process.execPath,
  [cli, 'generate', '--schema', 'prisma/schema.prisma', ...process.argv.slice(2)],
  {
    cwd: root,
    env,
    stdio: 'inherit',
  },
);
if (result.error) {
  console.error(result.error.message);
  process.exit(1);
}
process.exit(result.status ?? 1);
