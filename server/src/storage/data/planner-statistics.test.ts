// Issue 37: SQLite's statistics of `entries` come from the kept counts, written as a sampled
// ANALYZE would write them, so refreshing them never walks the table on the event loop; the
// capture's plan stays the (physical tree, key) index walk.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestStorage, type TestStorage } from '../../../test/support/test-storage.js';
import { bulkInsertEntries, createPhysicalTree } from './physical-tree-store.js';
import { refreshEntryStatistics } from './planner-statistics.js';

describe('planner statistics on sqlite', () => {
  let storage: TestStorage | undefined;
  afterEach(async () => storage?.dispose());

  it('writes sqlite_stat1 from the kept counts, leaves no stale stat4 rows, keeps the index walk', async () => {
    storage = await openTestStorage('sqlite');
    const tree = await createPhysicalTree(storage, { tenant: 'a', treeName: 't', now: 1 });
    const rows = 3_000;
    const tombstones = 500;
    await bulkInsertEntries(
      storage,
      tree,
      Array.from({ length: rows + tombstones }, (_, i) => ({
        key: `k${String(i).padStart(5, '0')}`,
        valueJson: i < rows ? `{"n":${i}}` : null,
        tombstone: i >= rows,
        sequence: i + 1,
        schemaVersion: 1,
        updatedAt: 1,
      })),
    );
    // The live rows, from the kept counts: an ANALYZE would have counted the tombstones too
    // (which is how this test tells the two apart). A full ANALYZE first leaves stat4 samples behind, which the refresh must not keep.
    await sql`analyze entries`.execute(storage.db);
    await refreshEntryStatistics(storage);

    const { rows: stats } = await sql<{ idx: string; stat: string }>`
      select idx, stat from sqlite_stat1 where tbl = 'entries' order by idx`.execute(storage.db);
    expect(stats).toEqual([
      { idx: 'entries_by_sequence', stat: `${rows} 1001 1` },
      { idx: 'sqlite_autoindex_entries_1', stat: `${rows} 1001 1` },
    ]);
    const { rows: stat4 } = await sql<{ n: number }>`
      select count(*) as n from sqlite_stat4 where tbl = 'entries'`.execute(storage.db);
    expect(stat4[0]?.n).toBe(0);

    const { rows: plan } = await sql<{ detail: string }>`
      explain query plan select key from entries
      where physical_tree_id = ${tree} and sequence <= 10 order by key`.execute(storage.db);
    const details = plan.map((p) => p.detail).join('; ');
    expect(details).toContain('USING INDEX sqlite_autoindex_entries_1');
    expect(details).not.toContain('TEMP B-TREE');
  });
});
