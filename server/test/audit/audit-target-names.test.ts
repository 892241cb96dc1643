import { Code } from '@connectrpc/connect';
import { StoreOperationState, type AuditRecord } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, startBackupServer, type BackupServer } from '../backup/backup-fixture.js';
import {
  adminAudit,
  capture,
  lifecycleClient,
  settleLifecycle,
  type LifecycleClient,
} from '../backup/lifecycle-fixture.js';
import { DIALECTS } from '../support/test-storage.js';

describe.each(DIALECTS)('audit targets by name on %s', (dialect) => {
  let s: BackupServer;
  let admin: LifecycleClient;
  beforeAll(async () => {
    s = await startBackupServer(dialect);
    admin = lifecycleClient(s.t.server.grpcUrl);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  /** The admin's records of `method` whose target is `targetId`, newest first. */
  async function recordsOf(method: string, targetId: string): Promise<AuditRecord[]> {
    await s.t.server.audit.flush();
    const { records } = await adminAudit(s.t.server.grpcUrl).listAuditRecords({
      method,
      pageSize: 1000,
    });
    return records.filter((r) => r.targetId === targetId);
  }

  it('a DeleteBackup or ProtectBackup record lists the backup’s name beside its id', async () => {
    const held = await capture(s, 'ledger');
    await admin.protectBackup({ backupId: held, reason: 'audit hold' });
    expect(await codeOf(s.backup.deleteBackup({ backupId: held }))).toBe(Code.FailedPrecondition);

    const [refused] = await recordsOf('DeleteBackup', held);
    expect(refused?.outcome).toBe('FAILED_PRECONDITION');
    expect(refused?.targetName).toBe('full ledger');
    const [protectedRecord] = await recordsOf('ProtectBackup', held);
    expect(protectedRecord?.targetName).toBe('full ledger');
    // A target that is no backup (a tree's writes) has no name to add.
    const puts = await recordsOf('PutEntry', 'ledger');
    expect(puts.length).toBeGreaterThan(0);
    expect(puts.every((r) => r.targetName === undefined)).toBe(true);
  });

  it('a cancel’s record names the operation by its kind and what it worked on', async () => {
    await s.put('invoices', { k: 1 });
    const backup = await s.backup.startBackup({ name: 'nightly', scope: { treeId: 'invoices' } });
    await s.finish(backup.operationId);
    const backupId = await capture(s, 'invoices');
    const check = await s.backup.startBackupHealthCheck({ backupId });
    await s.finish(check.operationId);
    await codeOf(s.backup.cancelBackupOperation({ operationId: backup.operationId }));
    await codeOf(s.backup.cancelBackupOperation({ operationId: check.operationId }));
    await codeOf(s.backup.cancelBackupOperation({ operationId: 'no-such-operation' }));

    const [cancelBackup] = await recordsOf('CancelBackupOperation', backup.operationId);
    expect(cancelBackup?.targetName).toBe('Backup of invoices');
    const [cancelCheck] = await recordsOf('CancelBackupOperation', check.operationId);
    expect(cancelCheck?.targetName).toBe('Health check of “full invoices”');
    const [unknown] = await recordsOf('CancelBackupOperation', 'no-such-operation');
    expect(unknown).toBeDefined();
    expect(unknown?.targetName).toBeUndefined();
  });

  it('a backup deleted by retention is still named (its deletion record keeps the name); one deleted by hand keeps the name it had in its DeleteBackup record', async () => {
    const old = await capture(s, 'orders');
    await capture(s, 'orders');
    await admin.protectBackup({ backupId: old, reason: 'until the audit' });
    await admin.unprotectBackup({ backupId: old, reason: 'audit done' });
    await admin.setRetentionRules({ scope: { treeId: 'orders' }, rules: { keepLast: 1 } });
    const preview = await admin.previewRetention({ scope: { treeId: 'orders' } });
    const handle = await admin.startRetentionApply({
      scope: { treeId: 'orders' },
      expectedFingerprint: preview.fingerprint,
    });
    expect((await settleLifecycle(admin, handle.operationId)).state).toBe(
      StoreOperationState.SUCCEEDED,
    );
    const [unprotected] = await recordsOf('UnprotectBackup', old);
    expect(unprotected?.targetName).toBe('full orders');

    const byHand = await capture(s, 'stock');
    expect(await codeOf(s.backup.deleteBackup({ backupId: byHand }))).toBe('ok');
    const [deleted] = await recordsOf('DeleteBackup', byHand);
    expect(deleted?.outcome).toBe('OK');
    // Stored with the record: the catalog row is gone, so no later lookup could name it.
    expect(deleted?.targetName).toBe('full stock');
  });
});
