import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { sql } from 'kysely';
import type { Storage } from '../database.js';
import { checkKeptCounts } from './kept-counts.js';
import {
  createPhysicalTree,
  bulkInsertEntries,
  getPhysicalTree,
  readPhysicalEntries,
  type EntryToInsert,
} from './physical-tree-store.js';
import { openHiddenTreeLoader } from './tree-loader.js';

const entry = (key: string, sequence: number, valueJson: string | null): EntryToInsert => ({
  key,
  valueJson,
  tombstone: valueJson === null,
  sequence,
  schemaVersion: 3,
  updatedAt: 77,
});

// Text COPY's text format must escape: backslashes, tabs, newlines, carriage returns, and a
// value that reads like its null marker.
const AWKWARD = [
  entry('a\\b', 5, '"back\\\\slash \\\\N"'),
  entry('tab\there', 9, '{"k":"tab\\t"}'),
  entry('new\nline\r', 2, '"\\\\N"'),
  entry('gone', 4, null),
  entry('\\N', 7, '1'),
];

describe.each(DIALECTS)('openHiddenTreeLoader on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);
  let storage: Storage;
  let tree: string;
  beforeEach(async () => {
    storage = await freshStorage();
    tree = await createPhysicalTree(storage, { tenant: 'acme', treeName: 'load', now: 1 });
  });

  const stored = () => readPhysicalEntries(storage, tree, { limit: 100 });
  const liveEntries = async (id: string) => {
    const row = await storage.db
      .selectFrom('physical_trees')
      .select('live_entries')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.live_entries);
  };

  it('stores every entry exactly, in batches, and raises last_sequence to the highest', async () => {
    const loader = await openHiddenTreeLoader(storage, tree, 77);
    await loader.write(AWKWARD.slice(0, 2));
    await loader.write(AWKWARD.slice(2));
    await loader.finish();
    const byKey = (a: { key: string }, b: { key: string }) =>
      Buffer.compare(Buffer.from(a.key), Buffer.from(b.key));
    expect(await stored()).toEqual([...AWKWARD].sort(byKey));
    expect((await getPhysicalTree(storage, tree))?.lastSequence).toBe(9);
  });

  it('a key given twice fails the load', async () => {
    const loader = await openHiddenTreeLoader(storage, tree, 77);
    const load = async () => {
      await loader.write([entry('same', 1, '1')]);
      await loader.write([entry('same', 2, '2')]);
      await loader.finish();
    };
    await expect(load()).rejects.toThrow();
    await loader.abort(new Error('failed'));
    if (dialect === 'postgres') expect(await stored()).toEqual([]);
    // The storage is still usable: no connection was left in the middle of a COPY.
    expect((await getPhysicalTree(storage, tree))?.lastSequence).toBe(0);
  });

  it('abort leaves nothing of the load on PostgreSQL, and the storage usable', async () => {
    const loader = await openHiddenTreeLoader(storage, tree, 77);
    await loader.write(AWKWARD);
    await loader.abort(new Error('cancelled'));
    await loader.abort(new Error('twice'));
    if (dialect === 'postgres') expect(await stored()).toEqual([]);
    expect((await getPhysicalTree(storage, tree))?.lastSequence).toBe(0);
  });

  // Issue 37 bullet 6: on SQLite the loader adds the counts itself instead of the per-row
  // trigger; they must equal count(*) (with multi-byte, astral and lone-surrogate text), a
  // failed batch must leave neither rows nor counts, and the trigger must be back for everyone.
  it('keeps the live counts exact, also across a failed SQLite batch, and leaves the count trigger', async () => {
    const other = await createPhysicalTree(storage, { tenant: 'acme', treeName: 'other', now: 1 });
    const loader = await openHiddenTreeLoader(storage, tree, 77);
    await loader.write([...AWKWARD, entry('é/😀', 11, '"ü\ud800"'), entry('\ud800x', 12, '"\u00e9"')]);
    // SQLite commits each write: a failed one rolls back alone (PostgreSQL's COPY fails whole).
    if (dialect === 'sqlite') {
      await expect(
        loader.write([entry('fresh', 13, '"1"'), entry('tab\there', 14, '"again"')]),
      ).rejects.toThrow();
    }
    await loader.write([entry('later', 15, '"2"')]);
    await loader.finish();
    expect(await checkKeptCounts(storage)).toEqual([]);
    expect(await liveEntries(tree)).toBe(AWKWARD.length - 1 + 2 + 1);
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ name: string }>`
        select name from sqlite_master where type = 'trigger' and name = 'entries_count_insert'
      `.execute(storage.db);
      expect(rows).toHaveLength(1);
    }
    // Any other writer is still counted by the trigger.
    await bulkInsertEntries(storage, other, [entry('x', 1, '"xyz"')]);
    expect(await checkKeptCounts(storage)).toEqual([]);
    expect(await liveEntries(other)).toBe(1);
  });

  // Issue 37 bullet 6 (event-loop delay during a restore): a long SQLite write yields between
  // steps of a few milliseconds instead of inserting all its rows in one synchronous run.
  it.runIf(dialect === 'sqlite')('a long SQLite write gives the event loop turns', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) =>
      entry(`k${String(i).padStart(6, '0')}`, i + 1, JSON.stringify('v'.repeat(200))),
    );
    const loader = await openHiddenTreeLoader(storage, tree, 77);
    let turns = 0;
    let writing = true;
    const count = () => {
      if (!writing) return;
      turns += 1;
      setImmediate(count);
    };
    setImmediate(count);
    await loader.write(rows);
    writing = false;
    await loader.finish();
    expect(turns).toBeGreaterThanOrEqual(3);
    expect(await liveEntries(tree)).toBe(rows.length);
    expect(await checkKeptCounts(storage)).toEqual([]);
  });
});
