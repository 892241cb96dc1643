import { describe, expect, it } from 'vitest';
import type { StoredDifference } from '../../../storage/backup/backup-comparison-store.js';
import { DifferenceBudget, differenceBytes, expiredAt } from './difference-storage.js';

function added(key: string, valueJson: string): StoredDifference {
  return {
    key,
    change: 'ADDED',
    beforeJson: null,
    afterJson: valueJson,
    beforeSchemaVersion: 0,
    afterSchemaVersion: 1,
  };
}

describe('preview storage budget', () => {
  it('counts a difference as the UTF-8 bytes of its key and both values', () => {
    expect(differenceBytes(added('ké', '"ü"'))).toBe(3 + 4);
    expect(differenceBytes({ ...added('k', '1'), change: 'CHANGED', beforeJson: '22' })).toBe(
      1 + 2 + 1,
    );
  });

  it('takes the prefix of each page within the row cap, and nothing once full', () => {
    const budget = new DifferenceBudget(3, 1_000);
    const first = budget.take([added('a', '1'), added('b', '2')]);
    expect(first).toMatchObject({ bytes: 4, truncated: false });
    const second = budget.take([added('c', '3'), added('d', '4')]);
    expect(second.kept.map((d) => d.key)).toEqual(['c']);
    expect(second.truncated).toBe(true);
    expect(budget.take([added('e', '5')])).toMatchObject({ kept: [], truncated: true });
  });

  it('stops at the first difference over the byte cap, even if a later one would fit', () => {
    const budget = new DifferenceBudget(100, 10);
    const taken = budget.take([added('a', '1234'), added('b', '123456789'), added('c', '1')]);
    expect(taken.kept.map((d) => d.key)).toEqual(['a']);
    expect(taken).toMatchObject({ bytes: 5, truncated: true });
    // Later pages store nothing either: the stored rows stay a prefix in key order.
    expect(budget.take([added('d', '1')]).kept).toEqual([]);
  });

  it("lowered to the tenant's room, it stores only what fits there", () => {
    const budget = new DifferenceBudget(100, 1_000);
    budget.limitBytes(3);
    expect(budget.take([added('a', '1'), added('b', '2')]).kept.map((d) => d.key)).toEqual(['a']);
    expect(budget.exhausted).toBe(true);
    budget.limitBytes(-5);
    expect(new DifferenceBudget(1, 1).exhausted).toBe(false);
  });

  it('an empty page is never truncated', () => {
    expect(new DifferenceBudget(0, 0).take([])).toMatchObject({ kept: [], truncated: false });
  });

  it('a comparison expired at its expiry time, or when swept; kept ones never expire', () => {
    const row = {
      storedCount: 1,
      storedBytes: 1,
      truncated: false,
      keptBy: null,
      sweptAt: null,
    };
    expect(expiredAt({ ...row, expiresAt: 1_000 }, 999)).toBeUndefined();
    expect(expiredAt({ ...row, expiresAt: 1_000 }, 1_000)).toBe(1_000);
    expect(expiredAt({ ...row, expiresAt: null, keptBy: 'admin' }, 9_999)).toBeUndefined();
    expect(expiredAt({ ...row, expiresAt: 2_000, sweptAt: 1_500 }, 1_600)).toBe(1_500);
  });
});
