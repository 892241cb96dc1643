import { Code, createClient } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import { DurationSchema } from '@bufbuild/protobuf/wkt';
import {
  BackupControlService,
  BackupKind,
  BackupScopeRunOutcome,
  StoreBackupApiOperation,
  durationFromMs,
  durationToMs,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAST_ROLE_BY_METHOD } from '../support/least-roles.js';
import { DIALECTS } from '../support/test-storage.js';
import { codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';

describe.each(DIALECTS)('backup schedules and health on %s', (dialect) => {
  let s: BackupServer;
  beforeAll(async () => {
    // A test-only scheduler minimum of 1 s, so a schedule fires within the test.
    s = await startBackupServer(dialect, { STORE_SCHEDULER_MIN_INTERVAL: '1' });
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  it('clamps the interval up to the minimum, refuses a non-positive one, and cancels idempotently', async () => {
    const scope = { treeId: 'clamp' };
    await s.put('clamp', { a: 1 });
    const made = await s.backup.scheduleBackup({
      scope,
      incremental: false,
      interval: durationFromMs(200),
    });
    expect(made.scheduled).toBe(true);
    expect(durationToMs(made.effectiveInterval)).toBe(1000);
    const kept = await s.backup.scheduleBackup({
      scope,
      incremental: true,
      interval: durationFromMs(3_600_000),
    });
    expect(durationToMs(kept.effectiveInterval)).toBe(3_600_000);
    expect(
      await codeOf(
        s.backup.scheduleBackup({ scope, incremental: false, interval: durationFromMs(0) }),
      ),
    ).toBe(Code.InvalidArgument);
    expect(await codeOf(s.backup.scheduleBackup({ scope, incremental: false }))).toBe(
      Code.InvalidArgument,
    );
    // Past a protobuf Duration's own range (10 000 years): refused, not answered Internal.
    const forever = create(DurationSchema, { seconds: 2n ** 63n - 1n });
    expect(
      await codeOf(s.backup.scheduleBackup({ scope, incremental: false, interval: forever })),
    ).toBe(Code.InvalidArgument);
    // A Duration finer than a millisecond (here one 100 ns tick past an hour) is rounded up
    // to the next whole millisecond (docs/contract.md, "Durations for ticks").
    const subTick = create(DurationSchema, { seconds: 3_600n, nanos: 100 });
    const rounded = await s.backup.scheduleBackup({ scope, incremental: false, interval: subTick });
    expect(durationToMs(rounded.effectiveInterval)).toBe(3_600_001);
    await s.backup.cancelSchedule({ scope, incremental: false });
    await s.backup.cancelSchedule({ scope, incremental: false });
    await s.backup.cancelSchedule({ scope, incremental: true });
    const cancelled = await s.backup.getScopeStatus({ scope });
    expect([cancelled.fullScheduleRegistered, cancelled.incrementalScheduleRegistered]).toEqual([
      false,
      false,
    ]);
  });

  it('a schedule of a tree that does not exist is NotFound, and its status stays absent', async () => {
    const scope = { treeId: 'never-written', keyPrefix: 'a/' };
    const hourly = durationFromMs(3_600_000);
    expect(
      await codeOf(s.backup.scheduleBackup({ scope, incremental: false, interval: hourly })),
    ).toBe(Code.NotFound);
    // Cancel stays idempotent, and the scope is absent (spec 000, Resources rule 3).
    await s.backup.cancelSchedule({ scope, incremental: false });
    expect((await s.backup.getScopeStatus({ scope })).found).toBe(false);
  });

  it('two key prefixes of one tree are two schedules: each has its own cadence, and CancelSchedule removes only its own', async () => {
    await s.put('prefixed', { 'eu/1': 1, 'us/1': 2 });
    const whole = { treeId: 'prefixed' };
    const eu = { treeId: 'prefixed', keyPrefix: 'eu/' };
    const us = { treeId: 'prefixed', keyPrefix: 'us/' };
    const every = (hours: number) => durationFromMs(hours * 3_600_000);
    await s.backup.scheduleBackup({ scope: eu, incremental: false, interval: every(1) });
    await s.backup.scheduleBackup({ scope: us, incremental: false, interval: every(2) });
    await s.backup.scheduleBackup({ scope: whole, incremental: true, interval: every(3) });
    const intervals = async (scope: { treeId: string; keyPrefix?: string }) => {
      const status = await s.backup.getScopeStatus({ scope });
      expect([status.scope?.treeId, status.scope?.keyPrefix ?? '']).toEqual([
        'prefixed',
        scope.keyPrefix ?? '',
      ]);
      return [status.runtimeFullBackupInterval, status.runtimeIncrementalBackupInterval].map(
        (d) => d && durationToMs(d) / 3_600_000,
      );
    };
    expect(await intervals(eu)).toEqual([1, undefined]);
    expect(await intervals(us)).toEqual([2, undefined]);
    expect(await intervals(whole)).toEqual([undefined, 3]);

    await s.backup.cancelSchedule({ scope: eu, incremental: false });
    expect(await intervals(eu)).toEqual([undefined, undefined]);
    expect(await intervals(us)).toEqual([2, undefined]);
    expect(await intervals(whole)).toEqual([undefined, 3]);
    // Cancelling the whole tree's full schedule (there is none) leaves the prefixes' alone.
    await s.backup.cancelSchedule({ scope: whole, incremental: false });
    expect(await intervals(us)).toEqual([2, undefined]);
    await s.backup.cancelSchedule({ scope: us, incremental: false });
    await s.backup.cancelSchedule({ scope: whole, incremental: true });
  });

  it('schedules of two prefixes due together both fire, each capturing its prefix, with its own run status', async () => {
    await s.put('twins', { 'a/1': 1, 'a/2': 2, 'b/1': 3 });
    const a = { treeId: 'twins', keyPrefix: 'a/' };
    const b = { treeId: 'twins', keyPrefix: 'b/' };
    await s.backup.scheduleBackup({ scope: a, incremental: false, interval: durationFromMs(1000) });
    await s.backup.scheduleBackup({ scope: b, incremental: false, interval: durationFromMs(1000) });
    const deadline = Date.now() + 15_000;
    let prefixes = new Set<string | undefined>();
    while (Date.now() < deadline && prefixes.size < 2) {
      const page = await s.backup.listBackups({ treeId: 'twins' });
      prefixes = new Set(page.backups.map((m) => m.keyPrefix));
      await new Promise((r) => setTimeout(r, 200));
    }
    await s.backup.cancelSchedule({ scope: a, incremental: false });
    await s.backup.cancelSchedule({ scope: b, incremental: false });
    expect([...prefixes].sort()).toEqual(['a/', 'b/']);
    const page = await s.backup.listBackups({ treeId: 'twins' });
    const entries = (prefix: string) =>
      page.backups.filter((m) => m.keyPrefix === prefix).map((m) => Number(m.entryCount));
    expect(new Set(entries('a/'))).toEqual(new Set([2]));
    expect(new Set(entries('b/'))).toEqual(new Set([1]));
    for (const scope of [a, b]) {
      const status = await s.backup.getScopeStatus({ scope });
      expect(status.lastFullSuccessUtc, scope.keyPrefix).toBeDefined();
      expect(status.chainDepth).toBe(1);
    }
    // The whole tree was never captured: its own scope has no runs.
    const whole = await s.backup.getScopeStatus({ scope: { treeId: 'twins' } });
    expect([whole.found, whole.lastFullRunUtc, whole.chainDepth]).toEqual([true, undefined, 0]);
  });

  it('a short-interval incremental schedule produces a full backup first, then incrementals, and the scope status shows them', async () => {
    const scope = { treeId: 'sched' };
    await s.put('sched', { a: 1 });
    await s.backup.scheduleBackup({ scope, incremental: true, interval: durationFromMs(1000) });
    const deadline = Date.now() + 15_000;
    let kinds: BackupKind[] = [];
    while (Date.now() < deadline) {
      const page = await s.backup.listBackups({ treeId: 'sched' });
      kinds = page.backups.map((b) => b.kind).reverse();
      if (kinds.length >= 2) break;
      await s.put('sched', { [`k${Date.now()}`]: 1 });
      await new Promise((r) => setTimeout(r, 200));
    }
    await s.backup.cancelSchedule({ scope, incremental: true });
    expect(kinds.slice(0, 2)).toEqual([BackupKind.FULL, BackupKind.INCREMENTAL]);
    const ops = await s.backup.listBackupOperations({});
    expect(ops.operations.some((o) => o.createdBy === 'scheduler')).toBe(true);

    const status = await s.backup.getScopeStatus({ scope });
    expect(status.found).toBe(true);
    expect(status.incrementalScheduleRegistered).toBe(false);
    expect(status.lastFullSuccessUtc).toBeDefined();
    expect(status.lastIncrementalSuccessUtc).toBeDefined();
    expect([BackupScopeRunOutcome.SUCCEEDED, BackupScopeRunOutcome.RUNNING]).toContain(
      status.lastRunOutcome,
    );
    expect(status.chainDepth).toBeGreaterThanOrEqual(2);

    await s.backup.scheduleBackup({
      scope,
      incremental: false,
      interval: durationFromMs(3_600_000),
    });
    const registered = await s.backup.getScopeStatus({ scope });
    expect(registered.fullScheduleRegistered).toBe(true);
    expect(durationToMs(registered.runtimeFullBackupInterval)).toBe(3_600_000);
    expect(registered.runtimeIncrementalBackupInterval).toBeUndefined();
    await s.backup.cancelSchedule({ scope, incremental: false });
  });

  it('health: availability, absent report, configure with monitoring that actually runs checks', async () => {
    expect((await s.backup.isHealthMonitoringAvailable({})).available).toBe(true);
    await s.put('hm', { a: 1 });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC is under test
    const made = await s.backup.createBackup({ name: 'h', scope: { treeId: 'hm' } });
    const absent = await s.backup.getBackupHealth({ backupId: made.backupId });
    expect(absent.found).toBe(false);
    expect(
      await codeOf(
        s.backup.configureBackupHealth({ backupId: made.backupId, monitoringEnabled: true }),
      ),
    ).toBe(Code.InvalidArgument);
    expect(
      await codeOf(
        s.backup.configureBackupHealth({
          backupId: made.backupId,
          monitoringEnabled: true,
          interval: create(DurationSchema, { seconds: 315_576_000_001n }),
        }),
      ),
    ).toBe(Code.InvalidArgument);
    expect(
      await codeOf(
        s.backup.configureBackupHealth({
          backupId: 'bk_absent',
          monitoringEnabled: false,
          interval: durationFromMs(1000),
        }),
      ),
    ).toBe(Code.NotFound);
    await s.backup.configureBackupHealth({
      backupId: made.backupId,
      monitoringEnabled: true,
      interval: durationFromMs(1000),
    });
    const deadline = Date.now() + 10_000;
    let found = false;
    while (!found && Date.now() < deadline) {
      found = (await s.backup.getBackupHealth({ backupId: made.backupId })).found;
      if (!found) await new Promise((r) => setTimeout(r, 200));
    }
    const report = await s.backup.getBackupHealth({ backupId: made.backupId });
    expect(report.found).toBe(true);
    expect(report.config?.monitoringEnabled).toBe(true);
    const described = await s.backup.describeBackup({ backupId: made.backupId });
    expect(described.manifest?.lastVerifiedAt).toBeDefined();
    await s.backup.configureBackupHealth({ backupId: made.backupId, monitoringEnabled: false });
  });

  it('ProbeCapabilities lists exactly what each role allows on the scope, per the least-role table', async () => {
    const roles = ['viewer', 'operator', 'admin'] as const;
    const backupTable = LEAST_ROLE_BY_METHOD.BackupControlService!;
    const upperSnake = (name: string) => name.replace(/(?<!^)([A-Z])/g, '_$1').toUpperCase();
    for (const role of roles) {
      const token = (await s.t.server.tokens.issue({ tenant: 'default', roles: [role] })).token;
      // A client of its own: the fixture's clients always send the admin token.
      const probe = await createClient(BackupControlService, s.t.grpc).probeCapabilities(
        { scope: { treeId: 'any' } },
        { headers: { authorization: `Bearer ${token}` } },
      );
      // ProbeCapabilities itself is presented as Unknown and is not an operation to list.
      const expected = Object.entries(backupTable)
        .filter(
          ([method, least]) =>
            method !== 'ProbeCapabilities' && roles.indexOf(least) <= roles.indexOf(role),
        )
        .map(
          ([method]) =>
            StoreBackupApiOperation[upperSnake(method) as keyof typeof StoreBackupApiOperation],
        )
        .sort((a, b) => a - b);
      expect(expected.every((op) => op !== undefined)).toBe(true);
      expect(probe.treeId).toBe('any');
      expect(
        [...probe.allowedOperations].sort((a, b) => a - b),
        role,
      ).toEqual(expected);
    }
    expect(await codeOf(s.backup.probeCapabilities({ scope: { treeId: '..' } }))).toBe(
      Code.InvalidArgument,
    );
  });
});

describe.each(DIALECTS)('health monitoring switched off on %s', (dialect) => {
  let s: BackupServer;
  beforeAll(async () => {
    s = await startBackupServer(dialect, {
      STORE_HEALTH_MONITORING: 'false',
      STORE_SCHEDULER_MIN_INTERVAL: '1',
    });
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  it('IsHealthMonitoringAvailable says false, and configured monitoring runs no checks', async () => {
    expect((await s.backup.isHealthMonitoringAvailable({})).available).toBe(false);
    await s.put('off', { a: 1 });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC is under test
    const made = await s.backup.createBackup({ name: 'h', scope: { treeId: 'off' } });
    await s.backup.configureBackupHealth({
      backupId: made.backupId,
      monitoringEnabled: true,
      interval: durationFromMs(1000),
    });
    // Two intervals and more: with monitoring on, a report would be stored by now.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await s.backup.getBackupHealth({ backupId: made.backupId })).found).toBe(false);
    // An explicit check still works.
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the obsolete RPC is under test
    await s.backup.checkBackupHealth({ backupId: made.backupId });
    expect((await s.backup.getBackupHealth({ backupId: made.backupId })).found).toBe(true);
  });
});
