// Issue 36 bullet 6: the last proof per tree, as a scrape and the dashboard read it: only PROVEN
// drills count, newest per tree, per tenant; on SQLite the read is the partial covering index of
// migration 0031 alone, never the drill history's rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  openTestStorage,
  type TestStorage,
} from '../../../../test/support/test-storage.js';
import { insertDrill, type StoredDrill } from './restore-drill-store.js';
import { lastProvenQuery, readLastProven } from './drill-proof-readings-store.js';

function drill(fields: Partial<StoredDrill>): StoredDrill {
  return {
    tenant: 'acme',
    operationId: 'op',
    backupId: 'bk',
    setId: null,
    treeName: 'orders',
    keyPrefix: '',
    outcome: 'PROVEN',
    reasonKind: 'NONE',
    reason: 'fine',
    firstDifferingKey: null,
    entries: 1,
    durationMs: 1,
    sampleSeed: '1',
    sampleSize: 1,
    startedAt: 1,
    finishedAt: 1,
    startedBy: 'test',
    ...fields,
  };
}

describe.each(DIALECTS)('the last proof per tree on %s', (dialect) => {
  let storage: TestStorage;
  beforeAll(async () => {
    storage = await openTestStorage(dialect);
    await insertDrill(storage, drill({ operationId: 'a1', finishedAt: 100 }));
    // A newer failed drill is no proof; the newest PROVEN one of any key prefix is.
    await insertDrill(storage, drill({ operationId: 'a2', finishedAt: 300, outcome: 'FAILED' }));
    await insertDrill(storage, drill({ operationId: 'a3', finishedAt: 200, keyPrefix: 'eu/' }));
    await insertDrill(storage, drill({ operationId: 'b1', treeName: 'never', outcome: 'FAILED' }));
    await insertDrill(storage, drill({ operationId: 'c1', tenant: 'globex', finishedAt: 50 }));
  });
  afterAll(async () => storage?.dispose());

  it('is the newest PROVEN drill of each tree, of every tenant or of one', async () => {
    const all = await readLastProven(storage);
    expect(all.sort((x, y) => x.tenant.localeCompare(y.tenant))).toEqual([
      { tenant: 'acme', treeName: 'orders', lastProvenAt: 200 },
      { tenant: 'globex', treeName: 'orders', lastProvenAt: 50 },
    ]);
    expect(await readLastProven(storage, 'globex')).toEqual([
      { tenant: 'globex', treeName: 'orders', lastProvenAt: 50 },
    ]);
  });

  it.runIf(dialect === 'sqlite')('reads the partial covering index alone', () => {
    for (const [tenant, expected] of [
      [undefined, 'SCAN backup_restore_drills USING COVERING INDEX backup_restore_drills_proven'],
      [
        'acme',
        'SEARCH backup_restore_drills USING COVERING INDEX backup_restore_drills_proven (tenant=?)',
      ],
    ] as const) {
      const query = lastProvenQuery(storage, tenant).compile();
      const plan = storage.sqlitePrepare!(`explain query plan ${query.sql}`).all(
        ...query.parameters,
      ) as { detail: string }[];
      expect(plan.map((row) => row.detail)).toEqual([expected]);
    }
  });
});
