#!/usr/bin/env node
// The domain is pure (docs/ARCHITECTURE.md principle 1): no framework, no database, no queue,
// no I/O, no clock. This check fails CI if src/domain imports any of them or reads the time.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(process.cwd(), 'src', 'domain');
const FORBIDDEN_IMPORT =
  /^(@nestjs\/|@prisma\/|@apollo\/|bullmq|ioredis|graphql|pg$|@electric-sql\/|fastify|@fastify\/|node:|fs$|path$|http$|child_process$|prom-client|pino)/;
const CLOCK = /\bDate\.now\(\)|\bnew Date\(\s*\)|\bperformance\.now\(\)/;
const problems = [];

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (path.endsWith('.ts') && !path.endsWith('.spec.ts')) check(path);
  }
}

function check(path) {
  const text = readFileSync(path, 'utf8');
  for (const m of text.matchAll(/(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const spec = m[1] ?? m[2];
    if (FORBIDDEN_IMPORT.test(spec)) problems.push(`${relative(process.cwd(), path)}: imports ${spec}`);
    if (spec.startsWith('.')) {
      const target = join(path, '..', spec);
      if (!target.startsWith(root))
        problems.push(`${relative(process.cwd(), path)}: imports ${spec} from outside src/domain`);
    }
  }
  text.split('\n').forEach((line, i) => {
    if (CLOCK.test(line) && !line.trim().startsWith('//') && !line.trim().startsWith('*')) {
      problems.push(`${relative(process.cwd(), path)}:${i + 1}: reads the clock (time must be a parameter)`);
    }
  });
}

walk(root);
if (problems.length) {
  console.error(`src/domain must stay pure:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('src/domain is pure: no framework, database, queue, I/O or clock imports');
