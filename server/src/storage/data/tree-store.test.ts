import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../database.js';
import { compareAndSetWriteLock } from './physical-tree-store.js';
import {
  deleteEntry,
  ensureTree,
  getLiveEntry,
  listLiveEntries,
  listTrees,
  putEntry,
  resolveTree,
  withTransaction,
} from './tree-store.js';

const T = 'acme';

describe.each(DIALECTS)('tree store on %s', (dialect) => {
  let storage: Storage;
  const freshStorage = storagePerTest(dialect);
  beforeEach(async () => {
    storage = await freshStorage();
  });

  const put = (treeName: string, key: string, valueJson = '1', now = 1000) =>
    putEntry(storage, { tenant: T, treeName, key, valueJson, schemaVersion: 0, now });
  const keysOf = async (keyPrefix: string, afterKey?: string, limit = 100) =>
    (await listLiveEntries(storage, T, 'tree', { keyPrefix, afterKey, limit })).map((e) => e.key);

  it('when a tree was never written, resolve is undefined and reads are empty', async () => {
    expect(await resolveTree(storage, T, 'nope')).toBeUndefined();
    expect(await getLiveEntry(storage, T, 'nope', 'k')).toBeUndefined();
    expect(await listLiveEntries(storage, T, 'nope', { limit: 10 })).toEqual([]);
    expect(await deleteEntry(storage, { tenant: T, treeName: 'nope', key: 'k', now: 1 })).toEqual({
      status: 'absent',
    });
    expect(await resolveTree(storage, T, 'nope')).toBeUndefined();
  });

  it('the first put creates the tree and each write takes the next sequence', async () => {
    expect(await put('tree', 'a')).toMatchObject({ status: 'written', sequence: 1 });
    expect(await put('tree', 'b')).toMatchObject({ status: 'written', sequence: 2 });
    expect(await put('tree', 'a', '2', 2000)).toMatchObject({ status: 'written', sequence: 3 });
    const tree = await resolveTree(storage, T, 'tree');
    expect(tree).toMatchObject({ lastSequence: 3, writeLockedBy: null, updatedAt: 2000 });
    expect(await getLiveEntry(storage, T, 'tree', 'a')).toEqual({
      key: 'a',
      valueJson: '2',
      tombstone: false,
      sequence: 3,
      schemaVersion: 0,
      updatedAt: 2000,
    });
  });

  it('a delete tombstones a live entry with a new sequence; a second delete writes nothing', async () => {
    await put('tree', 'a', '{"v":1}');
    const deleted = await deleteEntry(storage, { tenant: T, treeName: 'tree', key: 'a', now: 5 });
    expect(deleted).toEqual({ status: 'deleted', sequence: 2 });
    expect(await getLiveEntry(storage, T, 'tree', 'a')).toBeUndefined();
    const again = await deleteEntry(storage, { tenant: T, treeName: 'tree', key: 'a', now: 6 });
    expect(again).toEqual({ status: 'absent' });
    const missing = await deleteEntry(storage, { tenant: T, treeName: 'tree', key: 'zz', now: 6 });
    expect(missing).toEqual({ status: 'absent' });
    expect((await resolveTree(storage, T, 'tree'))?.lastSequence).toBe(2);
    expect(await put('tree', 'a', '3')).toMatchObject({ sequence: 3 });
    expect((await getLiveEntry(storage, T, 'tree', 'a'))?.valueJson).toBe('3');
  });

  it('lists live entries by byte order, skipping tombstones, after a key', async () => {
    for (const key of ['b', 'B', 'a', 'é', 'z', 'a-1']) await put('tree', key);
    await deleteEntry(storage, { tenant: T, treeName: 'tree', key: 'z', now: 1 });
    expect(await keysOf('')).toEqual(['B', 'a', 'a-1', 'b', 'é']);
    expect(await keysOf('', 'a', 2)).toEqual(['a-1', 'b']);
  });

  it('matches key prefixes literally and case-sensitively, including % and _', async () => {
    const keys = ['a%b', 'a%c', 'a_b', 'aXb', 'A%b', 'a%', 'ab', 'éa', 'é', 'e', 'f'];
    for (const key of keys) await put('tree', key);
    expect(await keysOf('a%')).toEqual(['a%', 'a%b', 'a%c']);
    expect(await keysOf('a_')).toEqual(['a_b']);
    expect(await keysOf('A')).toEqual(['A%b']);
    expect(await keysOf('a')).toEqual(['a%', 'a%b', 'a%c', 'aXb', 'a_b', 'ab']);
    expect(await keysOf('é')).toEqual(['é', 'éa']);
    expect(await keysOf('a%', 'a%b')).toEqual(['a%c']);
    expect(await keysOf('q')).toEqual([]);
  });

  it('lists a tenant’s trees by name with live entry counts, and no other tenant’s', async () => {
    await put('t2', 'x');
    await put('t1', 'x');
    await put('t1', 'y', '1', 3000);
    await deleteEntry(storage, { tenant: T, treeName: 't2', key: 'x', now: 4000 });
    await putEntry(storage, {
      tenant: 'other',
      treeName: 't0',
      key: 'k',
      valueJson: '1',
      schemaVersion: 0,
      now: 1,
    });
    expect(await listTrees(storage, T, { limit: 10 })).toEqual([
      { name: 't1', entryCount: 2, byteSize: 4, updatedAt: 3000 },
      { name: 't2', entryCount: 0, byteSize: 0, updatedAt: 4000 },
    ]);
    expect(await listTrees(storage, T, { afterName: 't1', limit: 10 })).toHaveLength(1);
    expect((await listTrees(storage, 'other', { limit: 10 })).map((t) => t.name)).toEqual(['t0']);
    expect(await getLiveEntry(storage, 'other', 't1', 'x')).toBeUndefined();
  });

  it('when the tree is write-locked, put and delete report the lock and write nothing', async () => {
    await put('tree', 'a');
    const lock = { tenant: T, treeName: 'tree', expected: null, next: 'op-1' };
    expect(await compareAndSetWriteLock(storage, lock)).toBe(true);
    expect(await put('tree', 'b')).toEqual({ status: 'locked', lockedBy: 'op-1' });
    const deleted = await deleteEntry(storage, { tenant: T, treeName: 'tree', key: 'a', now: 1 });
    expect(deleted).toEqual({ status: 'locked', lockedBy: 'op-1' });
    expect(await resolveTree(storage, T, 'tree')).toMatchObject({
      lastSequence: 1,
      writeLockedBy: 'op-1',
    });
    expect(await getLiveEntry(storage, T, 'tree', 'b')).toBeUndefined();
  });

  it('a put racing an uncommitted write-lock acquisition waits and is refused', async () => {
    await put('tree', 'a');
    let release = () => {};
    let locked = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const lockDone = new Promise<void>((resolve) => (locked = resolve));
    const lockTx = withTransaction(storage, async (tx) => {
      const lock = { tenant: T, treeName: 'tree', expected: null, next: 'op-9' };
      expect(await compareAndSetWriteLock(tx, lock)).toBe(true);
      locked();
      await held;
    });
    await lockDone;
    const racing = put('tree', 'b');
    await new Promise((resolve) => setTimeout(resolve, 150));
    release();
    await lockTx;
    expect(await racing).toEqual({ status: 'locked', lockedBy: 'op-9' });
  });

  it('when many callers ensure a new tree at once, exactly one tree is created', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => ensureTree(storage, T, 'fresh', 1)),
    );
    expect(new Set(results.map((r) => r.physicalTreeId)).size).toBe(1);
    const logical = await storage.db.selectFrom('trees').selectAll().execute();
    const physical = await storage.db.selectFrom('physical_trees').selectAll().execute();
    expect(logical).toHaveLength(1);
    expect(physical).toHaveLength(1);
    expect(physical[0]).toMatchObject({ id: results[0]?.physicalTreeId, tree_name: 'fresh' });
  });
});
