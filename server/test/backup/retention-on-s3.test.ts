// Retention's apply with the artifacts in S3 (a real rclone serve s3), on both databases: it
// deletes exactly what the preview listed from the catalog and the bucket, through the batch
// delete; when the server refuses to delete an object the operation fails naming the store and
// the object, the refused manifest keeps its artifacts, and the deletions that did happen are
// recorded (the catalog rows are gone first, as in every delete).
import { Code, ConnectError } from '@connectrpc/connect';
import { BackupHealthStatus, RetentionAction, StoreOperationState } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3ArtifactStore } from '../../src/engines/backup/artifacts/index.js';
import {
  closeSharedS3Server,
  storeUnderTest,
  type StoreUnderTest,
} from '../support/artifact-stores.js';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from './backup-fixture.js';
import {
  adminAudit,
  capture,
  catalogIds,
  lifecycleClient,
  settleLifecycle,
  type LifecycleClient,
} from './lifecycle-fixture.js';

const TENANT = 'default';

afterAll(async () => {
  await closeSharedS3Server();
});

describe.each(DIALECTS)('retention apply with artifacts in S3 on %s', (dialect) => {
  let store: StoreUnderTest;
  let s: BackupServer;
  let admin: LifecycleClient;
  /** Full object keys the server's S3 client is made to see refused by DeleteObjects. */
  const refused = new Set<string>();
  beforeAll(async () => {
    store = await storeUnderTest('s3');
    s = await startBackupServer(dialect, store.env);
    admin = lifecycleClient(s.t.server.grpcUrl);
    const artifacts = s.t.server.backup.artifacts as S3ArtifactStore;
    // A fault between the server and S3: refused keys are kept out of the request (the server
    // keeps them) and answered as per-key errors, as S3 answers a key it could not delete.
    artifacts.objects.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'DeleteObjectsCommand' || refused.size === 0) return next(args);
        const input = args.input as { Delete: { Objects: { Key: string }[] } };
        const kept = input.Delete.Objects.filter(({ Key }) => refused.has(Key));
        input.Delete.Objects = input.Delete.Objects.filter(({ Key }) => !refused.has(Key));
        const result = await next(args);
        const output = result.output as { Errors?: object[] };
        output.Errors = kept.map(({ Key }) => ({ Key, Code: 'AccessDenied', Message: 'Denied' }));
        return result;
      },
      { step: 'initialize', name: 'refuseSomeDeletes' },
    );
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  const stored = (backupId: string) => store.backupStored(s.t.location.dataDir, TENANT, backupId);

  async function applyKeepLast(tree: string) {
    const scope = { treeId: tree };
    await admin.setRetentionRules({ scope, rules: { keepLast: 1 } });
    const preview = await admin.previewRetention({ scope, action: RetentionAction.DELETE });
    const handle = await admin.startRetentionApply({
      scope,
      expectedFingerprint: preview.fingerprint,
    });
    const status = await settleLifecycle(admin, handle.operationId);
    return { preview, status };
  }

  it('deletes exactly the previewed backups from the catalog and the bucket, chains whole', async () => {
    const tree = 's3-chains';
    const f0 = await capture(s, tree);
    const i0 = await capture(s, tree, f0);
    const i1 = await capture(s, tree, i0);
    const f1 = await capture(s, tree);
    const i2 = await capture(s, tree, f1);
    for (const id of [f0, i0, i1, f1, i2]) expect(await stored(id)).toBe(true);
    const { preview, status } = await applyKeepLast(tree);
    expect(preview.entries.map((e) => e.backupId)).toEqual([i1, i0, f0]);
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
    expect(await catalogIds(s, tree)).toEqual([f1, i2].sort());
    for (const id of [f0, i0, i1]) expect(await stored(id)).toBe(false);
    for (const id of [f1, i2]) expect(await stored(id)).toBe(true);
    // What stays still proves out from the bucket.
    for (const backupId of [f1, i2]) {
      const checked = await s.finish(
        (await s.backup.startBackupHealthCheck({ backupId })).operationId,
      );
      expect(checked.result.case === 'healthReport' && checked.result.value.status).toBe(
        BackupHealthStatus.HEALTHY,
      );
    }
  });

  it('a manifest the server refuses to delete fails the apply naming the store and the object; it keeps its artifacts; the deletions that happened are audited', async () => {
    const tree = 's3-refused';
    const f0 = await capture(s, tree);
    const i0 = await capture(s, tree, f0);
    const other = await capture(s, tree);
    await capture(s, tree);
    const objects = (s.t.server.backup.artifacts as S3ArtifactStore).objects;
    refused.add(objects.objectKey(`${TENANT}/${i0}/manifest.json`));
    const { preview, status } = await applyKeepLast(tree);
    refused.clear();
    expect(preview.entries.map((e) => e.backupId).sort()).toEqual([i0, f0, other].sort());
    expect(status.state).toBe(StoreOperationState.FAILED);
    expect(status.error?.code).toBe('unavailable');
    expect(status.error?.message).toContain(`artifact store s3://`);
    expect(status.error?.message).toContain(`${TENANT}/${i0}/manifest.json: AccessDenied Denied`);
    // Rows first, as every delete: the catalog no longer has them, the bucket keeps the refused
    // backup whole (scrub's orphan), never a manifest whose artifacts are gone.
    expect(await catalogIds(s, tree)).toHaveLength(1);
    expect(await stored(i0)).toBe(true);
    const kept = await s.t.server.backup.artifacts.readManifest<{ artifacts: unknown[] }>(
      TENANT,
      i0,
    );
    expect(kept.manifest.artifacts.length).toBeGreaterThan(0);
    for (const id of [f0, other]) expect(await stored(id)).toBe(false);
    const audit = adminAudit(s.t.server.grpcUrl);
    await expect
      .poll(async () => {
        const { records } = await audit.listAuditRecords({ method: 'RetentionDelete' });
        return records.filter((r) => r.detail.includes(`tree ${tree},`)).map((r) => r.targetId);
      })
      // Named as people know them (capture() names fulls "full <tree>", incrementals "inc of <base>").
      .toEqual(expect.arrayContaining([`inc of ${f0}`, `full ${tree}`, `full ${tree}`]));
  });

  it('a cascading DeleteBackup removes the chain from the bucket in one batch', async () => {
    const tree = 's3-cascade';
    const f0 = await capture(s, tree);
    const i0 = await capture(s, tree, f0);
    const i1 = await capture(s, tree, i0);
    const refusal = await s.backup.deleteBackup({ backupId: f0 }).catch((e: unknown) => e);
    expect(ConnectError.from(refusal).code).toBe(Code.FailedPrecondition);
    const gone = await s.backup.deleteBackup({ backupId: f0, cascade: true });
    expect(new Set(gone.deletedBackupIds)).toEqual(new Set([f0, i0, i1]));
    for (const id of [f0, i0, i1]) expect(await stored(id)).toBe(false);
  });
});
