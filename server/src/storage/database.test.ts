import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS, openTestStorage } from '../../test/support/test-storage.js';

describe.each(DIALECTS)('storage on %s', (dialect) => {
  let dispose: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await dispose?.();
    dispose = undefined;
  });

  it('applies the migrations and orders keys byte-wise', async () => {
    const storage = await openTestStorage(dialect);
    dispose = storage.dispose;
    const now = Date.now();
    const keys = ['b', 'B', 'a', 'é', 'a-1', 'a_1', 'Z'];
    for (const key of keys) {
      await storage.db
        .insertInto('entries')
        .values({
          physical_tree_id: 'p1',
          key,
          value_json: '1',
          tombstone: 0,
          sequence: 1,
          schema_version: 0,
          updated_at: now,
        })
        .execute();
    }
    const rows = await storage.db.selectFrom('entries').select('key').orderBy('key').execute();
    const byteOrder = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(rows.map((r) => r.key)).toEqual(byteOrder);
    const big = await sql<{ v: number }>`select ${2 ** 40} as v`.execute(storage.db);
    expect(Number(big.rows[0]?.v)).toBe(2 ** 40);
  });
});
