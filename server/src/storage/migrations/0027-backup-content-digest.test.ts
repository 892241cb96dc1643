import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { backupRowValues } from '../backup/backup-store.js';
import { backupContentDigest } from './0027-backup-content-digest.js';

const DIGEST = `sum-sha256:${'ab'.repeat(32)}:7`;

describe.each(DIALECTS)('migration 0027 (backup content digest column) on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);

  it('fills content_digest from manifests that hold one and leaves older backups without', async () => {
    const storage = await freshStorage();
    const db = storage.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await db.schema.alterTable('backups').dropColumn('content_digest').execute();
    const row = (id: string, manifest: Record<string, unknown>) => {
      const { content_digest: _dropped, ...values } = backupRowValues({
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
      .values([row('bk_digest', { contentDigest: DIGEST }), row('bk_older', { byteSize: 1 })])
      .execute();
    await backupContentDigest(dialect).up(db as unknown as Kysely<unknown>);
    const rows = await storage.db
      .selectFrom('backups')
      .select(['id', 'content_digest'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'bk_digest', content_digest: DIGEST },
      { id: 'bk_older', content_digest: null },
    ]);
  });
});
