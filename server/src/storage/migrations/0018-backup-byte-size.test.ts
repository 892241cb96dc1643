import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { backupRowValues } from '../backup/backup-store.js';
import { backupByteSize } from './0018-backup-byte-size.js';

describe.each(DIALECTS)('migration 0018 (backup byte size column) on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);

  it('fills byte_size of existing rows from their manifest, 0 when the manifest has none; deletion records get a creation time column', async () => {
    const storage = await freshStorage();
    const db = storage.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    // backups as it was before 0018: no byte_size column (nor 0020's and 0026's indexes, which
    // cover it).
    await db.schema.dropIndex('backups_by_scope').execute();
    await db.schema.dropIndex('backups_by_health').execute();
    await db.schema.alterTable('backups').dropColumn('byte_size').execute();
    await db.schema
      .alterTable('backup_retention_deletions')
      .dropColumn('backup_created_at')
      .execute();
    const row = (id: string, manifest: Record<string, unknown>) => {
      const { byte_size: _dropped, ...values } = backupRowValues({
        tenant: 't',
        id,
        name: id,
        kind: 'FULL',
        treeName: 'inventory',
        keyPrefix: null,
        baseBackupId: null,
        setId: null,
        physicalTreeId: 'pt',
        createdAt: 1,
        completedAt: 2,
        toSequence: 3,
        manifestJson: JSON.stringify(manifest),
      });
      return values;
    };
    await db
      .insertInto('backups')
      .values([row('bk_sized', { byteSize: 5_000_000_123 }), row('bk_unsized', {})])
      .execute();
    await backupByteSize(dialect).up(db as unknown as Kysely<unknown>);
    const rows = await storage.db
      .selectFrom('backups')
      .select(['id', 'byte_size'])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.id, Number(r.byte_size)])).toEqual([
      ['bk_sized', 5_000_000_123],
      ['bk_unsized', 0],
    ]);
    const deletions = await storage.db
      .selectFrom('backup_retention_deletions')
      .select('backup_created_at')
      .execute();
    expect(deletions).toEqual([]);
  });
});
