import { timestampMs } from '@bufbuild/protobuf/wkt';
import { Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupInsightService,
  BackupKind,
  BackupScopeRunOutcome,
  durationFromMs,
  durationToMs,
  type ScheduleOverview,
} from '@store/contract';
import { BackupLifecycleService } from '@store/contract/gen/store/lifecycle/v1/backup_lifecycle_pb.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { ADMIN_TOKEN, codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';

const SECOND = 1000;

/** Polls until `check` returns a value, or fails after the deadline. */
async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** "HH:mm" of an instant in a zone. */
function timeOfDay(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(ms));
}

describe.each(DIALECTS)('schedules overview on %s', (dialect) => {
  let s: BackupServer;
  let insight: ReturnType<typeof createClient<typeof BackupInsightService>>;
  let lifecycle: ReturnType<typeof createClient<typeof BackupLifecycleService>>;
  beforeAll(async () => {
    // A test-only scheduler minimum of 1 s, so schedules fire within the test.
    s = await startBackupServer(dialect, { STORE_SCHEDULER_MIN_INTERVAL: '1' });
    const transport = createGrpcTransport({
      baseUrl: s.t.server.grpcUrl,
      interceptors: [bearerInterceptor(ADMIN_TOKEN)],
    });
    insight = createClient(BackupInsightService, transport);
    lifecycle = createClient(BackupLifecycleService, transport);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  const overviewOf = async (treeId: string, keyPrefix = ''): Promise<ScheduleOverview> => {
    const page = await insight.listSchedules({ pageSize: 1000 });
    const found = page.schedules.find(
      (v) => v.scope?.treeId === treeId && (v.scope.keyPrefix ?? '') === keyPrefix,
    );
    if (!found) throw new Error(`no schedule of ${treeId} ${keyPrefix}`);
    return found;
  };

  it('lists two scopes of one tree, each with its cadences and next five runs, in key order', async () => {
    await s.put('stock', { 'eu/1': 1, 'us/1': 2 });
    const hours = (n: number) => durationFromMs(n * 3_600_000);
    const before = Date.now();
    await s.backup.scheduleBackup({
      scope: { treeId: 'stock', keyPrefix: 'us/' },
      interval: hours(6),
    });
    await s.backup.scheduleBackup({
      scope: { treeId: 'stock', keyPrefix: 'eu/' },
      interval: hours(24),
    });
    await s.backup.scheduleBackup({
      scope: { treeId: 'stock', keyPrefix: 'eu/' },
      incremental: true,
      interval: hours(4),
    });
    const page = await insight.listSchedules({});
    const stock = page.schedules.filter((v) => v.scope?.treeId === 'stock');
    expect(stock.map((v) => v.scope?.keyPrefix)).toEqual(['eu/', 'us/']);
    const [eu, us] = stock as [ScheduleOverview, ScheduleOverview];
    expect(durationToMs(eu.full?.interval)).toBe(24 * 3_600_000);
    expect(durationToMs(eu.incremental?.interval)).toBe(4 * 3_600_000);
    expect(us.incremental).toBeUndefined();
    // Unanchored: one interval from registration, then every interval.
    const usNext = timestampMs(us.full!.nextRunTime!);
    expect(usNext - before).toBeGreaterThanOrEqual(6 * 3_600_000);
    expect(usNext - before).toBeLessThan(6 * 3_600_000 + 60 * SECOND);
    expect(us.nextRuns.map((r) => timestampMs(r.runTime!) - usNext)).toEqual(
      [0, 1, 2, 3, 4].map((k) => k * 6 * 3_600_000),
    );
    // Both cadences of eu/ merged: incrementals at 4, 8, 12, 16, 20 h come before the full's 24 h.
    expect(eu.nextRuns.map((r) => r.incremental)).toEqual([true, true, true, true, true]);
    expect(eu.nextRuns[0]?.backupName).toMatch(
      /^stock eu\/ incremental \d{4}-\d\d-\d\d \d\d:\d\d UTC$/,
    );
    expect([eu.lastRun, eu.chainDepth, eu.defaultNameTemplate]).toEqual([undefined, 0, true]);
    // No retention rules set, nothing protected.
    expect([eu.retentionRules, eu.protectedCount]).toEqual(['', 0]);

    // Paging walks the same scopes.
    const first = await insight.listSchedules({ pageSize: 1 });
    expect(first.nextPageToken).not.toBe('');
    const rest = await insight.listSchedules({ pageSize: 1000, pageToken: first.nextPageToken });
    expect([...first.schedules, ...rest.schedules].map((v) => v.scope?.keyPrefix ?? '')).toEqual(
      page.schedules.map((v) => v.scope?.keyPrefix ?? ''),
    );
    expect(await codeOf(insight.listSchedules({ pageToken: 'nope' }))).toBe(Code.InvalidArgument);
    for (const keyPrefix of ['eu/', 'us/']) {
      for (const incremental of [false, true]) {
        await s.backup.cancelSchedule({ scope: { treeId: 'stock', keyPrefix }, incremental });
      }
    }
    const after = await insight.listSchedules({});
    expect(after.schedules.some((v) => v.scope?.treeId === 'stock')).toBe(false);
  });

  it('refuses a bad anchor, zone or template with InvalidArgument and an absent tree with NotFound', async () => {
    await s.put('checked', { a: 1 });
    const scope = { treeId: 'checked' };
    const configure = (extras: {
      anchor?: { timeOfDay: string; timeZone: string };
      nameTemplate?: string;
    }) => codeOf(insight.configureScheduleExtras({ scope, ...extras }));
    expect(await configure({ anchor: { timeOfDay: '25:00', timeZone: 'UTC' } })).toBe(
      Code.InvalidArgument,
    );
    expect(await configure({ anchor: { timeOfDay: '02:00', timeZone: 'Mars/Base' } })).toBe(
      Code.InvalidArgument,
    );
    expect(await configure({ nameTemplate: '{tree} {date}' })).toBe(Code.InvalidArgument);
    expect(
      await codeOf(insight.configureScheduleExtras({ scope: { treeId: 'never-written' } })),
    ).toBe(Code.NotFound);
    expect(await configure({ anchor: { timeOfDay: '02:00', timeZone: 'Europe/Berlin' } })).toBe(
      'ok',
    );
  });

  it('an anchored schedule fires on its anchored slots, and its backups get readable names', async () => {
    await s.put('anchored', { a: 1 });
    const scope = { treeId: 'anchored' };
    const zone = 'Europe/Berlin';
    // Anchored at this minute, every 10 s: the slots are this minute's :00, :10, :20, …
    const anchorTime = timeOfDay(Date.now(), zone);
    const configured = await insight.configureScheduleExtras({
      scope,
      anchor: { timeOfDay: anchorTime, timeZone: zone },
      nameTemplate: '{tree} {kind} {YYYY}-{MM}-{DD} {HH}:{mm}:{ss} {zone}',
    });
    expect(configured.anchor).toMatchObject({ timeOfDay: anchorTime, timeZone: zone });
    await s.backup.scheduleBackup({ scope, interval: durationFromMs(10 * SECOND) });
    const planned = await overviewOf('anchored');
    const slots = planned.nextRuns.map((r) => timestampMs(r.runTime!));
    expect(slots.every((at) => at % (10 * SECOND) === 0)).toBe(true);
    expect(slots.slice(1).map((at, i) => at - slots[i]!)).toEqual(
      [1, 2, 3, 4].map(() => 10 * SECOND),
    );
    expect(planned.nextRuns[0]?.backupName).toMatch(
      /^anchored full \d{4}-\d\d-\d\d \d\d:\d\d:[0-5]0 Europe\/Berlin$/,
    );

    const fired = await until('the anchored run', async () => {
      const page = await s.backup.listBackups({ treeId: 'anchored' });
      return page.backups[0];
    });
    await s.backup.cancelSchedule({ scope, incremental: false });
    // It fired on the first slot, within a scheduler tick or two of it.
    const firstSlot = slots[0]!;
    const startedAt = timestampMs(fired.createdAt!);
    expect(startedAt).toBeGreaterThanOrEqual(firstSlot);
    expect(startedAt - firstSlot).toBeLessThan(2 * SECOND);
    expect(fired.name).toMatch(/^anchored full \d{4}-\d\d-\d\d \d\d:\d\d:\d\d Europe\/Berlin$/);
  });

  it('the default name reads tree, kind, minute and zone', async () => {
    await s.put('named', { a: 1 });
    const scope = { treeId: 'named', keyPrefix: '' };
    await s.backup.scheduleBackup({ scope, interval: durationFromMs(SECOND) });
    const backup = await until('a named backup', async () => {
      const page = await s.backup.listBackups({ treeId: 'named' });
      return page.backups[0];
    });
    await s.backup.cancelSchedule({ scope });
    expect(backup.name).toMatch(/^named full \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  });

  it('an unchanged scheduled incremental is a skipped run naming its base, not a backup; a change is captured', async () => {
    await s.put('quiet', { a: 1 });
    const scope = { treeId: 'quiet' };
    await s.backup.scheduleBackup({ scope, incremental: true, interval: durationFromMs(SECOND) });
    // The first run has no base: it is a full backup.
    const base = await until('the first backup', async () => {
      const page = await s.backup.listBackups({ treeId: 'quiet' });
      return page.backups[0];
    });
    expect(base.kind).toBe(BackupKind.FULL);
    const skipped = await until('a no-change run', async () => {
      const view = await overviewOf('quiet');
      return view.lastRun?.outcome === BackupScopeRunOutcome.SKIPPED ? view.lastRun : undefined;
    });
    expect(skipped.incremental).toBe(true);
    expect(skipped.reason).toBe(`no change since ${base.name}`);
    expect((await s.backup.listBackups({ treeId: 'quiet' })).backups).toHaveLength(1);
    // GetScopeStatus keeps its meaning: a run happened and was skipped; no new success.
    const status = await s.backup.getScopeStatus({ scope });
    expect(status.lastRunOutcome).toBe(BackupScopeRunOutcome.SKIPPED);
    expect(status.lastIncrementalRunUtc).toBeDefined();

    await s.put('quiet', { b: 2 });
    const incremental = await until('an incremental of the change', async () => {
      const page = await s.backup.listBackups({ treeId: 'quiet' });
      return page.backups.find((b) => b.kind === BackupKind.INCREMENTAL);
    });
    await s.backup.cancelSchedule({ scope, incremental: true });
    expect(Number(incremental.entryCount)).toBe(1);
  });

  it('with capture_unchanged_incrementals an unchanged incremental is still a backup, as before', async () => {
    await s.put('loud', { a: 1 });
    const scope = { treeId: 'loud' };
    await insight.configureScheduleExtras({ scope, captureUnchangedIncrementals: true });
    await s.backup.scheduleBackup({ scope, incremental: true, interval: durationFromMs(SECOND) });
    const empty = await until('an empty incremental', async () => {
      const page = await s.backup.listBackups({ treeId: 'loud' });
      return page.backups.find((b) => b.kind === BackupKind.INCREMENTAL);
    });
    await s.backup.cancelSchedule({ scope, incremental: true });
    expect(Number(empty.entryCount)).toBe(0);
    const view = await insight.listSchedules({});
    expect(view.schedules.some((v) => v.scope?.treeId === 'loud')).toBe(false);
    // Asked by scope, its settings stay readable with no schedule registered.
    const only = await insight.listSchedules({ scope });
    expect(only.schedules.map((v) => [v.full, v.captureUnchangedIncrementals])).toEqual([
      [undefined, true],
    ]);
    const none = await insight.listSchedules({ scope: { treeId: 'loud', keyPrefix: 'x/' } });
    expect(none.schedules).toEqual([]);
  });

  it("shows the scope's retention rules in words and counts its protected backups", async () => {
    await s.put('kept', { a: 1 });
    const scope = { treeId: 'kept' };
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- a blocking capture is simplest here
    const made = await s.backup.createBackup({ name: 'pinned', scope });
    await lifecycle.protectBackup({ backupId: made.backupId, reason: 'audit hold' });
    await lifecycle.setRetentionRules({
      scope,
      rules: { keepLast: 3, keepDaily: 7, timeZone: 'Europe/Berlin' },
    });
    await s.backup.scheduleBackup({ scope, interval: durationFromMs(3_600_000) });
    const view = await overviewOf('kept');
    await s.backup.cancelSchedule({ scope });
    expect(view.retentionRules).toBe('keep last 3, 7 daily (Europe/Berlin)');
    expect(view.protectedCount).toBe(1);
    expect(view.chainDepth).toBe(1);
  });
});
