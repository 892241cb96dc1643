import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { differenceStorage } from './0021-difference-storage.js';

describe.each(DIALECTS)('migration 0021 (preview storage records) on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);

  it('gives each comparison stored before it a record of its rows and bytes, expiring a day later', async () => {
    const storage = await freshStorage();
    const db = storage.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    // As before 0021: differences, no records.
    await db.schema.dropTable('backup_comparison_storage').execute();
    const difference = (operationId: string, key: string, before: string | null) => ({
      tenant: 't',
      operation_id: operationId,
      key,
      change: before === null ? 'ADDED' : 'CHANGED',
      before_json: before,
      after_json: '"after"',
      before_schema_version: 0,
      after_schema_version: 1,
    });
    await db
      .insertInto('backup_comparison_differences')
      .values([
        difference('op-a', 'k1', '1'),
        difference('op-a', 'k2', null),
        difference('op-b', 'k', null),
      ])
      .execute();
    const before = Date.now();
    await differenceStorage(dialect).up(db as unknown as Kysely<unknown>);
    const rows = await storage.db
      .selectFrom('backup_comparison_storage')
      .selectAll()
      .orderBy('operation_id')
      .execute();
    expect(
      rows.map((r) => [r.operation_id, Number(r.stored_count), Number(r.stored_bytes), r.swept_at]),
    ).toEqual([
      // k1 + 1 + "after" = 2 + 1 + 7; k2 + "after" = 2 + 7.
      ['op-a', 2, 19, null],
      ['op-b', 1, 8, null],
    ]);
    for (const row of rows) {
      expect(Number(row.expires_at)).toBeGreaterThanOrEqual(before + 86_400_000);
      expect(Number(row.expires_at)).toBeLessThanOrEqual(Date.now() + 86_400_000);
    }
  });
});
