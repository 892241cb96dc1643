import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../database.js';
import { keptEntryCounts } from '../migrations/0025-kept-entry-counts.js';
import { applyEntryChanges } from '../schema/schema-entry-store.js';
import { checkKeptCounts } from './kept-counts.js';
import {
  bulkInsertEntries,
  countLiveEntries,
  createPhysicalTree,
  dropPhysicalTree,
  type EntryToInsert,
} from './physical-tree-store.js';
import { openHiddenTreeLoader } from './tree-loader.js';
import { deleteEntry, ensureTree, listTrees, writeEntryGroup } from './tree-store.js';

const bytes = (...texts: string[]) => texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

const entry = (key: string, sequence: number, valueJson: string | null): EntryToInsert => ({
  key,
  valueJson,
  tombstone: valueJson === null,
  sequence,
  schemaVersion: 1,
  updatedAt: 1,
});

/** The tree's kept counts, after checking every tree's against count(*). */
async function kept(storage: Storage, physicalTreeId: string) {
  expect(await checkKeptCounts(storage)).toEqual([]);
  const row = await storage.db
    .selectFrom('physical_trees')
    .select(['live_entries', 'live_bytes'])
    .where('id', '=', physicalTreeId)
    .executeTakeFirstOrThrow();
  return { entries: Number(row.live_entries), bytes: Number(row.live_bytes) };
}

describe.each(DIALECTS)('kept entry counts on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);

  it('group commit: new keys, overwrites (a longer value) and a key written twice in a group', async () => {
    const storage = await freshStorage();
    const write = (keys: [string, string][], now: number) =>
      writeEntryGroup(storage, {
        tenant: 'acme',
        treeName: 't',
        now,
        writes: keys.map(([key, valueJson]) => ({ key, valueJson, schemaVersion: 1 })),
      });
    const first = await write(
      [
        ['a', '1'],
        ['é', '"ü"'],
        ['a', '22'],
      ],
      1,
    );
    if (first.status !== 'written') throw new Error('not written');
    expect(await kept(storage, first.physicalTreeId)).toEqual({
      entries: 2,
      bytes: bytes('a', '22', 'é', '"ü"'),
    });
    await write(
      [
        ['a', '333'],
        ['b', '4'],
      ],
      2,
    );
    expect(await kept(storage, first.physicalTreeId)).toEqual({
      entries: 3,
      bytes: bytes('a', '333', 'é', '"ü"', 'b', '4'),
    });
    const [summary] = await listTrees(storage, 'acme', { limit: 10 });
    expect(summary).toMatchObject({ name: 't', entryCount: 3 });
    expect(summary?.byteSize).toBe(bytes('a', '333', 'é', '"ü"', 'b', '4'));
  });

  it('a delete (tombstone) leaves the counts; writing the key again brings it back', async () => {
    const storage = await freshStorage();
    const tree = await ensureTree(storage, 'acme', 't', 1);
    await bulkInsertEntries(storage, tree.physicalTreeId, [entry('a', 1, '1'), entry('b', 2, '2')]);
    expect(await deleteEntry(storage, { tenant: 'acme', treeName: 't', key: 'a', now: 2 })).toEqual(
      expect.objectContaining({ status: 'deleted' }),
    );
    expect(await kept(storage, tree.physicalTreeId)).toEqual({ entries: 1, bytes: bytes('b2') });
    await writeEntryGroup(storage, {
      tenant: 'acme',
      treeName: 't',
      now: 3,
      writes: [{ key: 'a', valueJson: '10', schemaVersion: 1 }],
    });
    expect(await kept(storage, tree.physicalTreeId)).toEqual({ entries: 2, bytes: bytes('b2a10') });
    expect(await countLiveEntries(storage, tree.physicalTreeId)).toBe(2);
  });

  it('a restore batch: tombstones over live entries, live over tombstones, new keys', async () => {
    const storage = await freshStorage();
    const tree = await createPhysicalTree(storage, { tenant: 'acme', treeName: 't', now: 1 });
    await bulkInsertEntries(storage, tree, [
      entry('a', 1, '1'),
      entry('b', 2, null),
      entry('c', 3, '3'),
    ]);
    expect(await kept(storage, tree)).toEqual({ entries: 2, bytes: bytes('a1c3') });
    await bulkInsertEntries(storage, tree, [
      entry('a', 4, null),
      entry('b', 5, '55'),
      entry('d', 6, '6'),
    ]);
    expect(await kept(storage, tree)).toEqual({ entries: 3, bytes: bytes('b55c3d6') });
  });

  it('the hidden tree loader of a restore (PostgreSQL: COPY), tombstones included', async () => {
    const storage = await freshStorage();
    const tree = await createPhysicalTree(storage, { tenant: 'acme', treeName: 't', now: 1 });
    const loader = await openHiddenTreeLoader(storage, tree, 1);
    const rows = Array.from({ length: 2_000 }, (_, i) =>
      entry(`k${i}`, i + 1, i % 4 === 0 ? null : `{"v":${i}}`),
    );
    await loader.write(rows.slice(0, 1_000));
    await loader.write(rows.slice(1_000));
    await loader.finish();
    const live = rows.filter((row) => !row.tombstone);
    expect(await kept(storage, tree)).toEqual({
      entries: 1_500,
      bytes: bytes(...live.flatMap((row) => [row.key, row.valueJson ?? ''])),
    });
  });

  it('an aborted load changes nothing (PostgreSQL rolls the COPY back)', async () => {
    const storage = await freshStorage();
    const tree = await createPhysicalTree(storage, { tenant: 'acme', treeName: 't', now: 1 });
    const loader = await openHiddenTreeLoader(storage, tree, 1);
    await loader.write([entry('a', 1, '1')]);
    await loader.abort(new Error('cancelled'));
    expect(await checkKeptCounts(storage)).toEqual([]);
  });

  it('schema rewrites: a new value of another length, and a dead letter out of the tree', async () => {
    const storage = await freshStorage();
    const tree = await ensureTree(storage, 'acme', 't', 1);
    await bulkInsertEntries(storage, tree.physicalTreeId, [entry('a', 1, '1'), entry('b', 2, '2')]);
    const outcome = await applyEntryChanges(
      storage,
      { tenant: 'acme', treeName: 't', physicalTreeId: tree.physicalTreeId, now: 3 },
      [
        { kind: 'write', key: 'a', expectedSequence: 1, valueJson: '{"v":1}', schemaVersion: 2 },
        {
          kind: 'dead_letter',
          key: 'b',
          expectedSequence: 2,
          letter: {
            tenant: 'acme',
            treeName: 't',
            key: 'b',
            valueJson: '2',
            reason: 'TRANSFORM_FAILED',
            errors: ['no'],
            sourceOperationId: 'op',
            schemaVersion: 1,
            deadLetteredAt: 3,
          },
        },
      ],
    );
    expect(outcome.status).toBe('applied');
    expect(await kept(storage, tree.physicalTreeId)).toEqual({
      entries: 1,
      bytes: bytes('a{"v":1}'),
    });
  });

  it('dropping a physical tree (retention, a failed restore) drops its entries with it', async () => {
    const storage = await freshStorage();
    const other = await createPhysicalTree(storage, { tenant: 'acme', treeName: 't', now: 1 });
    const tree = await createPhysicalTree(storage, { tenant: 'acme', treeName: 't', now: 1 });
    await bulkInsertEntries(storage, other, [entry('a', 1, '1')]);
    await bulkInsertEntries(storage, tree, [entry('a', 1, '1'), entry('b', 2, null)]);
    expect(await dropPhysicalTree(storage, tree)).toBe(true);
    expect(await kept(storage, other)).toEqual({ entries: 1, bytes: bytes('a1') });
  });

  it.runIf(dialect === 'postgres')(
    'a write from a session whose search_path looks elsewhere still counts in the store’s schema',
    async () => {
      const storage = await freshStorage();
      const tree = await createPhysicalTree(storage, { tenant: 'acme', treeName: 't', now: 1 });
      const schema = storage.location.postgresSchema!;
      const client = new pg.Client({ connectionString: storage.location.databaseUrl });
      await client.connect();
      try {
        await client.query(
          `insert into ${schema}.entries (physical_tree_id, key, value_json, tombstone, sequence, ` +
            `schema_version, updated_at) values ($1, 'a', '1', 0, 1, 0, 1)`,
          [tree],
        );
      } finally {
        await client.end();
      }
      expect(await kept(storage, tree)).toEqual({ entries: 1, bytes: 2 });
    },
  );

  it('the check names a tree whose kept counts are wrong', async () => {
    const storage = await freshStorage();
    const tree = await createPhysicalTree(storage, { tenant: 'acme', treeName: 't', now: 1 });
    await bulkInsertEntries(storage, tree, [entry('a', 1, '1')]);
    await storage.db.updateTable('physical_trees').set({ live_entries: 5 }).execute();
    expect(await checkKeptCounts(storage)).toEqual([
      { physicalTreeId: tree, kept: { entries: 5, bytes: 2 }, counted: { entries: 1, bytes: 2 } },
    ]);
  });

  it('the migration counts the trees that existed before it, all or nothing', async () => {
    const storage = await freshStorage();
    const db = storage.db as unknown as Kysely<unknown>;
    const tree = await createPhysicalTree(storage, { tenant: 'acme', treeName: 't', now: 1 });
    const empty = await createPhysicalTree(storage, { tenant: 'acme', treeName: 'u', now: 1 });
    // physical_trees and entries as they were before 0025: no counters, no triggers.
    for (const event of ['insert', 'update', 'delete']) {
      await sql
        .raw(`drop trigger entries_count_${event}${dialect === 'postgres' ? ' on entries' : ''}`)
        .execute(db);
      if (dialect === 'postgres')
        await sql.raw(`drop function entries_count_${event}()`).execute(db);
    }
    await db.schema.alterTable('physical_trees').dropColumn('live_entries').execute();
    await db.schema.alterTable('physical_trees').dropColumn('live_bytes').execute();
    await bulkInsertEntries(storage, tree, [
      entry('a', 1, '1'),
      entry('b', 2, null),
      entry('ü', 3, '"x"'),
    ]);
    if (dialect === 'sqlite') {
      // A failure midway (here its last trigger's name is taken) leaves nothing of it behind,
      // so it can run again whole: SQLite's migrator opens no transaction of its own.
      await sql
        .raw(`create trigger entries_count_update after update on entries begin select 1; end`)
        .execute(db);
      await expect(keptEntryCounts(dialect).up(db)).rejects.toThrow(/already exists/);
      const columns = await sql<{ name: string }>`pragma table_info(physical_trees)`.execute(db);
      expect(columns.rows.map((c) => c.name)).not.toContain('live_entries');
      await sql.raw('drop trigger entries_count_update').execute(db);
    }
    await keptEntryCounts(dialect).up(db);
    expect(await kept(storage, tree)).toEqual({ entries: 2, bytes: bytes('a1ü"x"') });
    expect(await kept(storage, empty)).toEqual({ entries: 0, bytes: 0 });
    // And the triggers it made keep them from then on.
    await bulkInsertEntries(storage, tree, [entry('c', 4, '4')]);
    expect(await kept(storage, tree)).toEqual({ entries: 3, bytes: bytes('a1ü"x"c4') });
  });
});
