// The artifact store's batch delete (retention's apply, a cascading delete) on both stores, the
// S3 one against a real S3 server (rclone serve s3): every manifest of the batch goes before
// the artifacts, a batch costs a few DeleteObjects requests and one upload listing instead of a
// few requests per backup, keys the server refuses are retried and then reported (never
// claimed deleted), and what a refusal or a stray object leaves is found by scrub.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateMultipartUploadCommand, type DeleteObjectsCommandOutput } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  S3ArtifactStore,
  type ArtifactStore,
  type BackupFilesRef,
} from '../../src/engines/backup/artifacts/index.js';
import type { S3ObjectStore } from '../../src/engines/backup/artifacts/object-store/index.js';
import { scrubCatalog } from '../../src/engines/backup/maintenance/scrub.js';
import { StoreError } from '../../src/engines/errors.js';
import {
  ARTIFACT_STORES,
  closeSharedS3Server,
  sharedS3Server,
  storeUnderTest,
  testObjectStore,
  type StoreUnderTest,
} from '../support/artifact-stores.js';
import { openTestStorage } from '../support/test-storage.js';

const TENANT = 'acme';
const DAY = 24 * 60 * 60 * 1000;

afterAll(async () => {
  await closeSharedS3Server();
});

/** Stores a backup of two artifacts and its manifest; returns what a batch delete is given. */
async function storeBackup(artifacts: ArtifactStore, backupId: string): Promise<BackupFilesRef> {
  const records = Array.from({ length: 6 }, (_, i) => ({
    key: `${backupId}/k${i}`,
    valueJson: JSON.stringify({ i }),
    sequence: i + 1,
    schemaVersion: 1,
  }));
  const written = await artifacts.writeArtifacts(TENANT, backupId, records, {
    maxEntriesPerArtifact: 3,
  });
  await artifacts.writeManifest(
    TENANT,
    backupId,
    { backupId, artifacts: written },
    {
      artifacts: written,
    },
  );
  return { backupId, artifactIds: written.map((a) => a.artifactId) };
}

/** Whether a backup's manifest and every artifact still read back and prove out. */
async function intact(artifacts: ArtifactStore, ref: BackupFilesRef): Promise<boolean> {
  const { manifest } = await artifacts.readManifest<{ artifacts: { artifactId: string }[] }>(
    TENANT,
    ref.backupId,
  );
  for (const artifact of manifest.artifacts as Parameters<ArtifactStore['verifyArtifact']>[2][]) {
    if (!(await artifacts.verifyArtifact(TENANT, ref.backupId, artifact)).ok) return false;
  }
  return manifest.artifacts.length === ref.artifactIds.length;
}

async function errorOf(promise: Promise<unknown>): Promise<StoreError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof StoreError)) throw new Error(`not a StoreError: ${String(error)}`);
  return error;
}

describe.each(ARTIFACT_STORES)('batch delete of backup files in the %s store', (kind) => {
  let store: StoreUnderTest;
  let artifacts: ArtifactStore;
  let dataDir: string;
  beforeAll(async () => {
    store = await storeUnderTest(kind);
    dataDir = await mkdtemp(join(tmpdir(), 'batch-delete-'));
    artifacts = store.open(dataDir);
  });
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('removes the manifest and artifacts of every backup listed, keeps the others, and may run again', async () => {
    const refs = [];
    for (const id of ['bk_a', 'bk_b', 'bk_c', 'bk_d']) refs.push(await storeBackup(artifacts, id));
    const [a, b, c, d] = refs as [BackupFilesRef, BackupFilesRef, BackupFilesRef, BackupFilesRef];
    const absent = { backupId: 'bk_never_stored', artifactIds: ['part-00001'] };
    await artifacts.deleteManyBackupFiles(TENANT, [a, b, absent, c]);
    for (const gone of [a, b, c, absent]) {
      expect(await store.backupStored(dataDir, TENANT, gone.backupId)).toBe(false);
    }
    expect(await intact(artifacts, d)).toBe(true);
    // Idempotent: a retried apply deletes the same batch again without an error.
    await artifacts.deleteManyBackupFiles(TENANT, [a, b]);
    await artifacts.deleteManyBackupFiles(TENANT, []);
    expect(await intact(artifacts, d)).toBe(true);
    expect((await artifacts.listStoredBackups(TENANT)).map((s) => s.backupId)).toEqual(['bk_d']);
  });
});

/** The DeleteObjects keys the server is told to refuse, and how many times each. */
type Refusals = Map<string, number>;

/**
 * A fault between the client and the real server: the keys in `refusals` are taken out of a
 * DeleteObjects request (so the server keeps them) and answered as per-key errors, as S3 does
 * when it cannot delete one object of a batch. Every request the client sends is counted.
 */
function instrument(objects: S3ObjectStore, refusals: Refusals, sent: string[]) {
  objects.client.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push(context.commandName ?? '?');
      if (context.commandName !== 'DeleteObjectsCommand') return next(args);
      const input = args.input as { Delete: { Objects: { Key: string }[] } };
      const refused: string[] = [];
      input.Delete.Objects = input.Delete.Objects.filter(({ Key }) => {
        const left = refusals.get(Key) ?? 0;
        if (left <= 0) return true;
        refusals.set(Key, left - 1);
        refused.push(Key);
        return false;
      });
      const result = await next(args);
      const output = result.output as DeleteObjectsCommandOutput;
      output.Errors = [
        ...(output.Errors ?? []),
        ...refused.map((Key) => ({ Key, Code: 'InternalError', Message: 'We were not able to' })),
      ];
      return result;
    },
    { step: 'initialize', name: 'refuseSomeDeletes' },
  );
}

describe('batch delete in S3: round trips, refusals and leftovers', () => {
  let objects: S3ObjectStore;
  let artifacts: S3ArtifactStore;
  const refusals: Refusals = new Map();
  const sent: string[] = [];
  let prefix: string;
  beforeAll(async () => {
    const s3 = await sharedS3Server();
    prefix = `batch-${Date.now().toString(36)}`;
    objects = testObjectStore(s3, prefix);
    instrument(objects, refusals, sent);
    artifacts = new S3ArtifactStore(objects);
  });
  afterAll(() => {
    objects?.client.destroy();
  });

  it('deletes 200 backups in a few requests: DeleteObjects for the manifests, then for the artifacts, one upload listing', async () => {
    const refs: BackupFilesRef[] = [];
    let next = 0;
    const writer = async () => {
      while (next < 200) {
        const id = `bk_many_${String(next++).padStart(3, '0')}`;
        const ref = { backupId: id, artifactIds: [] };
        await artifacts.writeManifest(TENANT, id, { backupId: id, artifacts: [] });
        refs.push(ref);
      }
    };
    await Promise.all(Array.from({ length: 8 }, writer));
    sent.length = 0;
    await artifacts.deleteManyBackupFiles(TENANT, refs);
    // 200 manifests in 8 DeleteObjects of 25 keys at once (a server deletes one request's keys
    // one by one); no artifacts to delete; one upload listing. Not 3 requests a backup.
    expect(sent).toEqual([
      ...Array.from({ length: 8 }, () => 'DeleteObjectsCommand'),
      'ListMultipartUploadsCommand',
    ]);
    expect((await artifacts.listStoredBackups(TENANT)).length).toBe(0);

    const withParts = [];
    for (const id of ['bk_p1', 'bk_p2', 'bk_p3']) withParts.push(await storeBackup(artifacts, id));
    sent.length = 0;
    await artifacts.deleteManyBackupFiles(TENANT, withParts);
    expect(sent).toEqual([
      'DeleteObjectsCommand',
      'DeleteObjectsCommand',
      'ListMultipartUploadsCommand',
    ]);
    expect((await artifacts.listStoredBackups(TENANT)).length).toBe(0);
  });

  it('retries the keys a server refused once, and deletes them', async () => {
    const ref = await storeBackup(artifacts, 'bk_flaky');
    refusals.set(objects.objectKey(`${TENANT}/bk_flaky/manifest.json`), 1);
    refusals.set(objects.objectKey(`${TENANT}/bk_flaky/part-00002.ndjson.gz`), 2);
    await artifacts.deleteManyBackupFiles(TENANT, [ref]);
    expect((await artifacts.listStoredBackups(TENANT)).length).toBe(0);
  });

  it('keys refused for good fail the call naming them; a kept manifest keeps its artifacts; scrub finds what is left', async () => {
    const manifestRefused = await storeBackup(artifacts, 'bk_keeps_manifest');
    const artifactRefused = await storeBackup(artifacts, 'bk_keeps_part');
    const fine = await storeBackup(artifacts, 'bk_fine');
    const partKey = `${TENANT}/bk_keeps_part/part-00001.ndjson.gz`;
    refusals.set(objects.objectKey(`${TENANT}/bk_keeps_manifest/manifest.json`), 99);
    refusals.set(objects.objectKey(partKey), 99);
    // A stray object its manifest does not list (a capture taken over): a batch does not list.
    await objects.put(`${TENANT}/bk_fine/part-00009.ndjson.gz`, [Buffer.from('stray')]);

    const error = await errorOf(
      artifacts.deleteManyBackupFiles(TENANT, [manifestRefused, artifactRefused, fine]),
    );
    refusals.clear();
    expect(error.code).toBe('unavailable');
    expect(error.message).toContain(`artifact store s3://store-artifacts/${prefix}`);
    expect(error.message).toContain('2 of 7 objects of 3 backups were not deleted');
    expect(error.message).toContain('1 manifests kept with their artifacts');
    expect(error.message).toContain('InternalError');
    // Never a manifest naming artifacts that are gone: the refused manifest kept them all.
    expect(await intact(artifacts, manifestRefused)).toBe(true);
    const left = await artifacts.listStoredBackups(TENANT);
    expect(
      left.map((s) => [s.backupId, s.hasManifest, s.artifacts.map((a) => a.artifactId)]),
    ).toEqual([
      ['bk_fine', false, ['part-00009']],
      ['bk_keeps_manifest', true, ['part-00001', 'part-00002']],
      ['bk_keeps_part', false, ['part-00001']],
    ]);

    // No catalog row owns any of it: scrub (a day later: S3's grace) reports and prunes it.
    const storage = await openTestStorage('sqlite');
    try {
      const now = Date.now() + 2 * DAY;
      const scrub = await scrubCatalog(storage, artifacts, TENANT, { prune: true, now });
      expect(scrub.findings.map((f) => [f.problem, f.artifactId])).toEqual([
        ['orphan', 'bk_fine'],
        ['orphan', 'bk_keeps_manifest'],
        ['orphan', 'bk_keeps_part'],
      ]);
      expect(scrub.orphansPruned).toBe(3);
      expect(await artifacts.listStoredBackups(TENANT)).toEqual([]);
    } finally {
      await storage.dispose();
    }
  });

  it('aborts a multipart upload left open below a deleted backup, not one below a kept backup', async () => {
    const gone = await storeBackup(artifacts, 'bk_open_gone');
    const kept = await storeBackup(artifacts, 'bk_open_kept');
    const other = await storeBackup(artifacts, 'bk_other_gone');
    for (const id of [gone.backupId, kept.backupId]) {
      await objects.client.send(
        new CreateMultipartUploadCommand({
          Bucket: objects.bucket,
          Key: objects.objectKey(`${TENANT}/${id}/part-00003.ndjson.gz`),
        }),
      );
    }
    await artifacts.deleteManyBackupFiles(TENANT, [gone, other]);
    const open: string[] = [];
    for await (const upload of objects.listIncompleteUploads(`${TENANT}/`)) open.push(upload.key);
    expect(open).toEqual([`${TENANT}/bk_open_kept/part-00003.ndjson.gz`]);
    expect(await intact(artifacts, kept)).toBe(true);
    await artifacts.deleteManyBackupFiles(TENANT, [kept]);
    expect((await artifacts.listStoredBackups(TENANT)).length).toBe(0);
  });
});
