import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../database.js';
import { countPendingLetters, discardLetters } from './dead-letter-discard-store.js';

const TREE = { tenant: 'acme', treeName: 'orders' };

describe.each(DIALECTS)('the fingerprint of a pending dead-letter set on %s', (dialect) => {
  let storage: Storage;
  const freshStorage = storagePerTest(dialect);
  beforeEach(async () => {
    storage = await freshStorage();
  });

  /** A letter with an explicit id: a PostgreSQL insert that committed late can have a low one. */
  async function letter(id: number, treeName = TREE.treeName) {
    await storage.db
      .insertInto('schema_dead_letters')
      .values({
        id,
        tenant: TREE.tenant,
        tree_name: treeName,
        key: `k${id}`,
        value_json: '{}',
        reason: 'SCHEMA_VIOLATION',
        errors_json: '[]',
        source_operation_id: null,
        schema_version: 1,
        dead_lettered_at: 1000 + id,
      })
      .execute();
  }

  const discardedIds = async () =>
    (
      await storage.db
        .selectFrom('schema_dead_letters')
        .select('id')
        .where('discarded_at', 'is not', null)
        .orderBy('id')
        .execute()
    ).map((row) => Number(row.id));

  const discard = (expected: { count: number; fingerprint: string }) =>
    discardLetters(storage, {
      ...TREE,
      selection: {},
      expected,
      discardedBy: 'token:op',
      note: null,
      now: 5000,
    });

  it('an empty set has a fingerprint too, and another tree does not change it', async () => {
    const empty = await countPendingLetters(storage, TREE, {});
    expect(empty.count).toBe(0);
    expect(empty.fingerprint).not.toBe('');
    await letter(7, 'elsewhere');
    expect(await countPendingLetters(storage, TREE, {})).toEqual(empty);
  });

  it('a letter swapped in the middle (same count, lowest and highest id) changes it; the stale discard takes nothing', async () => {
    for (const id of [10, 20, 30]) await letter(id);
    const seen = await countPendingLetters(storage, TREE, {});
    expect(seen.count).toBe(3);
    expect(await countPendingLetters(storage, TREE, {})).toEqual(seen);

    // 20 resolved, 25 arrives: 10, 25, 30 is as many letters with the same bounds.
    await storage.db
      .updateTable('schema_dead_letters')
      .set({ replay_outcome: 'WRITTEN' })
      .where('id', '=', 20)
      .execute();
    await letter(25);
    const now = await countPendingLetters(storage, TREE, {});
    expect(now.count).toBe(3);
    expect(now.fingerprint).not.toBe(seen.fingerprint);

    expect(await discard(seen)).toEqual({ status: 'changed', count: 3, sameCount: true });
    expect(await discardedIds()).toEqual([]);
    expect(await discard({ count: 3, fingerprint: now.fingerprint })).toEqual({
      status: 'discarded',
      count: 3,
    });
    expect(await discardedIds()).toEqual([10, 25, 30]);
    expect((await countPendingLetters(storage, TREE, {})).count).toBe(0);
  });

  it('a set that grew or shrank is refused with its new size', async () => {
    for (const id of [1, 2]) await letter(id);
    const seen = await countPendingLetters(storage, TREE, {});
    await letter(3);
    expect(await discard(seen)).toEqual({ status: 'changed', count: 3, sameCount: false });
    expect(await discardedIds()).toEqual([]);
  });
});
