import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../../storage/database.js';
import { compareAndSetWriteLock } from '../../storage/data/physical-tree-store.js';
import { resolveTree } from '../../storage/data/tree-store.js';
import { TreeDataEngine, type WriteGuard } from './tree-data-engine.js';

const T = 'acme';

describe.each(DIALECTS)('TreeDataEngine writes on %s', (dialect) => {
  let storage: Storage;
  const freshStorage = storagePerTest(dialect);
  beforeEach(async () => {
    storage = await freshStorage();
  });

  it('when the write guard refuses, nothing is written and the put is dead-lettered', async () => {
    const writeGuard = vi.fn<WriteGuard>(async () => ({ apply: false, reason: 'SCHEMA_VIOLATION' }));
    const engine = new TreeDataEngine({ storage, writeGuard });
    expect(await engine.putEntry(T, 't', 'k', '{"b":1, "a":2}')).toEqual({
      sequence: 0,
      deadLettered: true,
      deadLetterReason: 'SCHEMA_VIOLATION',
    });
    expect(writeGuard).toHaveBeenCalledWith({
      tenant: T,
      treeName: 't',
      key: 'k',
      value: { b: 1, a: 2 },
    });
    expect(await engine.getEntry(T, 't', 'k')).toBeUndefined();
    expect(await resolveTree(storage, T, 't')).toBeUndefined();
  });

  it('stores the schema version the guard gives, and its replacement value canonically', async () => {
    const writeGuard: WriteGuard = async ({ value }) =>
      (value as { v?: number }).v === 1
        ? { apply: true, schemaVersion: 2, value: { v: 2, migrated: true } }
        : { apply: true, schemaVersion: 7 };
    const engine = new TreeDataEngine({ storage, writeGuard });
    await engine.putEntry(T, 't', 'old', '{"v":1}');
    await engine.putEntry(T, 't', 'new', '{"v":3}');
    expect(await engine.getEntry(T, 't', 'old')).toMatchObject({
      valueJson: '{"migrated":true,"v":2}',
      schemaVersion: 2,
    });
    expect(await engine.getEntry(T, 't', 'new')).toMatchObject({ schemaVersion: 7 });
  });

  it('when the tree is write-locked, put and delete are FailedPrecondition naming tree and holder', async () => {
    const engine = new TreeDataEngine({ storage });
    await engine.putEntry(T, 'orders', 'k', '1');
    const lock = { tenant: T, treeName: 'orders', expected: null, next: 'op-restore-7' };
    expect(await compareAndSetWriteLock(storage, lock)).toBe(true);
    for (const call of [
      () => engine.putEntry(T, 'orders', 'k2', '1'),
      () => engine.deleteEntry(T, 'orders', 'k'),
    ]) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'failed_precondition' });
      expect((error as Error).message).toContain("'orders'");
      expect((error as Error).message).toContain('op-restore-7');
    }
    expect((await engine.getEntry(T, 'orders', 'k'))?.valueJson).toBe('1');
    expect(await engine.putEntry(T, 'other-tree', 'k', '1')).toMatchObject({ sequence: 1 });
    await compareAndSetWriteLock(storage, { ...lock, expected: 'op-restore-7', next: null });
    expect(await engine.putEntry(T, 'orders', 'k2', '1')).toMatchObject({ sequence: 2 });
  });

  it('when the lock is taken after the guard ran, the write transaction still refuses', async () => {
    const writeGuard: WriteGuard = async () => {
      await compareAndSetWriteLock(storage, {
        tenant: T,
        treeName: 't',
        expected: null,
        next: 'op-late',
      });
      return { apply: true, schemaVersion: 0 };
    };
    const plain = new TreeDataEngine({ storage });
    await plain.putEntry(T, 't', 'k', '1');
    const engine = new TreeDataEngine({ storage, writeGuard });
    await expect(engine.putEntry(T, 't', 'k', '2')).rejects.toMatchObject({
      code: 'failed_precondition',
      message: expect.stringContaining('op-late'),
    });
    expect((await plain.getEntry(T, 't', 'k'))?.valueJson).toBe('1');
  });

  it('8 concurrent writers × 40 puts get distinct sequences in commit order', async () => {
    const engine = new TreeDataEngine({ storage });
    await engine.putEntry(T, 'hot', 'seed', '0'); // sequence 1
    const writers = 8;
    const puts = 40;
    const results = await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const mine: { key: string; value: string; sequence: number }[] = [];
        for (let i = 0; i < puts; i += 1) {
          // Half the puts fight over four shared keys, so the winner per key shows commit order.
          const key = i % 2 === 0 ? `w${w}-${i}` : `shared-${i % 4}`;
          const value = JSON.stringify({ i, w }); // already canonical
          const { sequence } = await engine.putEntry(T, 'hot', key, value);
          mine.push({ key, value, sequence });
        }
        return mine;
      }),
    );
    for (const mine of results) {
      const sequences = mine.map((r) => r.sequence);
      expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    }
    const all = results.flat();
    const sorted = all.map((r) => r.sequence).sort((a, b) => a - b);
    expect(sorted).toEqual(Array.from({ length: writers * puts }, (_, i) => i + 2));
    expect((await resolveTree(storage, T, 'hot'))?.lastSequence).toBe(writers * puts + 1);
    // The row left under each key is the write with the highest sequence for that key: a later
    // sequence never committed before an earlier one.
    const latest = new Map<string, { value: string; sequence: number }>();
    for (const r of all) {
      if ((latest.get(r.key)?.sequence ?? 0) < r.sequence) latest.set(r.key, r);
    }
    for (const [key, expected] of latest) {
      const stored = await engine.getEntry(T, 'hot', key);
      expect(stored).toMatchObject({ sequence: expected.sequence, valueJson: expected.value });
    }
  });

  it('concurrent first writes to a new tree create exactly one tree', async () => {
    const engine = new TreeDataEngine({ storage });
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => engine.putEntry(T, 'fresh', `k${i}`, `${i}`)),
    );
    expect(results.map((r) => r.sequence).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
    expect(await storage.db.selectFrom('trees').selectAll().execute()).toHaveLength(1);
    expect(await storage.db.selectFrom('physical_trees').selectAll().execute()).toHaveLength(1);
    const listing = await engine.listTrees(T, {});
    expect(listing.trees).toMatchObject([{ treeId: 'fresh', entryCount: 16 }]);
  });
});
