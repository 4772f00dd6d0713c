import { PGlite } from '@electric-sql/pglite';
import { pgliteSession } from './migrations';
import { sharedMigrationTests } from './migrations.contract';

jest.setTimeout(60_000);

describe('applyMigrations on PGlite', () => {
  sharedMigrationTests(async () => {
    const db = await PGlite.create();
    return { session: pgliteSession(db), close: () => db.close() };
  });
});
