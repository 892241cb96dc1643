import { Code, ConnectError } from '@connectrpc/connect';
import {
  KeepReasonKind,
  RetentionAction,
  StoreOperationState,
  durationFromMs,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/test-storage.js';
import { codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';
import {
  adminAudit,
  capture,
  catalogIds,
  lifecycleClient,
  settleLifecycle,
  type LifecycleClient,
} from './lifecycle-fixture.js';

describe.each(DIALECTS)('backup lifecycle: retention and protection on %s', (dialect) => {
  let s: BackupServer;
  let admin: LifecycleClient;
  let viewer: LifecycleClient;
  let operator: LifecycleClient;
  beforeAll(async () => {
    // A test-only scheduler minimum of 1 s, so a schedule fires within the test. No share limit on
    // automatic applies: on a slow machine several captures can pile up before one applies, and
    // the guard has tests of its own (retention-auto-apply*.test.ts).
    s = await startBackupServer(dialect, {
      STORE_SCHEDULER_MIN_INTERVAL: '1',
      STORE_RETENTION_AUTO_MAX_SHARE: '1',
    });
    admin = lifecycleClient(s.t.server.grpcUrl);
    const issue = async (role: 'viewer' | 'operator') =>
      (await s.t.server.tokens.issue({ tenant: 'default', roles: [role], name: `${role} bot` }))
        .token;
    viewer = lifecycleClient(s.t.server.grpcUrl, await issue('viewer'));
    operator = lifecycleClient(s.t.server.grpcUrl, await issue('operator'));
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  async function messageOf(promise: Promise<unknown>): Promise<string> {
    try {
      await promise;
      return 'ok';
    } catch (error) {
      return ConnectError.from(error).rawMessage;
    }
  }

  it('least roles: viewer reads and previews, operator protects and applies, admin unprotects and sets rules', async () => {
    const scope = { treeId: 'roles' };
    const id = await capture(s, 'roles');
    const rules = { keepLast: 1 };
    expect(await codeOf(viewer.getRetentionRules({ scope }))).toBe('ok');
    expect(await codeOf(viewer.previewRetention({ scope }))).toBe('ok');
    expect(await codeOf(viewer.setRetentionRules({ scope, rules }))).toBe(Code.PermissionDenied);
    expect(await codeOf(operator.setRetentionRules({ scope, rules }))).toBe(Code.PermissionDenied);
    expect(await codeOf(viewer.protectBackup({ backupId: id, reason: 'x' }))).toBe(
      Code.PermissionDenied,
    );
    expect(await codeOf(operator.protectBackup({ backupId: id, reason: 'audit' }))).toBe('ok');
    expect(await codeOf(operator.unprotectBackup({ backupId: id, reason: 'done' }))).toBe(
      Code.PermissionDenied,
    );
    expect(await codeOf(admin.unprotectBackup({ backupId: id, reason: 'done' }))).toBe('ok');
    const { fingerprint } = await viewer.previewRetention({ scope });
    expect(
      await codeOf(viewer.startRetentionApply({ scope, expectedFingerprint: fingerprint })),
    ).toBe(Code.PermissionDenied);
    expect(await codeOf(admin.setRetentionRules({ scope, rules: { timeZone: 'Mars/Base' } }))).toBe(
      Code.InvalidArgument,
    );
    expect(await codeOf(operator.protectBackup({ backupId: id, reason: '  ' }))).toBe(
      Code.InvalidArgument,
    );
  });

  it('the preview lists exactly what goes (chains whole, incrementals first) with keep reasons; apply deletes exactly that', async () => {
    const tree = 'chains';
    const scope = { treeId: tree };
    const f0 = await capture(s, tree);
    const i0 = await capture(s, tree, f0);
    const f1 = await capture(s, tree);
    const i1 = await capture(s, tree, f1);
    const i2 = await capture(s, tree, i1);
    const set = await admin.setRetentionRules({
      scope,
      rules: { keepLast: 1, timeZone: 'Europe/Berlin' },
    });
    expect(set.configured).toBe(true);
    expect(set.rules?.timeZone).toBe('Europe/Berlin');
    const preview = await viewer.previewRetention({ scope });
    const go = preview.entries.filter((e) => e.action === RetentionAction.DELETE);
    expect(go.map((e) => e.backupId)).toEqual([i0, f0]);
    expect(preview.deleteCount).toBe(2n);
    expect(preview.bytesFreed).toBe(go.reduce((sum, e) => sum + e.byteSize, 0n));
    const kept = Object.fromEntries(
      preview.entries
        .filter((e) => e.action === RetentionAction.KEEP)
        .map((e) => [e.backupId, e.reasons.map((r) => [r.kind, r.text])]),
    );
    expect(kept[i2]).toEqual([[KeepReasonKind.LAST, 'last 1 of 1']]);
    expect(kept[i1]).toEqual([[KeepReasonKind.BASE, `base of inc of ${i1}`]]);
    expect(kept[f1]).toEqual([[KeepReasonKind.BASE, `base of inc of ${f1}`]]);

    const handle = await operator.startRetentionApply({
      scope,
      expectedFingerprint: preview.fingerprint,
    });
    const status = await settleLifecycle(admin, handle.operationId);
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
    const result = await viewer.getRetentionApplyResult({ operationId: handle.operationId });
    expect(result.available).toBe(true);
    expect(result.deletedBackupIds).toEqual([i0, f0]);
    expect(result.bytesFreed).toBe(preview.bytesFreed);
    // The status carries the result too (listed and single), naming what is gone from the catalog.
    const summary = {
      case: 'retentionApply',
      value: expect.objectContaining({
        scope: expect.objectContaining({ treeId: tree }),
        deletedCount: 2n,
        bytesFreed: preview.bytesFreed,
        keptCount: 3n,
        deletedElsewhereCount: 0n,
        deleted: go.map((e) =>
          expect.objectContaining({ backupId: e.backupId, name: e.name, byteSize: e.byteSize }),
        ),
        afterScheduledCapture: false,
        fingerprint: preview.fingerprint,
      }),
    };
    expect(go.every((e) => e.name !== '')).toBe(true);
    expect(status.result).toEqual(summary);
    const listed = await viewer.listLifecycleOperations({});
    expect(listed.operations.find((o) => o.operationId === handle.operationId)?.result).toEqual(
      summary,
    );
    expect(await catalogIds(s, tree)).toEqual([f1, i1, i2].sort());
    // Each deletion is an audit record of its own, naming the backup (its id is gone with it).
    const audit = adminAudit(s.t.server.grpcUrl);
    await expect
      .poll(async () => {
        const { records } = await audit.listAuditRecords({ method: 'RetentionDelete' });
        return records
          .filter((r) => r.detail.includes('tree chains'))
          .map((r) => r.targetId)
          .sort();
      })
      .toEqual([`full ${tree}`, `inc of ${f0}`]);
    const { records } = await audit.listAuditRecords({ method: 'RetentionDelete' });
    expect(records.find((r) => r.targetId === `inc of ${f0}`)?.detail).toMatch(
      new RegExp(
        `^“inc of ${f0}” \\(\\d+(\\.\\d)? (bytes|KiB)\\) deleted by the retention rules of tree chains, applied from a preview$`,
      ),
    );
  });

  it('a protected backup and its chain are never deleted, by retention or by DeleteBackup, until unprotected', async () => {
    const tree = 'held';
    const scope = { treeId: tree };
    const f0 = await capture(s, tree);
    const i0 = await capture(s, tree, f0);
    const f1 = await capture(s, tree);
    const { protection } = await operator.protectBackup({ backupId: i0, reason: 'legal hold 42' });
    expect(protection?.reason).toBe('legal hold 42');
    expect(protection?.protectedBy).not.toBe('');
    const listed = await viewer.listBackupProtections({ treeId: tree });
    expect(listed.protections.map((p) => p.backupId)).toEqual([i0]);

    // DeleteBackup of the protected incremental, and of its base with cascade, name the hold in
    // words: the backups by name, the token by its name, the time without an ISO stamp.
    const own = await messageOf(s.backup.deleteBackup({ backupId: i0 }));
    expect(own).toMatch(
      new RegExp(
        `^backup “inc of ${f0}” is protected by operator bot since \\d{1,2} \\w{3} \\d{4}, ` +
          `\\d{2}:\\d{2} UTC \\(legal hold 42\\); unprotect it before deleting it$`,
      ),
    );
    expect(await codeOf(s.backup.deleteBackup({ backupId: f0, cascade: true }))).toBe(
      Code.FailedPrecondition,
    );
    const cascaded = await messageOf(s.backup.deleteBackup({ backupId: f0, cascade: true }));
    expect(cascaded).toContain(
      `backup “full ${tree}” cannot be deleted: backup “inc of ${f0}”, which depends on it, ` +
        'is protected by operator bot since ',
    );
    for (const message of [own, cascaded]) {
      expect(message).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      expect(message).not.toContain(protection!.protectedBy.slice('token:'.length));
    }

    await admin.setRetentionRules({ scope, rules: { keepLast: 1 } });
    const preview = await viewer.previewRetention({ scope });
    expect(preview.deleteCount).toBe(0n);
    const reasons = Object.fromEntries(
      preview.entries.map((e) => [e.backupId, e.reasons.map((r) => r.kind)]),
    );
    expect(reasons[i0]).toEqual([KeepReasonKind.PROTECTED]);
    expect(reasons[f0]).toEqual([KeepReasonKind.BASE]);
    expect(reasons[f1]).toEqual([KeepReasonKind.LAST]);
    // The protected reason names the token that protected it, not its subject.
    const held = preview.entries.find((e) => e.backupId === i0)!;
    expect(held.reasons[0]?.text).toBe('protected by operator bot: legal hold 42');

    await admin.unprotectBackup({ backupId: i0, reason: 'case closed' });
    expect(await codeOf(admin.unprotectBackup({ backupId: i0, reason: 'again' }))).toBe(
      Code.FailedPrecondition,
    );
    const after = await viewer.previewRetention({ scope, action: RetentionAction.DELETE });
    expect(after.entries.map((e) => e.backupId)).toEqual([i0, f0]);
    expect(await codeOf(s.backup.deleteBackup({ backupId: f0, cascade: true }))).toBe('ok');
    expect(await catalogIds(s, tree)).toEqual([f1]);
  });

  it('an apply of a preview the catalog has moved past is refused (FailedPrecondition), and so is a protection made since', async () => {
    const tree = 'stale';
    const scope = { treeId: tree };
    await capture(s, tree);
    const old = await capture(s, tree);
    await admin.setRetentionRules({ scope, rules: { keepLast: 1 } });
    const first = await viewer.previewRetention({ scope });
    await capture(s, tree);
    expect(
      await codeOf(operator.startRetentionApply({ scope, expectedFingerprint: first.fingerprint })),
    ).toBe(Code.FailedPrecondition);
    const second = await viewer.previewRetention({ scope });
    await operator.protectBackup({ backupId: old, reason: 'keep' });
    expect(
      await messageOf(
        operator.startRetentionApply({ scope, expectedFingerprint: second.fingerprint }),
      ),
    ).toContain('changed since the preview');
    expect((await catalogIds(s, tree)).length).toBe(3);
    // Rules changing since the preview refuse the apply too.
    const third = await viewer.previewRetention({ scope });
    await admin.setRetentionRules({ scope, rules: { keepLast: 2 } });
    expect(
      await codeOf(operator.startRetentionApply({ scope, expectedFingerprint: third.fingerprint })),
    ).toBe(Code.FailedPrecondition);
  });

  it('runs by itself after each scheduled capture of the scope when turned on, and not when turned off', async () => {
    const tree = 'auto';
    const scope = { treeId: tree };
    await s.put(tree, { a: 1 });
    await admin.setRetentionRules({ scope, rules: { keepLast: 2 }, applyAfterSchedule: true });
    const off = { treeId: 'auto-off' };
    await s.put('auto-off', { a: 1 });
    await admin.setRetentionRules({
      scope: off,
      rules: { keepLast: 1, keepWithin: durationFromMs(0) },
      applyAfterSchedule: false,
    });
    for (const target of [scope, off]) {
      await s.backup.scheduleBackup({
        scope: target,
        incremental: false,
        interval: durationFromMs(1000),
      });
    }
    // Five scheduled captures of each scope: retention keeps two of "auto", all of "auto-off".
    await expect
      .poll(async () => (await s.backup.listBackups({ treeId: 'auto-off' })).backups.length, {
        timeout: 20_000,
        interval: 250,
      })
      .toBeGreaterThanOrEqual(5);
    for (const target of [scope, off]) await s.backup.cancelSchedule({ scope: target });
    await expect
      .poll(
        async () => {
          const ops = await admin.listLifecycleOperations({});
          return ops.operations.every((o) => o.state >= StoreOperationState.SUCCEEDED);
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    expect((await catalogIds(s, tree)).length).toBe(2);
    const ops = await admin.listLifecycleOperations({});
    const autoRuns = ops.operations.filter((o) => o.createdBy === 'retention');
    expect(autoRuns.length).toBeGreaterThanOrEqual(3);
    expect(autoRuns.every((o) => o.targetId === tree)).toBe(true);
    const deletedByAuto = autoRuns.map((o) =>
      o.result.case === 'retentionApply' && o.result.value.afterScheduledCapture
        ? Number(o.result.value.deletedCount)
        : Number.NaN,
    );
    expect(deletedByAuto.every((n) => n >= 0)).toBe(true);
    expect(deletedByAuto.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect((await catalogIds(s, 'auto-off')).length).toBeGreaterThanOrEqual(5);
  });

  it('a viewer previews draft rules before they are saved; the stored rules stay and an apply of the draft preview is refused', async () => {
    const tree = 'draft';
    const scope = { treeId: tree };
    const ids = [await capture(s, tree), await capture(s, tree), await capture(s, tree)];
    const draft = await viewer.previewRetention({ scope, draftRules: { keepLast: 1 } });
    expect(draft.configured).toBe(false);
    expect(draft.rules?.keepLast).toBe(1);
    expect(draft.deleteCount).toBe(2n);
    const stored = await viewer.previewRetention({ scope });
    expect(stored.deleteCount).toBe(0n);
    expect(stored.fingerprint).not.toBe(draft.fingerprint);
    expect(
      await codeOf(operator.startRetentionApply({ scope, expectedFingerprint: draft.fingerprint })),
    ).toBe(Code.FailedPrecondition);
    expect(
      await codeOf(viewer.previewRetention({ scope, draftRules: { timeZone: 'Mars/Base' } })),
    ).toBe(Code.InvalidArgument);
    // Once the same rules are saved, the stored preview is the draft's, fingerprint and all.
    await admin.setRetentionRules({ scope, rules: { keepLast: 1 } });
    expect((await viewer.previewRetention({ scope })).fingerprint).toBe(draft.fingerprint);
    expect((await catalogIds(s, tree)).length).toBe(ids.length);
  });
});
