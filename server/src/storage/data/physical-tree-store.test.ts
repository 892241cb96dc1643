import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../database.js';
import {
  bulkInsertEntries,
  compareAndSetWriteLock,
  countLiveEntries,
  createPhysicalTree,
  deletePhysicalTreeEntries,
  dropPhysicalTree,
  getPhysicalTree,
  raiseLastSequence,
  readPhysicalEntries,
  swapPhysicalTree,
  type EntryToInsert,
} from './physical-tree-store.js';
import {
  deleteEntry,
  ensureTree,
  getLiveEntry,
  putEntry,
  resolveTree,
  withTransaction,
} from './tree-store.js';

const T = 'acme';

const entry = (
  key: string,
  sequence: number,
  value: string | null = `"${key}"`,
): EntryToInsert => ({
  key,
  valueJson: value,
  tombstone: value === null,
  sequence,
  schemaVersion: 2,
  updatedAt: 10,
});

describe.each(DIALECTS)('physical tree store on %s', (dialect) => {
  let storage: Storage;
  const freshStorage = storagePerTest(dialect);
  beforeEach(async () => {
    storage = await freshStorage();
  });

  const put = (treeName: string, key: string, valueJson = '1') =>
    putEntry(storage, { tenant: T, treeName, key, valueJson, schemaVersion: 0, now: 1 });
  const del = (treeName: string, key: string) =>
    deleteEntry(storage, { tenant: T, treeName, key, now: 2 });

  it('reads entries with tombstones in key order, by sequence range and prefix', async () => {
    for (const key of ['c', 'a', 'b', 'ab']) await put('tree', key); // sequences 1..4
    await del('tree', 'a'); // 5
    await put('tree', 'c', '2'); // 6
    const { physicalTreeId } = (await resolveTree(storage, T, 'tree'))!;
    const all = await readPhysicalEntries(storage, physicalTreeId, { limit: 100 });
    expect(all.map((e) => [e.key, e.sequence, e.tombstone])).toEqual([
      ['a', 5, true],
      ['ab', 4, false],
      ['b', 3, false],
      ['c', 6, false],
    ]);
    expect(all[0]?.valueJson).toBeNull();
    const changed = await readPhysicalEntries(storage, physicalTreeId, {
      limit: 100,
      fromSequence: 3,
      toSequence: 5,
    });
    expect(changed.map((e) => e.key)).toEqual(['a', 'ab']);
    const paged = await readPhysicalEntries(storage, physicalTreeId, { limit: 2, afterKey: 'a' });
    expect(paged.map((e) => e.key)).toEqual(['ab', 'b']);
    const prefixed = await readPhysicalEntries(storage, physicalTreeId, {
      limit: 100,
      keyPrefix: 'a',
    });
    expect(prefixed.map((e) => e.key)).toEqual(['a', 'ab']);
  });

  it('bulk-inserts, keeps the last duplicate, and raises last_sequence', async () => {
    const id = await createPhysicalTree(storage, { tenant: T, treeName: 'tree', now: 1 });
    const entries = Array.from({ length: 1203 }, (_, i) =>
      entry(`k${String(i).padStart(5, '0')}`, i + 1),
    );
    entries.push(entry('k00000', 2000, '"latest"'), entry('zz', 1500, null));
    await bulkInsertEntries(storage, id, entries);
    expect(await getPhysicalTree(storage, id)).toMatchObject({
      tenant: T,
      treeName: 'tree',
      lastSequence: 2000,
    });
    expect(await countLiveEntries(storage, id)).toBe(1203);
    const read: string[] = [];
    let afterKey: string | undefined;
    for (;;) {
      const page = await readPhysicalEntries(storage, id, { limit: 400, afterKey });
      if (page.length === 0) break;
      read.push(...page.map((e) => e.key));
      afterKey = page.at(-1)?.key;
    }
    expect(read).toHaveLength(1204);
    const [first] = await readPhysicalEntries(storage, id, { limit: 1 });
    expect(first).toEqual({
      key: 'k00000',
      valueJson: '"latest"',
      tombstone: false,
      sequence: 2000,
      schemaVersion: 2,
      updatedAt: 10,
    });
    const [tomb] = await readPhysicalEntries(storage, id, { limit: 1, afterKey: 'k99999' });
    expect(tomb).toMatchObject({ key: 'zz', tombstone: true, valueJson: null });
  });

  it('never lowers last_sequence, and refuses to fill a physical tree that does not exist', async () => {
    const id = await createPhysicalTree(storage, { tenant: T, treeName: 'tree', now: 1 });
    await bulkInsertEntries(storage, id, [entry('a', 3)], { lastSequence: 40 });
    expect((await getPhysicalTree(storage, id))?.lastSequence).toBe(40);
    expect(await raiseLastSequence(storage, id, 7)).toBe(true);
    expect((await getPhysicalTree(storage, id))?.lastSequence).toBe(40);
    await expect(bulkInsertEntries(storage, 'pt_missing', [entry('a', 1)])).rejects.toThrow(
      /does not exist/,
    );
  });

  it('a hidden tree is filled like any other, and every later commit is flushed as before', async () => {
    const id = await createPhysicalTree(storage, { tenant: T, treeName: 'tree', now: 1 });
    await bulkInsertEntries(storage, id, [entry('a', 1), entry('b', 2)], { hiddenTree: true });
    await expect(
      bulkInsertEntries(storage, 'pt_missing', [entry('a', 1)], { hiddenTree: true }),
    ).rejects.toThrow(/does not exist/);
    expect(await countLiveEntries(storage, id)).toBe(2);
    expect((await getPhysicalTree(storage, id))?.lastSequence).toBe(2);
    // FULL (2) is what every other commit of the connection relies on.
    if (dialect === 'sqlite') {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(storage.db);
      expect(rows[0]?.synchronous).toBe(2);
    } else {
      const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(
        storage.db,
      );
      expect(rows[0]?.synchronous_commit).toBe('on');
    }
  });

  it('a swap returns the previous physical id and the tree then reads the new entries', async () => {
    await put('tree', 'old');
    const before = (await resolveTree(storage, T, 'tree'))!.physicalTreeId;
    const fresh = await createPhysicalTree(storage, { tenant: T, treeName: 'tree', now: 1 });
    await bulkInsertEntries(storage, fresh, [entry('new', 9)]);
    const swap = { tenant: T, treeName: 'tree', physicalTreeId: fresh, now: 50 };
    expect(await swapPhysicalTree(storage, swap)).toEqual({
      swapped: true,
      previousPhysicalTreeId: before,
    });
    expect(await getLiveEntry(storage, T, 'tree', 'old')).toBeUndefined();
    expect(await getLiveEntry(storage, T, 'tree', 'new')).toMatchObject({ valueJson: '"new"' });
    expect(await resolveTree(storage, T, 'tree')).toMatchObject({
      physicalTreeId: fresh,
      lastSequence: 9,
      updatedAt: 50,
    });
    // The old physical tree is kept, so a revert can swap back.
    expect(await countLiveEntries(storage, before)).toBe(1);
    expect(await put('tree', 'after')).toMatchObject({ sequence: 10, physicalTreeId: fresh });
  });

  it('a swap with an expected physical id only happens while the tree still points there', async () => {
    await put('tree', 'a');
    const current = (await resolveTree(storage, T, 'tree'))!.physicalTreeId;
    const fresh = await createPhysicalTree(storage, { tenant: T, treeName: 'tree', now: 1 });
    const swap = { tenant: T, treeName: 'tree', physicalTreeId: fresh, now: 2 };
    expect(await swapPhysicalTree(storage, { ...swap, expectedPhysicalTreeId: 'pt_x' })).toEqual({
      swapped: false,
      currentPhysicalTreeId: current,
    });
    expect(
      await swapPhysicalTree(storage, { ...swap, treeName: 'none', expectedPhysicalTreeId: 'x' }),
    ).toEqual({ swapped: false, currentPhysicalTreeId: undefined });
    expect(
      await swapPhysicalTree(storage, { ...swap, expectedPhysicalTreeId: current }),
    ).toMatchObject({ swapped: true, previousPhysicalTreeId: current });
  });

  it('a swap creates a missing logical tree and refuses another tenant’s physical tree', async () => {
    const fresh = await createPhysicalTree(storage, { tenant: T, treeName: 'new', now: 1 });
    await bulkInsertEntries(storage, fresh, [entry('k', 4)]);
    expect(
      await swapPhysicalTree(storage, {
        tenant: T,
        treeName: 'new',
        physicalTreeId: fresh,
        now: 3,
      }),
    ).toEqual({ swapped: true, previousPhysicalTreeId: undefined });
    expect(await getLiveEntry(storage, T, 'new', 'k')).toBeDefined();
    await expect(
      swapPhysicalTree(storage, { tenant: 'other', treeName: 'x', physicalTreeId: fresh, now: 3 }),
    ).rejects.toThrow(/not one of tenant other/);
    expect(await resolveTree(storage, 'other', 'x')).toBeUndefined();
  });

  it('the write lock is a compare-and-set on trees.write_locked_by', async () => {
    const lock = (expected: string | null, next: string | null, treeName = 'tree') =>
      compareAndSetWriteLock(storage, { tenant: T, treeName, expected, next });
    expect(await lock(null, 'op-1')).toBe(false); // no tree yet
    await ensureTree(storage, T, 'tree', 1);
    expect(await lock(null, 'op-1')).toBe(true);
    expect(await lock(null, 'op-2')).toBe(false);
    expect(await lock('op-2', null)).toBe(false);
    expect(await lock('op-1', 'op-1')).toBe(true); // a resumed holder re-asserts its lock
    expect((await resolveTree(storage, T, 'tree'))?.writeLockedBy).toBe('op-1');
    expect(await lock('op-1', null)).toBe(true);
    expect((await resolveTree(storage, T, 'tree'))?.writeLockedBy).toBeNull();
  });

  it('deletes a physical tree’s entries, and drops it only when no tree points at it', async () => {
    await put('tree', 'a');
    await put('tree', 'b');
    await del('tree', 'b');
    const current = (await resolveTree(storage, T, 'tree'))!.physicalTreeId;
    const spare = await createPhysicalTree(storage, { tenant: T, treeName: 'tree', now: 1 });
    await bulkInsertEntries(storage, spare, [entry('x', 1), entry('y', 2)]);
    expect(await dropPhysicalTree(storage, current)).toBe(false);
    expect(await deletePhysicalTreeEntries(storage, spare)).toBe(2);
    expect(await countLiveEntries(storage, spare)).toBe(0);
    expect(await dropPhysicalTree(storage, spare)).toBe(true);
    expect(await getPhysicalTree(storage, spare)).toBeUndefined();
    expect(await countLiveEntries(storage, current)).toBe(1);
  });

  it('a put racing an uncommitted swap waits and lands in the swapped-in physical tree', async () => {
    await put('tree', 'a');
    const fresh = await createPhysicalTree(storage, { tenant: T, treeName: 'tree', now: 1 });
    let release = () => {};
    let swapped = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const swapDone = new Promise<void>((resolve) => (swapped = resolve));
    const swapTx = withTransaction(storage, async (tx) => {
      await swapPhysicalTree(tx, { tenant: T, treeName: 'tree', physicalTreeId: fresh, now: 2 });
      swapped();
      await held;
    });
    await swapDone;
    const racing = put('tree', 'b');
    await new Promise((resolve) => setTimeout(resolve, 150));
    release();
    await swapTx;
    expect(await racing).toMatchObject({ status: 'written', physicalTreeId: fresh });
    expect(await getLiveEntry(storage, T, 'tree', 'b')).toBeDefined();
  });

  it('primitives compose in one transaction, and a failure rolls all of them back', async () => {
    await put('tree', 'a');
    const before = (await resolveTree(storage, T, 'tree'))!.physicalTreeId;
    await expect(
      withTransaction(storage, async (tx) => {
        const fresh = await createPhysicalTree(tx, { tenant: T, treeName: 'tree', now: 1 });
        await bulkInsertEntries(tx, fresh, [entry('b', 1)]);
        await swapPhysicalTree(tx, { tenant: T, treeName: 'tree', physicalTreeId: fresh, now: 2 });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await resolveTree(storage, T, 'tree'))?.physicalTreeId).toBe(before);
    expect(await storage.db.selectFrom('physical_trees').selectAll().execute()).toHaveLength(1);
  });
});
