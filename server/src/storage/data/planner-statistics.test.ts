// Issue 37: SQLite's statistics of `entries` come from the kept counts, written as a sampled
// ANALYZE would write them, so refreshing them never walks the table on the event loop; the
// capture's plan stays the (physical tree, key) index walk.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzedEntryRows } from '../../../test/support/entry-statistics.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { startTestServer } from '../../../test/support/test-server.js';
import {
  DIALECTS,
  openTestStorage,
  type TestStorage,
} from '../../../test/support/test-storage.js';
import { bulkInsertEntries, createPhysicalTree } from './physical-tree-store.js';
import {
  ANALYZE_AFTER_ROWS,
  refreshEntryStatistics,
  refreshStaleEntryStatistics,
} from './planner-statistics.js';

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

// A bulk load's analyze runs after its commit, in the background, and the rows written since the
// last one are a process's memory: statistics an earlier process left stale are found at start.
describe.each(DIALECTS)('planner statistics left stale by an earlier process, on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);

  /** `count` rows in a new tree, unanalyzed, as an earlier process killed before its analyze left them. */
  const load = async (storage: TestStorage, name: string, count: number) => {
    const tree = await createPhysicalTree(storage, { tenant: 'a', treeName: name, now: 1 });
    await bulkInsertEntries(
      storage,
      tree,
      Array.from({ length: count }, (_, i) => ({
        key: `k${String(i).padStart(6, '0')}`,
        valueJson: `{"n":${i}}`,
        tombstone: false,
        sequence: i + 1,
        schemaVersion: 1,
        updatedAt: 1,
      })),
    );
    await changesCounted(storage);
  };

  it('analyzes a table never analyzed or grown past the threshold since, and nothing else', async () => {
    const storage = await freshStorage();
    expect(await refreshStaleEntryStatistics(storage)).toBe(false);
    expect(await analyzedEntryRows(storage)).toBeUndefined();

    await load(storage, 'first', 2 * ANALYZE_AFTER_ROWS);
    expect(await analyzedEntryRows(storage)).toBeUndefined();
    expect(await refreshStaleEntryStatistics(storage)).toBe(true);
    expect(await analyzedEntryRows(storage)).toBe(2 * ANALYZE_AFTER_ROWS);
    expect(await refreshStaleEntryStatistics(storage)).toBe(false);

    // Fewer rows than the threshold since: left as they are.
    await load(storage, 'second', ANALYZE_AFTER_ROWS / 2);
    expect(await refreshStaleEntryStatistics(storage)).toBe(false);
    expect(await analyzedEntryRows(storage)).toBe(2 * ANALYZE_AFTER_ROWS);

    // Past it: analyzed again.
    await load(storage, 'third', ANALYZE_AFTER_ROWS);
    expect(await refreshStaleEntryStatistics(storage)).toBe(true);
    expect(await analyzedEntryRows(storage)).toBe(3.5 * ANALYZE_AFTER_ROWS);
  }, 60_000);

  it('a server started over such a table analyzes it, in the background', async () => {
    const storage = await freshStorage();
    await load(storage, 'loaded', ANALYZE_AFTER_ROWS);
    expect(await analyzedEntryRows(storage)).toBeUndefined();
    // Stopped, not disposed: the location is the test storage's, removed after the test.
    const { server } = await startTestServer(dialect, {}, storage.location);
    try {
      await expect
        .poll(() => analyzedEntryRows(server.storage), { timeout: 20_000 })
        .toBe(ANALYZE_AFTER_ROWS);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

/**
 * PostgreSQL counts a backend's changes in its cumulative statistics when the backend goes idle
 * (at most every second): until then n_mod_since_analyze misses them. Waits until it has them.
 */
async function changesCounted(storage: TestStorage): Promise<void> {
  if (storage.dialect !== 'postgres') return;
  const { rows } = await sql<{ n: string }>`select count(*) as n from entries`.execute(storage.db);
  const expected = Number(rows[0]?.n);
  await expect
    .poll(
      async () => {
        const { rows: counted } = await sql<{ inserted: string | null }>`
          select n_tup_ins as inserted from pg_stat_user_tables
           where relid = 'entries'::regclass`.execute(storage.db);
        return Number(counted[0]?.inserted ?? 0);
      },
      { timeout: 20_000, interval: 200 },
    )
    .toBeGreaterThanOrEqual(expected);
}
