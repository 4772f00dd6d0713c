import { openDatabase } from '../persistence/database';
import { createTempDatabase, type TempDatabase } from '../persistence/testing/temp-postgres';
import { seed, expectSameAsRepositories } from './snapshot-source.contract';

describe('loadInventory reads exactly what the repositories read', () => {
  it('on PostgreSQL', async () => {
    const temp: TempDatabase = await createTempDatabase('tw_snapshot_source');
    const db = await openDatabase({ databaseUrl: temp.url, dataDir: '' });
    try {
      await seed(db);
      await expectSameAsRepositories(db);
    } finally {
      await db.close();
      await temp.drop();
    }
  });
});
