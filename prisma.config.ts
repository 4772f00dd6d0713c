// Prisma 7 reads its settings from here, never from .env. `env('DATABASE_URL')` throws when the
// variable is unset (even for `prisma generate`), so the datasource is added only when it is set.
// The service itself does not use this file: it connects through a driver adapter
// (src/kernel/persistence/database.ts) and applies prisma/migrations at start-up.
import { defineConfig } from 'prisma/config';

const databaseUrl = process.env.DATABASE_URL;

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  ...(databaseUrl ? { datasource: { url: databaseUrl } } : {}),
});
