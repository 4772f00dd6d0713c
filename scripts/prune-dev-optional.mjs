#!/usr/bin/env node
// Removes, after `npm prune --omit=dev`, the packages the lock file marks `devOptional`: dev tools
// (prisma's CLI, typescript, @types/*, and ~120 packages under them, ~240 MB) that a production
// package lists as an optional peer. npm keeps those on a prune, so the runtime image carried them.
// Used by the Dockerfile's build stage; checked by building the stages by hand (the service, the
// migration runner and SIGTERM all work without them).
import { readFileSync, rmSync } from 'node:fs';

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
let removed = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  if (!path || !entry.devOptional) continue;
  rmSync(path, { recursive: true, force: true });
  removed++;
}
console.log(`removed ${removed} dev-optional packages`);
