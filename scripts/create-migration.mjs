#!/usr/bin/env node
// Usage: node scripts/create-migration.mjs <name> [--draft] [--check]
//   (npm run migration:create -- <name>)
//
// Writes prisma/migrations/<yyyyMMddHHmmss>_<name>/migration.sql with the SQL `prisma migrate dev
// --create-only` would write, without the Prisma CLI: the CLI needs a native schema engine that it
// downloads from Prisma's servers, which this machine (and CI) cannot reach. Instead we drive the
// same engine compiled to WebAssembly (@prisma/schema-engine-wasm, pinned to prisma 7.10.0's engine
// commit: it is an internal API) and give it PGlite as the shadow database. The engine replays
// prisma/migrations on the shadow database and diffs the result against prisma/schema.prisma.
//
//   --draft  write a migration even when the schema has not changed (for hand-written SQL)
//   --check  write nothing; exit 2 when the schema and the migrations differ (for CI)
//
// Hand-written SQL that Prisma cannot express (the partial unique index on evictions in the init
// migration) is listed in HAND_WRITTEN_OBJECTS below: the engine would otherwise "repair" the drift
// by dropping it in the next migration, so such statements are removed from new migrations.
import { readFileSync, existsSync, mkdirSync, writeFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const schemaPath = path.join(root, 'prisma', 'schema.prisma');
const migrationsDir = path.join(root, 'prisma', 'migrations');
const LOCKFILE = 'migration_lock.toml';
/** Errors thrown by the JS adapter are reported by the engine as "External error id#N". */
let registry;

/** Database objects created by hand-written SQL in migrations; never drop them automatically. */
const HAND_WRITTEN_OBJECTS = ['evictions_one_scheduled_per_pod'];

function usage(message) {
  if (message) console.error(message);
  console.error('usage: node scripts/create-migration.mjs <name> [--draft] [--check]');
  process.exit(64);
}

const args = process.argv.slice(2);
const draft = args.includes('--draft');
const check = args.includes('--check');
const positional = args.filter((a) => !a.startsWith('--'));
const name = positional[0];
if (!check && !name) usage();
if (name && !/^[A-Za-z0-9_]+$/.test(name)) usage(`migration name must match [A-Za-z0-9_]+: ${name}`);

/** Loads the wasm schema engine without --experimental-wasm-modules (its entry imports a .wasm). */
async function loadSchemaEngine() {
  const pkgDir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
  const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
  // The engine reports Rust panics through this global (see prisma's own CLI).
  globalThis.PRISMA_WASM_PANIC_REGISTRY ??= {
    message: '',
    set_message(m) {
      this.message = `RuntimeError: ${m}`;
    },
    get() {
      return this.message;
    },
  };
  const module = new WebAssembly.Module(readFileSync(path.join(pkgDir, 'schema_engine_bg.wasm')));
  const instance = new WebAssembly.Instance(module, { './schema_engine_bg.js': glue });
  glue.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
  return glue;
}

/**
 * PGlite adapter factory for the engine. The main database is an empty in-memory PGlite (creating a
 * migration never touches it); every shadow database is a fresh in-memory PGlite. We wrap
 * executeScript because pglite-prisma-adapter 0.7 does not await `exec` there, so a failing
 * migration script would go unnoticed.
 */
async function pgliteFactory() {
  // require, not import: the adapter maps errors with `instanceof` against the CJS build's classes.
  const { PGlite } = require('@electric-sql/pglite');
  const { PrismaPGlite } = require('pglite-prisma-adapter');
  const opened = [];
  const open = async () => {
    const db = new PGlite();
    await db.waitReady;
    opened.push(db);
    const adapter = await new PrismaPGlite(db).connect();
    adapter.executeScript = async (script) => {
      try {
        await db.exec(script);
      } catch (e) {
        adapter.onError(e);
      }
    };
    return adapter;
  };
  return {
    factory: {
      provider: 'postgres',
      adapterName: '@prisma/adapter-pglite',
      connect: open,
      connectToShadowDb: open,
    },
    close: () => Promise.all(opened.map((db) => db.close().catch(() => {}))),
  };
}

function readMigrationsList() {
  const lockContent = existsSync(path.join(migrationsDir, LOCKFILE))
    ? readFileSync(path.join(migrationsDir, LOCKFILE), 'utf8')
    : null;
  const dirs = existsSync(migrationsDir)
    ? readdirSync(migrationsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort()
    : [];
  return {
    baseDir: migrationsDir,
    lockfile: { path: LOCKFILE, content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((dir) => {
      const file = path.join(migrationsDir, dir, 'migration.sql');
      return {
        path: dir,
        migrationFile: {
          path: 'migration.sql',
          content: existsSync(file)
            ? { tag: 'ok', value: readFileSync(file, 'utf8') }
            : { tag: 'error', value: `missing ${file}` },
        },
      };
    }),
  };
}

/** Removes statements that would drop (or re-create) objects we maintain by hand. */
function withoutHandWrittenDrift(script) {
  const statements = script.split(/\n(?=-- )/);
  const kept = statements.filter((s) => !HAND_WRITTEN_OBJECTS.some((o) => new RegExp(`DROP INDEX "?${o}"?`).test(s)));
  return kept.join('\n');
}

function timestamp(d = new Date()) {
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

async function main() {
  const schema = readFileSync(schemaPath, 'utf8');
  const schemaFiles = { files: [{ path: schemaPath, content: schema }] };
  const migrationsList = readMigrationsList();
  const filters = { externalTables: [], externalEnums: [] };

  const { SchemaEngine } = await loadSchemaEngine();
  const { bindMigrationAwareSqlAdapterFactory } = require('@prisma/driver-adapter-utils');
  const pglite = await pgliteFactory();
  const debug = process.env.DEBUG ? (line) => console.error(line) : () => {};
  try {
    const bound = bindMigrationAwareSqlAdapterFactory(pglite.factory);
    registry = bound.errorRegistry;
    const engine = await SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, debug, bound);
    if (check) {
      const diff = await engine.diff({
        from: { tag: 'migrations', ...migrationsList },
        to: { tag: 'schemaDatamodel', ...schemaFiles },
        script: true,
        exitCode: true,
        filters,
      });
      const script = withoutHandWrittenDrift(diff.stdout ?? '').trim();
      const pending = script.split('\n').some((l) => l.trim() && !l.startsWith('--'));
      if (pending) {
        console.error('prisma/schema.prisma and prisma/migrations differ; the next migration would be:\n');
        console.error(script);
        process.exitCode = 2;
      } else {
        console.log('prisma/migrations is up to date with prisma/schema.prisma');
      }
      return;
    }
    // As `prisma migrate dev` does, against a throw-away in-memory development database: apply the
    // existing migrations, then devDiagnostic replays them on the (external) shadow database to
    // check for drift and caches the resulting schema, which createMigration diffs against the
    // Prisma schema (createMigration alone has no access to the shadow database factory).
    await engine.applyMigrations({ migrationsList, filters });
    const diagnostic = await engine.devDiagnostic({ migrationsList, filters });
    if (diagnostic.action.tag === 'reset')
      throw new Error(`migration history is inconsistent: ${diagnostic.action.reason}`);
    const out = await engine.createMigration({
      draft,
      migrationName: name,
      migrationsList,
      schema: schemaFiles,
      filters,
    });
    let script = out.migrationScript === null ? null : withoutHandWrittenDrift(out.migrationScript);
    if (script !== null && !draft && !script.split('\n').some((l) => l.trim() && !l.startsWith('--'))) script = null;
    if (script === null) {
      console.log('No schema changes: no migration created (use --draft for an empty one).');
      return;
    }
    // The engine names it <timestamp>_<name> from its own clock; keep that, as prisma does.
    const dirName = out.generatedMigrationName || `${timestamp()}_${name}`;
    const dir = path.join(migrationsDir, dirName);
    if (existsSync(dir)) throw new Error(`The migration directory already exists at ${dir}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `migration.${out.extension || 'sql'}`), script, 'utf8');
    // Same text as prisma's CLI writes.
    writeFileSync(
      path.join(migrationsDir, LOCKFILE),
      '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\n' +
        `provider = "${out.connectorType}"\n`,
      'utf8',
    );
    console.log(`Created prisma/migrations/${dirName}/migration.sql`);
  } finally {
    await pglite.close();
  }
}

main().catch((e) => {
  const panic = globalThis.PRISMA_WASM_PANIC_REGISTRY?.get?.();
  let message = panic || e?.message || String(e);
  const external = /External error id#(\d+)/.exec(message);
  const cause = external && registry?.consumeError(Number(external[1]))?.error;
  if (cause) message += `\ncaused by: ${cause.stack ?? cause}`;
  console.error(message);
  if (process.env.DEBUG) console.error(e);
  process.exit(1);
});
