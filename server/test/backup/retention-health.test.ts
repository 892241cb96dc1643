// Issue 33, bullet 1: retention knows health. A backup a check found corrupt or missing never
// counts toward a keep rule and is never deleted by one; a preview taken before the check is
// stale; preview and apply carry each backup's health. Real server, real files, both databases.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Code } from '@connectrpc/connect';
import {
  BackupHealthStatus,
  KeepReasonKind,
  RetentionAction,
  StoreOperationState,
  durationFromMs,
  type RetentionPreview,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/test-storage.js';
import { codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';
import {
  capture,
  catalogIds,
  lifecycleClient,
  settleLifecycle,
  type LifecycleClient,
} from './lifecycle-fixture.js';

describe.each(DIALECTS)('retention knows health on %s', (dialect) => {
  let s: BackupServer;
  let admin: LifecycleClient;
  beforeAll(async () => {
    // A test-only scheduler minimum of 1 s, so scheduled captures (and their retention) run here.
    s = await startBackupServer(dialect, { STORE_SCHEDULER_MIN_INTERVAL: '1' });
    admin = lifecycleClient(s.t.server.grpcUrl);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  const artifactDir = (backupId: string) =>
    join(s.t.location.dataDir, 'artifacts', 'default', backupId);

  /** Its own artifact files (not manifest.json). */
  async function artifactFiles(backupId: string): Promise<string[]> {
    const names = await readdir(artifactDir(backupId));
    return names.filter((n) => n.endsWith('.ndjson.gz')).map((n) => join(artifactDir(backupId), n));
  }

  async function check(backupId: string): Promise<BackupHealthStatus | undefined> {
    const status = await s.finish(
      (await s.backup.startBackupHealthCheck({ backupId })).operationId,
    );
    return status.result.case === 'healthReport' ? status.result.value.status : undefined;
  }

  const entryOf = (preview: RetentionPreview, id: string) =>
    preview.entries.find((e) => e.backupId === id)!;

  it('a corrupt backup is not counted by keep-last: the newest healthy ones are kept in its place, it stays with its own reason, and a preview from before the check is refused', async () => {
    const tree = 'corrupt-newest';
    const scope = { treeId: tree };
    const f1 = await capture(s, tree);
    const f2 = await capture(s, tree);
    const f3 = await capture(s, tree);
    const f4 = await capture(s, tree);
    await admin.setRetentionRules({ scope, rules: { keepLast: 2 } });
    expect(await check(f3)).toBe(BackupHealthStatus.HEALTHY);
    const before = await admin.previewRetention({ scope });
    expect(
      before.entries.filter((e) => e.action === RetentionAction.DELETE).map((e) => e.backupId),
    ).toEqual([f2, f1]);
    // Health is on every entry: checked, or never checked.
    expect(entryOf(before, f3).healthStatus).toBe(BackupHealthStatus.HEALTHY);
    expect(entryOf(before, f3).lastVerifiedAt).toBeDefined();
    expect(entryOf(before, f4).healthStatus).toBe(BackupHealthStatus.UNSPECIFIED);
    expect(entryOf(before, f4).lastVerifiedAt).toBeUndefined();

    // Damage at rest, found by a check after the preview.
    const [file] = await artifactFiles(f4);
    const bytes = await readFile(file!);
    bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0xff;
    await writeFile(file!, bytes);
    const checkedFrom = Date.now();
    expect(await check(f4)).toBe(BackupHealthStatus.CORRUPT);

    // The old preview would delete f2, one of the two newest healthy backups: refused, nothing gone.
    expect(
      await codeOf(admin.startRetentionApply({ scope, expectedFingerprint: before.fingerprint })),
    ).toBe(Code.FailedPrecondition);
    expect(await catalogIds(s, tree)).toEqual([f1, f2, f3, f4].sort());

    const after = await admin.previewRetention({ scope });
    expect(after.fingerprint).not.toBe(before.fingerprint);
    expect(
      after.entries.filter((e) => e.action === RetentionAction.DELETE).map((e) => e.backupId),
    ).toEqual([f1]);
    const corrupt = entryOf(after, f4);
    expect(corrupt.action).toBe(RetentionAction.KEEP);
    expect(corrupt.healthStatus).toBe(BackupHealthStatus.CORRUPT);
    expect(corrupt.reasons.map((r) => [r.kind, r.text])).toEqual([
      [KeepReasonKind.DAMAGED, 'corrupt: kept until deleted by hand, never counted by a rule'],
    ]);
    const since = timestampDate(corrupt.reasons[0]!.since!).getTime();
    expect(since).toBeGreaterThanOrEqual(checkedFrom);
    expect(timestampDate(corrupt.damagedSince!).getTime()).toBe(since);
    expect(entryOf(after, f3).reasons.map((r) => r.text)).toEqual(['last 1 of 2']);
    expect(entryOf(after, f2).reasons.map((r) => r.text)).toEqual(['last 2 of 2']);
    expect(entryOf(after, f1).healthStatus).toBe(BackupHealthStatus.UNSPECIFIED);

    // Checking it again, still corrupt: the damage is as old as when it was first found.
    expect(await check(f4)).toBe(BackupHealthStatus.CORRUPT);
    const again = await admin.previewRetention({ scope });
    expect(timestampDate(entryOf(again, f4).damagedSince!).getTime()).toBe(since);
    expect(again.fingerprint).toBe(after.fingerprint);

    const handle = await admin.startRetentionApply({
      scope,
      expectedFingerprint: again.fingerprint,
    });
    const status = await settleLifecycle(admin, handle.operationId);
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
    expect(await catalogIds(s, tree)).toEqual([f2, f3, f4].sort());
    if (status.result.case !== 'retentionApply') throw new Error('no apply result');
    const result = status.result.value;
    expect(result.deleted.map((d) => [d.backupId, d.healthStatus])).toEqual([
      [f1, BackupHealthStatus.UNSPECIFIED],
    ]);
    expect(result.keptDamagedCount).toBe(1n);
    expect(result.keptDamaged.map((d) => [d.backupId, d.name, d.healthStatus])).toEqual([
      [f4, `full ${tree}`, BackupHealthStatus.CORRUPT],
    ]);
    expect(timestampDate(result.keptDamaged[0]!.damagedSince!).getTime()).toBe(since);
  });

  it('retention running by itself after scheduled captures plans with health too: it keeps the corrupt backup (never deleting it) and the two newest healthy ones', async () => {
    const tree = 'scheduled';
    const scope = { treeId: tree };
    const corrupt = await capture(s, tree);
    const [file] = await artifactFiles(corrupt);
    await writeFile(file!, (await readFile(file!)).subarray(0, 10));
    expect(await check(corrupt)).toBe(BackupHealthStatus.CORRUPT);
    await admin.setRetentionRules({ scope, rules: { keepLast: 2 }, applyAfterSchedule: true });
    await s.backup.scheduleBackup({ scope, incremental: false, interval: durationFromMs(1000) });
    // Retention deletes as captures come, so the catalog never grows: count its runs instead.
    const autoRuns = async () =>
      (await admin.listLifecycleOperations({})).operations.filter(
        (o) => o.targetId === tree && o.createdBy === 'retention',
      );
    await expect
      .poll(async () => (await autoRuns()).length, { timeout: 20_000, interval: 100 })
      .toBeGreaterThanOrEqual(3);
    await s.backup.cancelSchedule({ scope });
    // A capture in flight at the cancel still finishes and starts its run: wait until every run
    // has ended and no new one came for half a second.
    let seen = -1;
    await expect
      .poll(
        async () => {
          const runs = await autoRuns();
          const quiet = runs.length === seen;
          seen = runs.length;
          return quiet && runs.every((o) => o.state >= StoreOperationState.SUCCEEDED);
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe(true);
    const runs = await autoRuns();
    expect(runs.every((o) => o.state === StoreOperationState.SUCCEEDED)).toBe(true);
    // Each run planned itself and kept the corrupt backup by its damage.
    for (const run of runs) {
      if (run.result.case !== 'retentionApply') throw new Error('a run without its result');
      expect(run.result.value.afterScheduledCapture).toBe(true);
      expect(run.result.value.keptDamaged.map((d) => d.backupId)).toEqual([corrupt]);
    }
    const left = await catalogIds(s, tree);
    expect(left).toContain(corrupt);
    // The corrupt one and the two newest healthy ones.
    expect(left).toHaveLength(3);
    const preview = await admin.previewRetention({ scope });
    expect(preview.deleteCount).toBe(0n);
    expect(
      preview.entries.filter((e) => e.reasons.some((r) => r.kind === KeepReasonKind.LAST)),
    ).toHaveLength(2);
    expect(entryOf(preview, corrupt).healthStatus).toBe(BackupHealthStatus.CORRUPT);
  });

  it('a missing backup is not counted either and is never deleted, even when it is the oldest', async () => {
    const tree = 'missing-old';
    const scope = { treeId: tree };
    const f1 = await capture(s, tree);
    const f2 = await capture(s, tree);
    const f3 = await capture(s, tree);
    for (const file of await artifactFiles(f2)) await rm(file);
    expect(await check(f2)).toBe(BackupHealthStatus.MISSING);
    expect(await check(f3)).toBe(BackupHealthStatus.HEALTHY);
    await admin.setRetentionRules({ scope, rules: { keepLast: 2 } });
    const preview = await admin.previewRetention({ scope });
    expect(preview.deleteCount).toBe(0n);
    expect(entryOf(preview, f2).healthStatus).toBe(BackupHealthStatus.MISSING);
    expect(entryOf(preview, f2).reasons.map((r) => [r.kind, r.text])).toEqual([
      [
        KeepReasonKind.DAMAGED,
        'files missing: kept until deleted by hand, never counted by a rule',
      ],
    ]);
    expect(entryOf(preview, f1).reasons.map((r) => r.text)).toEqual(['last 2 of 2']);
    expect(entryOf(preview, f3).healthStatus).toBe(BackupHealthStatus.HEALTHY);

    // One more capture: the oldest healthy one goes, the missing one stays.
    const f4 = await capture(s, tree);
    const next = await admin.previewRetention({ scope });
    expect(
      next.entries.filter((e) => e.action === RetentionAction.DELETE).map((e) => e.backupId),
    ).toEqual([f1]);
    const handle = await admin.startRetentionApply({
      scope,
      expectedFingerprint: next.fingerprint,
    });
    expect((await settleLifecycle(admin, handle.operationId)).state).toBe(
      StoreOperationState.SUCCEEDED,
    );
    expect(await catalogIds(s, tree)).toEqual([f2, f3, f4].sort());
  });
});
