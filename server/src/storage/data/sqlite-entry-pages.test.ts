// Issue 37 bullet 1: SQLite reads a capture's lines along the (physical tree, key) index in
// bounded steps, never a sort of the tree, and gives the event loop back between steps. The
// lines and counts are the same as before on both databases, for every shape of range.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, openTestStorage, type TestStorage } from '../../../test/support/test-storage.js';
import { countEntryLines, streamEntryLineBatches, type EntryLineRange } from './entry-lines.js';
import {
  bulkInsertEntries,
  createPhysicalTree,
  readPhysicalEntries,
  type EntryToInsert,
} from './physical-tree-store.js';
import { refreshEntryStatistics } from './planner-statistics.js';
import { SMALL_CHANGE_SET, SQLITE_STEP_ROWS, walkStepSql } from './sqlite-entry-pages.js';
import type { StoredEntry } from './tree-db.js';

const KEYS = 5_000;
/** Overwritten after the first load, with sequences KEYS + 1 …: a large incremental. */
const CHANGED = 2_500;
const EDGE_KEYS = ['z\u{10FFFF}', 'z\u{10FFFF}a', 'z\u{10FFFF}\u{10FFFF}', '{'];

const RANGES: Record<string, EntryLineRange> = {
  'a full capture at an earlier snapshot point': { liveOnly: true, toSequence: KEYS + 1_000 },
  'a full capture of everything': { liveOnly: true },
  'a full capture under a prefix': { liveOnly: true, keyPrefix: 'k01', toSequence: 99_999 },
  'a prefix with no end key (U+10FFFF)': { liveOnly: true, keyPrefix: 'z\u{10FFFF}' },
  'a large incremental': { liveOnly: false, fromSequence: KEYS, toSequence: KEYS + CHANGED },
  'a small incremental': { liveOnly: false, fromSequence: KEYS + CHANGED - 100 },
  'a small incremental under a prefix': {
    liveOnly: false,
    fromSequence: KEYS + CHANGED - 1_000,
    keyPrefix: 'k02',
  },
  'a comparison read': {
    liveOnly: true,
    nullValueAsJsonNull: true,
  },
};

/** The lines a range selects, computed here from every stored row. */
function expectedLines(rows: readonly StoredEntry[], range: EntryLineRange): string[] {
  return rows
    .filter(
      (row) =>
        (range.toSequence === undefined || row.sequence <= range.toSequence) &&
        (range.fromSequence === undefined || row.sequence > range.fromSequence) &&
        (!range.liveOnly || !row.tombstone) &&
        row.key.startsWith(range.keyPrefix ?? ''),
    )
    .map((row) =>
      JSON.stringify({
        key: row.key,
        valueJson: row.tombstone
          ? null
          : (row.valueJson ?? (range.nullValueAsJsonNull ? 'null' : null)),
        sequence: row.sequence,
        schemaVersion: row.schemaVersion,
      }),
    );
}

describe.each(DIALECTS)('the lines of a capture on %s', (dialect) => {
  let storage: TestStorage;
  let tree: string;
  let rows: StoredEntry[];
  beforeAll(async () => {
    storage = await openTestStorage(dialect);
    tree = await createPhysicalTree(storage, { tenant: 'acme', treeName: 't', now: 1 });
    const entry = (key: string, sequence: number, i: number): EntryToInsert => ({
      key,
      valueJson: JSON.stringify({ i, text: 'é"\\' }),
      tombstone: i % 7 === 0,
      sequence,
      schemaVersion: i % 3,
      updatedAt: 1,
    });
    const keys = Array.from({ length: KEYS }, (_, i) => `k${String(i).padStart(5, '0')}`);
    await bulkInsertEntries(storage, tree, [
      ...keys.map((key, i) => entry(key, i + 1, i)),
      ...EDGE_KEYS.map((key, i) => entry(key, KEYS - i, i + 1)),
    ]);
    // Every other key changes once more, in shuffled order: sequences no longer follow keys.
    const changed = keys
      .filter((_, i) => i % 2 === 1)
      .sort((a, b) => (a.slice(3) < b.slice(3) ? -1 : 1));
    await bulkInsertEntries(
      storage,
      tree,
      changed.map((key, n) => entry(key, KEYS + n + 1, n + 2)),
    );
    await refreshEntryStatistics(storage);
    rows = await readPhysicalEntries(storage, tree, { limit: 100_000 });
    expect(changed).toHaveLength(CHANGED);
    expect(CHANGED).toBeGreaterThan(SMALL_CHANGE_SET);
    expect(KEYS).toBeGreaterThan(3 * SQLITE_STEP_ROWS);
  }, 60_000);
  afterAll(async () => storage?.dispose());

  for (const [name, range] of Object.entries(RANGES)) {
    it(`${name}: the same lines in key order, and the same count`, async () => {
      const lines: string[] = [];
      for await (const batch of streamEntryLineBatches(storage, tree, range, 700)) {
        lines.push(...batch);
      }
      const expected = expectedLines(rows, range);
      expect(expected.length).toBeGreaterThan(0);
      expect(lines).toEqual(expected);
      expect(await countEntryLines(storage, tree, range)).toBe(expected.length);
    });
  }

  it.runIf(dialect === 'sqlite')(
    'never yields a chunk of more than the rows asked for, however many a step read',
    async () => {
      const sizes: number[] = [];
      for await (const batch of streamEntryLineBatches(storage, tree, { liveOnly: true }, 100)) {
        sizes.push(batch.length);
      }
      // A capture's page (its progress and afterPage seam) falls between chunks: steps read up
      // to SQLITE_STEP_ROWS, ten times a page of 100 here.
      expect(Math.max(...sizes)).toBe(100);
      expect(sizes.slice(0, -1).every((n) => n === 100)).toBe(true);
    },
  );

  it.runIf(dialect === 'sqlite')(
    'gives the event loop back between steps, before the first batch of a long read',
    async () => {
      let otherCallRan = false;
      setImmediate(() => (otherCallRan = true));
      // One batch for the whole tree: it comes only after every step has run.
      const batches = streamEntryLineBatches(storage, tree, { liveOnly: true }, 100_000);
      const first = await batches[Symbol.asyncIterator]().next();
      expect(first.value?.length).toBeGreaterThan(SQLITE_STEP_ROWS);
      expect(otherCallRan).toBe(true);
    },
  );

  it.runIf(dialect === 'sqlite')(
    'each step searches the primary key (physical tree, key) with no temp B-tree sort',
    async () => {
      const range = { liveOnly: false, fromSequence: 10, toSequence: 4_000, keyPrefix: 'k0' };
      for (const first of [true, false]) {
        const plan = storage.sqlitePrepare!(
          `explain query plan ${walkStepSql(range, '1', first)}`,
        ).all(4_000, 10, tree, 'k0', 'k1') as { detail: string }[];
        const details = plan.map((row) => row.detail);
        // `key >= ?` and `key > ?` read alike in the plan.
        expect(details).toEqual([
          'SEARCH entries USING INDEX sqlite_autoindex_entries_1 (physical_tree_id=? AND key>? AND key<?)',
        ]);
        expect(details.join('\n')).not.toMatch(/TEMP B-TREE|entries_by_sequence/);
      }
    },
  );
});
