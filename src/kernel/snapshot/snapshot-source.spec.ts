import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../persistence/database';
import { seed, expectSameAsRepositories } from './snapshot-source.contract';

describe('loadInventory reads exactly what the repositories read', () => {
  it('on PGlite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-snapshot-source-'));
    const db = await openDatabase({ dataDir: dir });
    try {
      await seed(db);
      await expectSameAsRepositories(db);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
