// Automatic retention is guarded and visible: the apply that runs by itself after a scheduled
// capture is a tracked operation like any other; it stops, deleting nothing and saying why (in
// its result and in the audit trail), when its plan would delete the scope's newest healthy
// backup or more than the allowed share of the scope; an apply from a preview is not guarded.
// Real server, both databases.
import { BackupHealthStatus, RetentionAction, StoreOperationState } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from './backup-fixture.js';
import {
  adminAudit,
  catalogIds,
  lifecycleClient,
  settleLifecycle,
  type LifecycleClient,
} from './lifecycle-fixture.js';

describe.each(DIALECTS)('automatic retention apply on %s', (dialect) => {
  let s: BackupServer;
  let admin: LifecycleClient;
  beforeAll(async () => {
    s = await startBackupServer(dialect);
    admin = lifecycleClient(s.t.server.grpcUrl);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  /** A full backup named `name`; returns its id. */
  async function full(tree: string, name: string): Promise<string> {
    await s.put(tree, { [`k${Date.now()}${Math.random()}`]: 1 });
    const handle = await s.backup.startBackup({ name, scope: { treeId: tree } });
    const status = await s.finish(handle.operationId);
    if (status.result.case !== 'capture') throw new Error(status.error?.message ?? 'no capture');
    return status.result.value.backupId;
  }

  async function check(backupId: string): Promise<BackupHealthStatus | undefined> {
    const status = await s.finish(
      (await s.backup.startBackupHealthCheck({ backupId })).operationId,
    );
    return status.result.case === 'healthReport' ? status.result.value.status : undefined;
  }

  /** What the scheduler's hook does after a scheduled full capture named `capture`. */
  async function runAutomatic(tree: string, capture: string) {
    const record = await s.t.server.lifecycle.afterScheduledCapture(
      'default',
      { treeName: tree, keyPrefix: '' },
      { name: capture, incremental: false },
    );
    if (!record) throw new Error('no automatic apply was started');
    const status = await settleLifecycle(admin, record.id);
    if (status.result.case !== 'retentionApply') throw new Error('no apply result');
    return { status, result: status.result.value };
  }

  async function auditOf(method: string, tree: string) {
    const { records } = await adminAudit(s.t.server.grpcUrl).listAuditRecords({ method });
    return records.filter((r) => r.detail.includes(`tree ${tree}`));
  }

  it('rules set without saying do not run by themselves (the server default is off); the rules response says so', async () => {
    const scope = { treeId: 'default-off' };
    await full('default-off', 'd1');
    expect((await admin.getRetentionRules({ scope })).applyAfterSchedule).toBe(false);
    const saved = await admin.setRetentionRules({ scope, rules: { keepLast: 1 } });
    expect(saved.applyAfterSchedule).toBe(false);
    expect(
      await s.t.server.lifecycle.afterScheduledCapture(
        'default',
        { treeName: 'default-off', keyPrefix: '' },
        { name: 'd2', incremental: false },
      ),
    ).toBeUndefined();
    // Turned on explicitly, it stays on when later rules leave it unsaid.
    await admin.setRetentionRules({ scope, rules: { keepLast: 1 }, applyAfterSchedule: true });
    expect(
      (await admin.setRetentionRules({ scope, rules: { keepLast: 2 } })).applyAfterSchedule,
    ).toBe(true);
  });

  it('stops instead of deleting the newest backup a check found healthy: nothing deleted, why in the result and the audit trail; a manual apply of the same plan still deletes it', async () => {
    const tree = 'newest-healthy';
    const scope = { treeId: tree };
    const f1 = await full(tree, 'verified monday');
    await full(tree, 'tuesday');
    await full(tree, 'wednesday');
    expect(await check(f1)).toBe(BackupHealthStatus.HEALTHY);
    await admin.setRetentionRules({ scope, rules: { keepLast: 2 }, applyAfterSchedule: true });
    const before = await catalogIds(s, tree);

    const { status, result } = await runAutomatic(tree, 'nightly 21:00');
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
    expect(status.createdBy).toBe('retention');
    expect(result.afterScheduledCapture).toBe(true);
    expect(result.scheduledCapture).toEqual(
      expect.objectContaining({ backupName: 'nightly 21:00', incremental: false }),
    );
    expect(result.deletedCount).toBe(0n);
    expect(result.deleted).toEqual([]);
    expect(result.stoppedReason).toBe(
      'Stopped, nothing deleted: the rules would have deleted “verified monday”, the newest ' +
        `backup of tree ${tree} a health check found healthy. Verify the newer backups, or ` +
        'preview and apply by hand.',
    );
    expect(await catalogIds(s, tree)).toEqual(before);
    // Listed on the Operations page's list like any other operation, with that result.
    const listed = await admin.listLifecycleOperations({});
    const row = listed.operations.find((o) => o.operationId === status.operationId);
    expect(row?.result.case === 'retentionApply' && row.result.value.stoppedReason).toBe(
      result.stoppedReason,
    );
    // The audit trail says it in words, naming the backup and the capture, not ids.
    await expect.poll(async () => (await auditOf('RetentionApplyStopped', tree)).length).toBe(1);
    const [record] = await auditOf('RetentionApplyStopped', tree);
    expect(record?.subject).toBe('retention');
    expect(record?.detail).toBe(
      `Retention of tree ${tree}, after the scheduled full capture “nightly 21:00”: ` +
        result.stoppedReason,
    );
    expect(record?.detail).not.toContain(f1);
    expect(await auditOf('RetentionDelete', tree)).toEqual([]);

    // An admin who looked at the preview may still delete it: manual applies are not guarded.
    const preview = await admin.previewRetention({ scope });
    expect(
      preview.entries.filter((e) => e.action === RetentionAction.DELETE).map((e) => e.backupId),
    ).toEqual([f1]);
    const handle = await admin.startRetentionApply({
      scope,
      expectedFingerprint: preview.fingerprint,
    });
    const manual = await settleLifecycle(admin, handle.operationId);
    expect(manual.state).toBe(StoreOperationState.SUCCEEDED);
    if (manual.result.case !== 'retentionApply') throw new Error('no apply result');
    expect(manual.result.value.stoppedReason).toBe('');
    expect(manual.result.value.deletedCount).toBe(1n);
    expect(await catalogIds(s, tree)).not.toContain(f1);
  });

  it('an automatic apply that deletes no more than half, and not the newest healthy backup, goes ahead; each audit record names the backup and the capture', async () => {
    const tree = 'goes-ahead';
    const scope = { treeId: tree };
    await full(tree, 'older');
    const newest = await full(tree, 'newest');
    // None verified: the newest not found damaged is the one never to delete; keepLast 1 keeps
    // it and deletes 1 of 2 (50 %, not more).
    await admin.setRetentionRules({ scope, rules: { keepLast: 1 }, applyAfterSchedule: true });
    const { result } = await runAutomatic(tree, 'nightly');
    expect(result.stoppedReason).toBe('');
    expect(result.deletedCount).toBe(1n);
    expect(await catalogIds(s, tree)).toEqual([newest]);
    // Each deletion's audit record names the backup and the capture the apply followed.
    await expect.poll(async () => (await auditOf('RetentionDelete', tree)).length).toBe(1);
    const [record] = await auditOf('RetentionDelete', tree);
    expect(record?.targetId).toBe('older');
    expect(record?.subject).toBe('retention');
    expect(record?.detail).toMatch(
      new RegExp(
        `^“older” \\(\\d+(\\.\\d)? (bytes|KiB)\\) deleted by the retention rules of tree ${tree}, ` +
          'applied after the scheduled full capture “nightly”$',
      ),
    );
  });

  it('stops instead of deleting more than half of the scope: 3 of 4 usable backups', async () => {
    const tree = 'over-share';
    const scope = { treeId: tree };
    for (const name of ['a', 'b', 'c', 'd']) await full(tree, name);
    await admin.setRetentionRules({ scope, rules: { keepLast: 1 }, applyAfterSchedule: true });
    const before = await catalogIds(s, tree);
    const { status, result } = await runAutomatic(tree, 'nightly');
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
    expect(result.deletedCount).toBe(0n);
    expect(result.keptCount).toBe(4n);
    expect(result.stoppedReason).toBe(
      'Stopped, nothing deleted: the rules would have deleted 3 of the 4 usable backups of tree ' +
        'over-share (75 %), more than the 50 % an automatic apply may delete. Preview and apply ' +
        'by hand to delete them.',
    );
    expect(await catalogIds(s, tree)).toEqual(before);
    await expect.poll(async () => (await auditOf('RetentionApplyStopped', tree)).length).toBe(1);
    expect(await auditOf('RetentionDelete', tree)).toEqual([]);
    // Rules that delete exactly half go ahead.
    await admin.setRetentionRules({ scope, rules: { keepLast: 2 } });
    const second = await runAutomatic(tree, 'nightly');
    expect(second.result.stoppedReason).toBe('');
    expect(second.result.deletedCount).toBe(2n);
    expect((await catalogIds(s, tree)).length).toBe(2);
  });
});
