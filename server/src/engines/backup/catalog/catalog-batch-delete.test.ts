import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../../test/support/test-storage.js';
import { storagePerTest } from '../../../../test/support/storage-per-test.js';
import { backupRowValues } from '../../../storage/backup/backup-store.js';
import { protectBackup } from '../../../storage/backup/lifecycle/backup-protection-store.js';
import type { Storage } from '../../../storage/database.js';
import type { ArtifactStore } from '../artifacts/index.js';
import { makeRecords, tempStore } from '../artifacts/test-fixtures.js';
import { deleteBackupBatch } from './catalog-batch-delete.js';

/** Which backups have anything in the artifact store. */
async function storedIds(store: ArtifactStore): Promise<string[]> {
  return (await store.listStoredBackups('t')).map((b) => b.backupId).sort();
}

/** A chain full ← i1 ← i2 ← i3, and a lone full `other`, each with an artifact and a manifest. */
async function seed(storage: Storage, store: ArtifactStore) {
  const chain: [string, string | null][] = [
    ['full', null],
    ['i1', 'full'],
    ['i2', 'i1'],
    ['i3', 'i2'],
    ['other', null],
  ];
  const rows = [];
  for (const [i, [id, base]] of chain.entries()) {
    const artifacts = await store.writeArtifacts('t', id, makeRecords(3));
    const manifest = { backupId: id, byteSize: 10, artifacts };
    await store.writeManifest('t', id, manifest, { artifacts });
    rows.push(
      backupRowValues({
        tenant: 't',
        id,
        name: id,
        kind: base ? 'INCREMENTAL' : 'FULL',
        treeName: 'inventory',
        keyPrefix: null,
        baseBackupId: base,
        setId: null,
        physicalTreeId: 'pt',
        createdAt: 1000 + i,
        completedAt: 1000 + i,
        toSequence: i,
        manifestJson: JSON.stringify(manifest),
      }),
    );
  }
  await storage.db.insertInto('backups').values(rows).execute();
}

async function remaining(storage: Storage) {
  const rows = await storage.db.selectFrom('backups').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}

describe.each(DIALECTS)('catalog batch delete on %s', (dialect) => {
  let artifacts: Awaited<ReturnType<typeof tempStore>> | undefined;
  afterEach(async () => {
    await artifacts?.dispose();
    artifacts = undefined;
  });
  // After the hook above, so its afterEach runs first: the storage goes before the artifacts.
  const freshStorage = storagePerTest(dialect);

  it('deletes a whole chain in one batch, dependants first; skips absent ids', async () => {
    const storage = await freshStorage();
    artifacts = await tempStore();
    await seed(storage, artifacts.store);
    const result = await deleteBackupBatch(storage, artifacts.store, 't', [
      'i3',
      'i2',
      'gone',
      'i1',
      'full',
    ]);
    expect(result).toEqual({ deleted: ['i3', 'i2', 'i1', 'full'], blocked: [] });
    expect(await storedIds(artifacts.store)).toEqual(['other']);
    expect(await remaining(storage)).toEqual(['other']);
  });

  it('leaves a backup a dependant outside the batch needs, and every base under it', async () => {
    const storage = await freshStorage();
    artifacts = await tempStore();
    await seed(storage, artifacts.store);
    // i3 is not in the batch: i2 stays, and so do i1 and full below it; `other` goes.
    const result = await deleteBackupBatch(storage, artifacts.store, 't', [
      'i2',
      'i1',
      'full',
      'other',
    ]);
    expect(result).toEqual({ deleted: ['other'], blocked: ['i2', 'i1', 'full'] });
    expect(await storedIds(artifacts.store)).toEqual(['full', 'i1', 'i2', 'i3']);
    expect(await remaining(storage)).toEqual(['full', 'i1', 'i2', 'i3']);
  });

  it('refuses a batch holding a protected backup, naming the protection, and deletes nothing', async () => {
    const storage = await freshStorage();
    artifacts = await tempStore();
    await seed(storage, artifacts.store);
    await protectBackup(storage, 't', {
      backupId: 'i3',
      protectedBy: 'alice',
      protectedAt: Date.UTC(2026, 10, 25, 10),
      reason: 'legal hold',
    });
    await expect(
      deleteBackupBatch(storage, artifacts.store, 't', ['i3', 'i2', 'i1', 'full', 'other']),
    ).rejects.toThrow(
      'backup “i3” is protected by alice since 25 Nov 2026, 10:00 UTC (legal hold); unprotect it before deleting it',
    );
    expect(await storedIds(artifacts.store)).toEqual(['full', 'i1', 'i2', 'i3', 'other']);
    expect(await remaining(storage)).toEqual(['full', 'i1', 'i2', 'i3', 'other']);
  });
});
